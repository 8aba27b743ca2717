from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Federation")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from federation.roles import sync_groups

        post_migrate.connect(sync_groups, dispatch_uid="federation.sync_groups")

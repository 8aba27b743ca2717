from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OfficeConfig(AppConfig):
    name = "office"
    verbose_name = _("Office")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from office import checks  # noqa: F401 - registers the system checks
        from office.access import sync_groups

        post_migrate.connect(sync_groups, dispatch_uid="office.sync_groups")

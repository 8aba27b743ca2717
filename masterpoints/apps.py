from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MasterpointsConfig(AppConfig):
    name = "masterpoints"
    verbose_name = _("Points")

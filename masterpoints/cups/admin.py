"""The cup series and the record of their winners (§ 451C–E)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation.admin_base import AuditedAdmin, FederationScopedAdmin, ReadOnlyAdmin
from masterpoints.models import CupSeries, CupWin


@admin.register(CupSeries)
class CupSeriesAdmin(AuditedAdmin, FederationScopedAdmin):
    workflow = "cups"
    list_display = ("__str__", "federation", "cup", "first_season", "seasons", "report_link")
    list_filter = ("federation", "cup")

    @admin.display(description=_("report"))
    def report_link(self, obj):
        return format_html(
            '<a href="{}?federation={}">{}</a>', reverse("cups:report"), obj.federation_id, _("Cup report")
        )

    def has_delete_permission(self, request, obj=None):
        # The user's permission and federation first; then a series with recorded wins is kept (§ 451D–E).
        return super().has_delete_permission(request, obj) and (obj is None or not obj.wins.exists())


@admin.register(CupWin)
class CupWinAdmin(ReadOnlyAdmin):
    workflow = "cups"
    federation_paths = ("series__federation",)
    list_display = ("series", "season", "player", "units", "top_player", "top_units", "recorded_by", "recorded_at")
    list_filter = ("series__cup", "series__federation")

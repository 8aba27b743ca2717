"""Admin pages of the title e-mails (§ 451B) and the cups (§ 451C–E); imported by ``masterpoints.admin``.

Title e-mails are read-only records (a failed one shows its error and is retried by the next run of
``send_title_emails``); cup wins are recorded through the cup report (``cup_win_record``), never typed in.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation.admin_base import ReadOnlyAdmin
from masterpoints.models import CupSeries, CupWin, TitleMailing


@admin.register(TitleMailing)
class TitleMailingAdmin(ReadOnlyAdmin):
    list_display = ("month", "club", "status", "attempts", "sent_at", "recipients", "last_error")
    list_filter = ("status", "federation", "month")
    search_fields = ("club__name", "club__number")


@admin.register(CupSeries)
class CupSeriesAdmin(admin.ModelAdmin):
    list_display = ("__str__", "federation", "cup", "first_season", "seasons", "report_link")
    list_filter = ("federation", "cup")

    @admin.display(description=_("report"))
    def report_link(self, obj):
        return format_html(
            '<a href="{}?federation={}">{}</a>', reverse("masterpoints:cup_report"), obj.federation_id, _("Cup report")
        )

    def has_delete_permission(self, request, obj=None):
        return obj is None or not obj.wins.exists()


@admin.register(CupWin)
class CupWinAdmin(ReadOnlyAdmin):
    list_display = ("series", "season", "player", "units", "top_player", "top_units", "recorded_by", "recorded_at")
    list_filter = ("series__cup", "series__federation")

"""The record of the monthly title e-mails (read-only: written by the sending service)."""

from __future__ import annotations

from django.contrib import admin

from federation.admin_base import ReadOnlyAdmin
from masterpoints.models import TitleMailing


@admin.register(TitleMailing)
class TitleMailingAdmin(ReadOnlyAdmin):
    list_display = ("month", "club", "status", "attempts", "sent_at", "recipients", "last_error")
    list_filter = ("status", "federation", "month")
    search_fields = ("club__name", "club__number")

"""The secretariat's list of sanction applications and granted sanctions (§ 403), decided by actions."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from federation.admin_actions import decide_with_reason
from federation.admin_base import DecidedByActionsAdmin
from tournaments.sanctions.models import Sanction, SanctionApplication
from tournaments.sanctions.services import sanction_decide


@admin.register(SanctionApplication)
class SanctionApplicationAdmin(DecidedByActionsAdmin):
    """The secretariat's decisions on sanction applications (§ 403B7), one by one or in bulk."""

    list_display = ["name", "club", "date", "category", "quota", "basis", "recommendation", "status"]
    list_filter = ["status", "category", "quota", "basis", "recommendation", "district", "federation"]
    search_fields = ["name", "club__name", "club__number"]
    date_hierarchy = "date"
    list_select_related = ["club", "district"]
    actions = ["approve", "refuse"]

    @admin.action(description=_("Approve the selected applications"), permissions=["change"])
    def approve(self, request, queryset):
        """Approve each selected application through ``sanction_decide`` (§ 403B4, § 403B7); a reason is optional."""
        return decide_with_reason(
            self,
            request,
            queryset,
            title=str(_("Approve the selected applications")),
            reason_required=False,
            decide=lambda app, reason: sanction_decide(
                actor=request.user, application=app, approve=True, reason=reason
            ),
        )

    @admin.action(description=_("Refuse the selected applications, with a reason"), permissions=["change"])
    def refuse(self, request, queryset):
        """Refuse each selected application through ``sanction_decide``, with the reason it needs (§ 403B7)."""
        return decide_with_reason(
            self,
            request,
            queryset,
            title=str(_("Refuse the selected applications")),
            decide=lambda app, reason: sanction_decide(
                actor=request.user, application=app, approve=False, reason=reason
            ),
        )


@admin.register(Sanction)
class SanctionAdmin(DecidedByActionsAdmin):
    """The sanctions granted (§ 403B1–4), read only: a sanction comes only from an approved application."""

    list_display = ["club", "category", "quota", "date", "end_date", "dispensations", "granted_at"]
    list_filter = ["category", "quota", "federation"]
    search_fields = ["club__name", "club__number", "application__name"]
    date_hierarchy = "date"
    list_select_related = ["club"]

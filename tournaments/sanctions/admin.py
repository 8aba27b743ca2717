"""The secretariat's list of sanction applications and granted sanctions (§ 403), decided by actions."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Prefetch
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation.admin_actions import decide_with_reason
from federation.admin_base import DecidedByActionsAdmin
from tournaments.models import Tournament
from tournaments.sanctions.models import Sanction, SanctionApplication
from tournaments.sanctions.services import sanction_decide


@admin.register(SanctionApplication)
class SanctionApplicationAdmin(DecidedByActionsAdmin):
    """The secretariat's decisions on sanction applications (§ 403B7), one by one or in bulk."""

    workflow = "sanctions"

    list_display = ["name", "club", "date", "category", "quota", "basis", "founded", "recommendation", "status"]
    list_filter = ["status", "category", "quota", "basis", "recommendation", "district", "federation"]
    search_fields = ["name", "club__name", "club__number"]
    date_hierarchy = "date"
    list_select_related = ["club", "district"]
    actions = ["approve", "refuse"]

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "founded"]

    @admin.display(description=_("club founded"), ordering="club__founding_year")
    def founded(self, obj):
        """The club's founding year on record, which a jubilee's years count from (§ 403B4, D-Q26)."""
        return obj.club.founding_year or "–"

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
    """The sanctions granted (§ 403B1–4), read only: a sanction comes only from an approved application, and
    pays the one tournament its application names (§ 403B1, § 403B7, D-Q24), shown as "used by"."""

    workflow = "sanctions"

    list_display = ["club", "category", "quota", "date", "end_date", "dispensations", "granted_at", "used_by"]
    list_filter = ["category", "quota", "federation"]
    search_fields = ["club__name", "club__number", "application__name"]
    date_hierarchy = "date"
    list_select_related = ["club"]

    def get_queryset(self, request):
        current = Tournament.objects.current().only("pk", "name", "date", "sanction_id")
        return super().get_queryset(request).prefetch_related(Prefetch("tournaments", current, to_attr="paid"))

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "used_by"]

    @admin.display(description=_("used by"))
    def used_by(self, obj):
        """The current tournament whose SP or GP this sanction paid (at most one, D-Q24), linked to its page."""
        if not obj.paid:
            return "–"
        tournament = obj.paid[0]
        return format_html('<a href="{}">{}</a>', tournament.get_absolute_url(), tournament)

"""The admin of the federation's and the clubs' records: federations, regions, players, rule sets, clubs,
memberships, officers and the audit log."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubMembership, PlayingTime
from federation.admin_base import ReadOnlyAdmin
from federation.models import AuditEvent, Federation, Player, Region, RuleSet
from federation.rulesets import check_payload
from office.models import Officer
from office.services import officer_assign, officer_revoke


@admin.register(Federation)
class FederationAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "scheme", "default_language", "contact_email"]
    search_fields = ["name", "code"]


@admin.register(Region)
class RegionAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "kind", "parent", "federation"]
    list_filter = ["federation", "kind"]
    search_fields = ["name", "code"]
    list_select_related = ["parent", "federation"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["number", "last_name", "first_name", "status", "dues_paid_until", "federation"]
    list_filter = ["federation", "status", "hide_name"]
    search_fields = ["number", "last_name", "first_name", "email"]
    list_select_related = ["federation"]
    raw_id_fields = ["user"]
    date_hierarchy = "dues_paid_until"


class RuleSetForm(forms.ModelForm):
    class Meta:
        model = RuleSet
        fields = ["federation", "valid_from", "name", "payload", "note"]

    def clean(self):
        data = super().clean()
        federation, payload = data.get("federation"), data.get("payload")
        if federation and payload:
            if not isinstance(payload, dict):
                self.add_error("payload", _("The rule values must be a JSON object of field names and values."))
            else:
                try:
                    check_payload(federation.scheme, payload)
                except ValueError as error:
                    self.add_error("payload", str(error))
        return data


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    """Dated rule sets: the payload overrides the engine's built-in values from ``valid_from`` on."""

    form = RuleSetForm
    list_display = ["name", "federation", "valid_from"]
    list_filter = ["federation"]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    """Read-only: the audit log is append-only and written by services only."""

    list_display = ["created_at", "action", "target_repr", "actor"]
    list_filter = ["action", "target_type"]
    search_fields = ["action", "target_repr", "target_id", "actor__username"]
    date_hierarchy = "created_at"
    list_select_related = ["actor"]


admin.site.site_header = _("Masterpoint office")
admin.site.site_title = _("Masterpoint office")
admin.site.index_title = _("Secretariat")


class PlayingTimeInline(admin.TabularInline):
    model = PlayingTime
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "federation", "email", "active"]
    list_filter = ["federation", "active", "regions"]
    search_fields = ["number", "name", "email"]
    filter_horizontal = ["regions"]
    inlines = [PlayingTimeInline]
    list_select_related = ["federation"]


@admin.register(ClubMembership)
class ClubMembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "is_home", "since", "until"]
    list_filter = ["is_home", "club__federation"]
    search_fields = ["player__number", "player__last_name", "club__name", "club__number"]
    raw_id_fields = ["player", "club"]
    list_select_related = ["player", "club"]


@admin.register(Officer)
class OfficerAdmin(admin.ModelAdmin):
    """Offices are granted and ended through the services, which also set admin access and audit."""

    list_display = ["user", "role", "federation", "club", "region"]
    list_filter = ["role", "federation"]
    search_fields = ["user__username", "user__email", "club__name", "region__name"]
    raw_id_fields = ["user", "club"]
    list_select_related = ["user", "federation", "club", "region"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        saved = officer_assign(
            actor=request.user,
            user=obj.user,
            role=obj.role,
            federation=obj.federation,
            club=obj.club,
            region=obj.region,
        )
        obj.pk = saved.pk

    def delete_model(self, request, obj):
        officer_revoke(actor=request.user, officer=obj)

    def delete_queryset(self, request, queryset):
        for officer in queryset:
            officer_revoke(actor=request.user, officer=officer)

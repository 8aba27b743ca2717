from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from federation.admin_base import ReadOnlyAdmin
from federation.models import AuditEvent, Federation, Player, Region, RuleSet
from federation.rulesets import check_payload


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

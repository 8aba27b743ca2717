"""The admin of the federation's and the clubs' records: federations, regions, players, rule sets, clubs,
memberships, officers and the audit log.

Every page here (and every admin of the project) is scoped by :func:`office.access.admin_scope`, installed
below for ``federation.admin_base.FederationScopedAdmin``: a member of staff sees the federations they
serve and writes only in those whose secretariat they are.
"""

from django import forms
from django.apps import apps
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import CharField, Q
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, ClubMembership, PlayingTime
from federation.admin_base import (
    AuditedAdmin,
    FederationScopedAdmin,
    ReadOnlyAdmin,
    federation_paths,
    install_scope,
    scope_filter,
)
from federation.models import AuditEvent, Federation, Player, Region, RuleSet
from federation.names import fold_name
from federation.rulesets import check_payload
from office.access import admin_scope, may_appoint
from office.accounts.services import player_login_invite
from office.accounts.views import site_of
from office.models import Officer
from office.register.admin import RegisterImportMixin
from office.second_factor import second_factor_reset
from office.services import officer_assign, officer_revoke

install_scope(admin_scope)


@admin.register(Federation)
class FederationAdmin(AuditedAdmin, FederationScopedAdmin):
    """A federation's own row: its secretariat keeps the contact details; setting one up (or removing it),
    its code and its points scheme are a superuser's (nobody serves a federation before it exists)."""

    federation_paths = ("pk",)
    list_display = ["name", "code", "scheme", "default_language", "contact_email"]
    search_fields = ["name", "code"]

    def has_add_permission(self, request):
        return super().has_add_permission(request) and self.scope(request, "add") is None

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self.scope(request, "delete") is None

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and self.scope(request, "change") is not None:
            return ["code", "scheme"]
        return super().get_readonly_fields(request, obj)


@admin.register(Region)
class RegionAdmin(AuditedAdmin, FederationScopedAdmin):
    list_display = ["name", "code", "kind", "parent", "federation"]
    list_filter = ["federation", "kind"]
    search_fields = ["name", "code"]
    list_select_related = ["parent", "federation"]


@admin.register(Player)
class PlayerAdmin(AuditedAdmin, RegisterImportMixin, FederationScopedAdmin):
    """Players; the secretariat imports the member register from here (``office.register``).

    A player's login is read-only here (else the secretariat could bind a player to any login,
    an officer's or another federation's, by its raw id): a login is bound only by the player's own sign-up
    through the link of ``invite_to_log_in`` (``office.accounts``), to the address on the register."""

    change_list_template = "office/player_change_list.html"
    change_form_template = "office/player_change_form.html"
    list_display = ["number", "last_name", "first_name", "status", "dues_paid_until", "federation", "points_record"]
    list_filter = ["federation", "status", "hide_name"]
    search_fields = ["number", "last_name", "first_name", "email"]
    list_select_related = ["federation"]
    readonly_fields = ["user"]
    date_hierarchy = "dues_paid_until"
    actions = ["invite_to_log_in"]

    @admin.action(description=_("Send the selected players a link to make their login"), permissions=["change"])
    def invite_to_log_in(self, request, queryset):
        """The link of ``office.accounts`` to each selected player's register address; the rows are
        those of the secretariat's own federation only (``permissions=["change"]``, FederationScopedAdmin)."""
        sent = 0
        for player in queryset.select_related("federation"):
            try:
                player_login_invite(actor=request.user, player=player, site=site_of(request))
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
            else:
                sent += 1
        if sent:
            self.message_user(request, _("Links sent: %(count)d.") % {"count": sent}, messages.SUCCESS)

    @admin.display(description=_("Points"))
    def points_record(self, obj):
        """The office's record of the player (balances, title, ledger, corrections), one click from the
        list; the page is the ledger's app's (``masterpoints.office_record``), named by its URL only."""
        link = reverse("admin:masterpoints_player_record", args=[obj.pk])
        return format_html('<a href="{}" class="points-record">{}</a>', link, _("Ledger"))

    def get_search_results(self, request, queryset, search_term):
        """By number or name, as every form that takes a player asks: the search fields, and the
        name folded as the upload compares names (``federation.names.fold_name``: "Jorgen" finds "Jørgen")."""
        found, distinct = super().get_search_results(request, queryset, search_term)
        folded = fold_name(search_term)
        if folded:
            found = found | self.autocomplete_scope(request, queryset).filter(search_name__contains=folded)
        return found, distinct


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
class RuleSetAdmin(AuditedAdmin, FederationScopedAdmin):
    """Dated rule sets: the payload overrides the engine's built-in values from ``valid_from`` on."""

    form = RuleSetForm
    list_display = ["name", "federation", "valid_from"]
    list_filter = ["federation"]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    """Read-only: the audit log is append-only and written by services only.

    An event names its target by type and id, not by a key: it is shown when the target lies in a
    federation the user serves. One whose target cannot say (no target, a record without a federation, or
    a record since deleted, like a revoked office) is shown when its actor holds an office in a federation
    the user serves; an event of the system (no actor) about such a target only to superusers.
    """

    federation_paths = ()
    list_display = ["created_at", "action", "target_repr", "actor"]
    list_filter = ["action", "target_type"]
    search_fields = ["action", "target_repr", "target_id", "actor__username"]
    date_hierarchy = "created_at"
    list_select_related = ["actor"]

    def scope_queryset(self, request, queryset, ids):
        shown, unresolved = Q(pk__in=[]), Q(target_type="")
        labels = queryset.exclude(target_type="").order_by().values_list("target_type", flat=True).distinct()
        for label in labels:
            model = _target_model(label)
            paths = federation_paths(model, self.admin_site) if model is not None else ()
            if not paths:
                unresolved |= Q(target_type=label)
                continue
            rows = model._default_manager.all()
            served = scope_filter(rows, paths, ids).annotate(key=Cast("pk", CharField())).values("key")
            existing = rows.annotate(key=Cast("pk", CharField())).values("key")
            shown |= Q(target_type=label, target_id__in=served)
            unresolved |= Q(target_type=label) & ~Q(target_id__in=existing)
        actors = Officer.objects.filter(federation__in=ids).values("user")
        return queryset.filter(shown | (unresolved & Q(actor__in=actors)))

    def in_scope(self, request, obj, action):
        return self.get_queryset(request).filter(pk=obj.pk).exists()

    def lookup_allowed(self, lookup, value, request=None):
        # The "History" of an audited record opens this list filtered to it (federation.admin_base.AuditedAdmin).
        return lookup == "target_id" or super().lookup_allowed(lookup, value, request)


def _target_model(label: str):
    try:
        return apps.get_model(label)
    except (LookupError, ValueError):
        return None


admin.site.site_header = _("Masterpoint office")
admin.site.site_title = _("Masterpoint office")
admin.site.index_title = _("Secretariat")


class PlayingTimeInline(admin.TabularInline):
    model = PlayingTime
    extra = 0


@admin.register(Club)
class ClubAdmin(AuditedAdmin, FederationScopedAdmin):
    """Clubs and their playing times; the secretariat records here the founding year a club's jubilee years
    count from (DBf § 403B4, D-Q26), bounded by ``clubs.models.FIRST_FOUNDING_YEAR`` and the current year."""

    list_display = ["number", "name", "federation", "email", "founding_year", "active"]
    list_filter = ["federation", "active", "regions"]
    search_fields = ["number", "name", "email"]
    filter_horizontal = ["regions"]
    inlines = [PlayingTimeInline]
    list_select_related = ["federation"]


@admin.register(ClubMembership)
class ClubMembershipAdmin(AuditedAdmin, FederationScopedAdmin):
    federation_paths = ("club__federation", "player__federation")
    list_display = ["player", "club", "is_home", "since", "until"]
    list_filter = ["is_home", "club__federation"]
    search_fields = ["player__number", "player__last_name", "club__name", "club__number"]
    autocomplete_fields = ["player", "club"]
    list_select_related = ["player", "club"]


@admin.register(Officer)
class OfficerAdmin(AuditedAdmin, FederationScopedAdmin):
    """Offices are granted and ended through the services, which also set admin access and audit.

    The secretariat of a federation appoints and ends offices of that federation only (its federation, clubs
    and regions are the only choices); the commission appoints nobody.
    """

    list_display = ["user", "role", "federation", "club", "region"]
    list_filter = ["role", "federation"]
    search_fields = ["user__username", "user__email", "club__name", "region__name"]
    raw_id_fields = ["user", "club"]
    list_select_related = ["user", "federation", "club", "region"]
    actions = ["reset_second_factor"]

    @admin.action(description=_("Reset the second factor of the selected officers' logins"), permissions=["change"])
    def reset_second_factor(self, request, queryset):
        """A lost authenticator: every device of each selected officer's login is removed (audited), so that
        they enrol a new one with their password (``office.second_factor``). Only for logins that serve
        the actor's own federations; a superuser's only by a superuser."""
        done = 0
        for user in {officer.user for officer in queryset.select_related("user")}:
            try:
                second_factor_reset(actor=request.user, user=user)
            except PermissionDenied as error:
                self.message_user(request, str(error), messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, _("Second factors reset: %(count)d.") % {"count": done}, messages.SUCCESS)

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        if not may_appoint(request.user, obj.federation):
            raise PermissionDenied
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
        with transaction.atomic():
            self.audit_delete(request, obj)
            officer_revoke(actor=request.user, officer=obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for officer in queryset:
                self.audit_delete(request, officer)
                officer_revoke(actor=request.user, officer=officer)

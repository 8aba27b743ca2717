"""The secretariat's foreign MP (§ 401B): conversion tables and registrations, through
:mod:`masterpoints.foreign.services`."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.admin_actions import decide_with_reason
from federation.admin_base import FederationScopedAdmin
from federation.decisions import DECISION_FIELDS
from federation.schemes import decimals_of
from masterpoints.foreign.services import (
    conversion_factor_check,
    foreign_conversion_delete,
    foreign_conversion_save,
    foreign_points_approve,
    foreign_points_register,
    registration_units,
)
from masterpoints.models import ForeignConversion, ForeignPoints
from masterpoints.numbers import kind_label, shown_units


class ForeignConversionForm(forms.ModelForm):
    class Meta:
        model = ForeignConversion
        fields = ["federation", "country", "foreign_kind", "foreign_decimals", "dbf_kind", "factor"]

    def clean_federation(self):
        federation = self.cleaned_data["federation"]
        if not federation.scheme_info.foreign_points:
            raise forms.ValidationError(_("Foreign MP are a DBf rule (§ 401B); choose a DBf federation."))
        return federation

    def clean_factor(self):
        factor = self.cleaned_data["factor"]
        try:
            conversion_factor_check(factor)
        except ValidationError as error:
            raise forms.ValidationError(error.messages) from None
        return factor


@admin.register(ForeignConversion)
class ForeignConversionAdmin(FederationScopedAdmin):
    """The Swedish and Norwegian conversion table (§ 401B), kept by the secretariat."""

    workflow = "foreign_points"

    form = ForeignConversionForm

    list_display = ["country", "foreign_kind", "foreign_decimals", "dbf_kind", "factor", "federation"]
    list_filter = ["country", "federation"]
    search_fields = ["foreign_kind"]

    def save_model(self, request, obj, form, change):
        foreign_conversion_save(actor=request.user, row=obj)

    def delete_model(self, request, obj):
        foreign_conversion_delete(actor=request.user, row=obj)

    def delete_queryset(self, request, queryset):
        for row in queryset:
            foreign_conversion_delete(actor=request.user, row=row)


class ForeignPointsForm(forms.ModelForm):
    """The registration form; its one-time ``form_token`` makes a form sent twice register once."""

    form_token = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4, required=False)

    class Meta:
        model = ForeignPoints
        fields = ["player", "country", "foreign_kind", "foreign_amount", "earned_on", "event"]

    def clean(self):
        data = super().clean()
        player = data.get("player")
        if player and data.get("country") and data.get("foreign_kind") and data.get("earned_on"):
            try:
                registration_units(
                    federation=player.federation,
                    country=data["country"],
                    kind=data["foreign_kind"].strip(),
                    amount=data.get("foreign_amount") or "",
                    earned_on=data["earned_on"],
                    today=timezone.localdate(),
                )
            except ValidationError as error:
                raise forms.ValidationError(error.messages) from None
        return data


@admin.register(ForeignPoints)
class ForeignPointsAdmin(FederationScopedAdmin):
    """Foreign MP (§ 401B): Faroese and Icelandic are posted when registered, Swedish and Norwegian when
    approved by the action."""

    workflow = "foreign_points"

    federation_paths = ("player__federation",)  # the service sets ``federation`` from the player
    form = ForeignPointsForm
    list_display = ["player", "country", "foreign_amount", "foreign_kind", "earned_on", "status", "posted"]
    list_filter = ["status", "country", "federation"]
    search_fields = ["player__number", "player__last_name", "event"]
    date_hierarchy = "earned_on"
    list_select_related = ["player", "award"]
    autocomplete_fields = ["player"]  # by number or name, never the database id
    actions = ["approve", "refuse"]

    def get_readonly_fields(self, request, obj=None):
        return ("status", "posted", *DECISION_FIELDS) if obj is not None else ()

    @admin.display(description=_("posted"))
    def posted(self, obj):
        """The posted award as the player page shows it: the DBf kind's decimals (§ 402, "SP ... med én
        decimal"), never the ledger's units (6 units of SP are 0.6 SP)."""
        if obj.award is None:
            return None
        return f"{shown_units(obj.award.units, decimals_of(obj.award.kind))} {kind_label(obj.award.kind)}"

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        saved = foreign_points_register(
            actor=request.user,
            player=obj.player,
            country=obj.country,
            kind=obj.foreign_kind,
            amount=obj.foreign_amount,
            earned_on=obj.earned_on,
            event=obj.event,
            token=form.cleaned_data.get("form_token"),
        )
        obj.pk = saved.pk

    @admin.action(description=_("Approve and post the selected foreign points"), permissions=["add"])
    def approve(self, request, queryset):
        return decide_with_reason(
            self,
            request,
            queryset,
            title=str(_("Approve and post the selected foreign points")),
            reason_required=False,
            decide=lambda obj, reason: foreign_points_approve(
                actor=request.user, registration=obj, approve=True, reason=reason
            ),
        )

    @admin.action(description=_("Refuse the selected foreign points, with a reason"), permissions=["add"])
    def refuse(self, request, queryset):
        return decide_with_reason(
            self,
            request,
            queryset,
            title=str(_("Refuse the selected foreign points")),
            decide=lambda obj, reason: foreign_points_approve(
                actor=request.user, registration=obj, approve=False, reason=reason
            ),
        )

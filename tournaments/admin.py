"""The secretariat's admin for sanctions and DBf's simultaneous events (DBf § 403) and HBS's list of
recognised tournaments.

Every decision goes through the services of ``tournaments.sanctions``, ``tournaments.simultaneous`` and
``tournaments.recognised``,
which check the rules, audit and e-mail; rows filed on the site are read-only here.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.contrib import admin
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from federation.admin_actions import decide_with_reason
from federation.admin_base import FederationScopedAdmin
from tournaments.models import (
    FIXED_B_MAX,
    DirectorLicence,
    RecognisedTournament,
    SimultaneousEvent,
    TouristApproval,
)
from tournaments.recognised import (
    KINDS,
    FixedB,
    director_licence_grant,
    director_licence_revoke,
    fixed_b_check,
    fixed_b_text,
    recognised_tournament_save,
    tourist_approval_decide,
    tourist_approval_request,
)
from tournaments.simultaneous import MAX_DAYS, simultaneous_event_save
from tournaments.simultaneous import refusal as simultaneous_refusal


class HbsFederationForm(forms.ModelForm):
    """The list and its approvals are HBS rules (H-1, rules 2 and 10): only an HBS federation may be chosen."""

    def clean_federation(self):
        federation = self.cleaned_data["federation"]
        if not federation.scheme_info.recognised_list:
            raise forms.ValidationError(_("This is an HBS rule; choose an HBS federation."))
        return federation


def _strength(label) -> forms.DecimalField:
    return forms.DecimalField(
        label=format_lazy(_("S for {kind}"), kind=label), required=False, min_value=0, decimal_places=3
    )


def _fixed_b(label) -> forms.DecimalField:
    """H-8, H-17: B fixed in advance, bounded (above 0, at most ``FIXED_B_MAX``, two decimals)."""
    return forms.DecimalField(
        label=format_lazy(_("Fixed B for {kind}"), kind=label),
        required=False,
        min_value=Decimal("0.01"),
        max_value=FIXED_B_MAX,
        decimal_places=2,
        help_text=_("Only for a fixed official event: B fixed in advance instead of the formula (H-8)."),
    )


def _bands(label) -> forms.CharField:
    return forms.CharField(
        label=format_lazy(_("B by field size for {kind}"), kind=label),
        required=False,
        max_length=300,
        help_text=_('Instead of one fixed B: "from N units: B" separated by semicolons, e.g. "6: 20; 12: 30" (H-8).'),
    )


def parse_bands(text: str) -> tuple[tuple[int, Decimal], ...]:
    """``"6: 20; 12: 30"`` as ``((6, Decimal("20")), (12, Decimal("30")))``; ``ValidationError`` naming the
    band that does not read."""
    bands = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        n_min, colon, b = part.partition(":")
        try:
            if not colon or len(part) > 30:
                raise ValueError
            bands.append((int(n_min.strip()), Decimal(b.strip().replace(",", "."))))
        except (ValueError, InvalidOperation):
            raise forms.ValidationError(
                _('"%(band)s" is not "from N units: B", e.g. "6: 20" (H-8).'), params={"band": part[:30]}
            ) from None
    return tuple(bands)


class RecognisedTournamentForm(HbsFederationForm):
    """The entry with an S per kind it awards (H-1, H-4): leave a kind empty when it does not award it. A fixed
    official event may fix B in advance, or in bands by field size, per kind (H-8, H-17)."""

    strength_black = _strength(_("black points"))
    fixed_b_black = _fixed_b(_("black points"))
    bands_black = _bands(_("black points"))
    strength_red = _strength(_("red points"))
    fixed_b_red = _fixed_b(_("red points"))
    bands_red = _bands(_("red points"))
    strength_master = _strength(_("master points"))
    fixed_b_master = _fixed_b(_("master points"))
    bands_master = _bands(_("master points"))

    class Meta:
        model = RecognisedTournament
        fields = ["federation", "year", "name", "club", "tourist", "note"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            for award in self.instance.awards.all():
                self.fields[f"strength_{award.kind}"].initial = award.strength
                self.fields[f"fixed_b_{award.kind}"].initial = award.first_place
                self.fields[f"bands_{award.kind}"].initial = "; ".join(f"{n}: {b}" for n, b in award.bands)

    def kinds(self) -> dict:
        return {kind: self.cleaned_data.get(f"strength_{kind}") for kind in KINDS}

    def fixed(self) -> dict[str, FixedB]:
        return {
            kind: FixedB(
                first_place=self.cleaned_data.get(f"fixed_b_{kind}"), bands=self.cleaned_data.get(f"bands_{kind}") or ()
            )
            for kind in KINDS
        }

    def clean(self):
        data = super().clean()
        for kind in KINDS:
            name = f"bands_{kind}"
            if self.cleaned_data.get(name):
                try:
                    self.cleaned_data[name] = parse_bands(self.cleaned_data[name])
                except forms.ValidationError as error:
                    self.add_error(name, error)
        for kind, value in self.kinds().items():
            if value is not None and value <= 0:
                self.add_error(f"strength_{kind}", _("S must be above 0 (H-4); leave it empty for a kind not awarded."))
        if not any(value for value in self.kinds().values()):
            raise forms.ValidationError(_("A recognised tournament awards at least one kind with its S (H-1, H-4)."))
        if not self.errors:
            fixed_b_check({kind: s for kind, s in self.kinds().items() if s is not None}, self.fixed())
        return data


@admin.register(RecognisedTournament)
class RecognisedTournamentAdmin(FederationScopedAdmin):
    """HBS's annual list of recognised tournaments (H-1, H-4)."""

    workflow = "recognised_list"

    form = RecognisedTournamentForm
    list_display = ["name", "year", "club", "tourist", "kinds_display"]
    list_filter = ["year", "tourist", "federation"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
    raw_id_fields = ["club"]

    @admin.display(description=_("kinds, S and fixed B"))
    def kinds_display(self, obj):
        return ", ".join(
            f"{award.kind} {award.strength}"
            + (f" ({fixed_b_text({award.kind: award.fixed_b})})" if award.fixed_b else "")
            for award in obj.awards.all()
        )

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("awards")

    def save_model(self, request, obj, form, change):
        recognised_tournament_save(actor=request.user, tournament=obj, kinds=form.kinds(), fixed=form.fixed())


class TouristApprovalForm(forms.ModelForm):
    class Meta:
        model = TouristApproval
        fields = ["tournament", "organiser", "place", "starts_on", "ends_on", "contact_email"]

    def clean_tournament(self):
        tournament = self.cleaned_data["tournament"]
        if not tournament.tourist:
            raise forms.ValidationError(_("Only tournaments marked as tourist tournaments need approval (rule 2)."))
        return tournament


@admin.register(TouristApproval)
class TouristApprovalAdmin(FederationScopedAdmin):
    """Approvals of tourist tournaments (rule 2): recorded here, decided by the actions."""

    workflow = "tourists_and_licences"

    federation_paths = ("tournament__federation",)
    form = TouristApprovalForm
    list_display = ["tournament", "organiser", "place", "starts_on", "status", "decided_at"]
    list_filter = ["status", "tournament__year"]
    search_fields = ["tournament__name", "organiser", "place"]
    list_select_related = ["tournament"]
    actions = ["approve", "refuse"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        saved = tourist_approval_request(
            actor=request.user,
            tournament=obj.tournament,
            organiser=obj.organiser,
            place=obj.place,
            starts_on=obj.starts_on,
            ends_on=obj.ends_on,
            contact_email=obj.contact_email,
        )
        obj.pk = saved.pk

    @admin.action(description=_("Approve the selected tourist tournaments"), permissions=["add"])
    def approve(self, request, queryset):
        return decide_with_reason(
            self,
            request,
            queryset,
            title=str(_("Approve the selected tourist tournaments")),
            reason_required=False,
            decide=lambda obj, reason: tourist_approval_decide(
                actor=request.user, approval=obj, approve=True, reason=reason
            ),
        )

    @admin.action(description=_("Refuse the selected tourist tournaments, with a reason"), permissions=["add"])
    def refuse(self, request, queryset):
        return decide_with_reason(
            self,
            request,
            queryset,
            title=str(_("Refuse the selected tourist tournaments")),
            decide=lambda obj, reason: tourist_approval_decide(
                actor=request.user, approval=obj, approve=False, reason=reason
            ),
        )


class DirectorLicenceForm(HbsFederationForm):
    class Meta:
        model = DirectorLicence
        fields = ["federation", "user", "number", "valid_from", "valid_until"]


@admin.register(DirectorLicence)
class DirectorLicenceAdmin(FederationScopedAdmin):
    """Licences of internet tournament directors (rule 10): granted here, revoked by the action."""

    workflow = "tourists_and_licences"

    form = DirectorLicenceForm
    list_display = ["number", "user", "valid_from", "valid_until", "revoked_at"]
    list_filter = ["federation", "valid_until"]
    search_fields = ["number", "user__username", "user__email"]
    raw_id_fields = ["user"]
    actions = ["revoke"]

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        saved = director_licence_grant(
            actor=request.user,
            federation=obj.federation,
            user=obj.user,
            number=obj.number,
            valid_from=obj.valid_from,
            valid_until=obj.valid_until,
        )
        obj.pk = saved.pk

    @admin.action(description=_("Revoke the selected licences, with a reason"), permissions=["add"])
    def revoke(self, request, queryset):
        return decide_with_reason(
            self,
            request,
            queryset,
            title=str(_("Revoke the selected licences")),
            decide=lambda obj, reason: director_licence_revoke(actor=request.user, licence=obj, reason=reason),
        )


class SimultaneousEventForm(forms.ModelForm):
    """An event DBf announced (§ 403A1): only a federation with DBf's sanctions may be chosen."""

    class Meta:
        model = SimultaneousEvent
        fields = ["federation", "name", "kind", "starts_on", "ends_on", "note"]

    def clean_federation(self):
        federation = self.cleaned_data["federation"]
        if not federation.scheme_info.sanctions:
            raise forms.ValidationError(_("This is a DBf rule (§ 403A1); choose a DBf federation."))
        return federation

    def clean(self):
        data = super().clean()
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and (ends_on - starts_on).days + 1 > MAX_DAYS:
            days = (ends_on - starts_on).days + 1
            self.add_error("ends_on", simultaneous_refusal("TOO_LONG", limit=MAX_DAYS, days=days))
        return data


@admin.register(SimultaneousEvent)
class SimultaneousEventAdmin(FederationScopedAdmin):
    """The simultaneous events DBf announced (§ 403A1): the ones a club's event may claim SP in."""

    workflow = "sanctions"

    form = SimultaneousEventForm
    list_display = ["name", "kind", "starts_on", "ends_on"]
    list_filter = ["kind", "federation"]
    search_fields = ["name"]
    date_hierarchy = "starts_on"

    def save_model(self, request, obj, form, change):
        simultaneous_event_save(actor=request.user, event=obj)


from tournaments.sanctions import admin as sanctions_admin  # noqa: E402, F401  (registers its models)

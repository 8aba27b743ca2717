"""Forms of the correction requests: filing on the site, deciding in the admin; the admin's correction windows."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from federation.schemes import decimals_of
from masterpoints.corrections.services import DOCUMENT_MAX_BYTES, correction_window_check
from masterpoints.models import Award, CorrectionWindow
from tournaments.models import Tournament

lazy_interpolate = lazy(lambda template, values: str(template) % values, str)


class CorrectionRequestForm(forms.Form):
    """What is wrong, against a tournament or one award; a director also names the player.

    ``document_rule`` is the rule that asks the user's requests for documents (HBS transition rule 6, H-14;
    "" where no rule does): the field then says it is needed. Whatever the form says, the service refuses a
    request without one where the target's federation asks for it."""

    player_number = forms.CharField(
        label=_("Player's registration number"),
        max_length=20,
        required=False,
        help_text=_("Leave empty for your own points."),
    )
    award = forms.ModelChoiceField(label=_("The award"), queryset=Award.objects.none(), required=False)
    tournament = forms.ModelChoiceField(
        label=_("Or the tournament"), queryset=Tournament.objects.none(), required=False
    )
    text = forms.CharField(
        label=_("What is wrong, and what should it be?"), widget=forms.Textarea(attrs={"rows": 6}), max_length=5000
    )
    document = forms.FileField(
        label=_("Document (optional)"),
        required=False,
        # Lazy, so the help text is translated per request rather than once at import.
        help_text=lazy_interpolate(
            _("A PDF, image, text, spreadsheet or results file of at most %(limit)s MB."),
            {"limit": DOCUMENT_MAX_BYTES // 1024 // 1024},
        ),
    )

    def __init__(self, *args, awards, tournaments, for_others: bool, document_rule: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if document_rule:
            self.fields["document"].label = _("Document")
            self.fields["document"].help_text = lazy_interpolate(
                _("%(rule)s: a correction is asked for with documents. A PDF, image, text, spreadsheet or results "
                  "file of at most %(limit)s MB."),
                {"rule": document_rule, "limit": DOCUMENT_MAX_BYTES // 1024 // 1024},
            )  # fmt: skip
        self.fields["award"].queryset = awards
        self.fields["award"].label_from_instance = lambda a: (
            f"{date_format(a.awarded_on)} {a.tournament.name if a.tournament else a.get_source_display()}: "
            f"{a.amount} {a.kind}"
        )
        self.fields["tournament"].queryset = tournaments
        if not for_others:
            del self.fields["player_number"]

    def clean_document(self):
        document = self.cleaned_data.get("document")
        if document and document.size > DOCUMENT_MAX_BYTES:
            raise forms.ValidationError(
                _("The document is larger than %(limit)s MB."), params={"limit": DOCUMENT_MAX_BYTES // 1024 // 1024}
            )
        return document

    def clean(self):
        data = super().clean()
        if not data.get("award") and not data.get("tournament"):
            raise forms.ValidationError(_("Choose the award or the tournament the request is about."))
        return data


class CorrectionWindowForm(forms.ModelForm):
    """The secretariat's window in the admin: refused with its rule and dates where the federation's rules set
    no window or the windows would last longer than their period (transition rule 6, H-12)."""

    class Meta:
        model = CorrectionWindow
        fields = ["federation", "opens_on", "closes_on", "note"]

    def clean(self):
        data = super().clean()
        if data.get("federation") and data.get("opens_on") and data.get("closes_on"):
            window = CorrectionWindow(
                pk=self.instance.pk,
                federation=data["federation"],
                opens_on=data["opens_on"],
                closes_on=data["closes_on"],
            )
            try:
                correction_window_check(window)
            except ValidationError as error:
                raise forms.ValidationError(error.messages) from None
        return data


#: No one correction comes near 10,000 points of a kind (a title ladder tops out in the hundreds of MP): a
#: larger amount is a typing error, and its units must fit the ledger.
MAX_CORRECTION = 10_000


def parse_amount(kind: str, amount: str) -> int:
    """An amount in the kind's own decimals (``"1.5"`` SP) as signed integer units (15), at most
    :data:`MAX_CORRECTION` points either way."""
    try:
        value = Decimal(amount.strip().replace(",", "."))
    except InvalidOperation:
        raise forms.ValidationError(_("%(amount)s is not a number."), params={"amount": amount}) from None
    if not value.is_finite():
        raise forms.ValidationError(_("%(amount)s is not a number."), params={"amount": amount})
    if abs(value) > MAX_CORRECTION:
        raise forms.ValidationError(
            _("%(amount)s %(kind)s is more than one correction can post (at most %(maximum)s %(kind)s)."),
            params={"amount": amount, "kind": kind, "maximum": MAX_CORRECTION},
        )
    units = value.scaleb(decimals_of(kind))
    if units != units.to_integral_value():
        raise forms.ValidationError(
            _("%(kind)s has %(decimals)s decimals."), params={"kind": kind, "decimals": decimals_of(kind)}
        )
    return int(units)


class CorrectionDecideForm(forms.Form):
    """The commission's decision: grant with ledger entries, or refuse; the reason goes to the requester."""

    grant = forms.TypedChoiceField(
        label=_("Decision"),
        coerce=lambda value: value == "yes",
        choices=[("yes", _("grant")), ("no", _("refuse"))],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))
    reverse_award = forms.BooleanField(label=_("Reverse the award in full"), required=False)
    kind_1 = forms.ChoiceField(label=_("Adjust: kind"), required=False)
    amount_1 = forms.CharField(label=_("amount (+ or −)"), required=False, max_length=20)
    kind_2 = forms.ChoiceField(label=_("Adjust: kind"), required=False)
    amount_2 = forms.CharField(label=_("amount (+ or −)"), required=False, max_length=20)

    def __init__(self, *args, kinds: tuple[str, ...], has_award: bool, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("kind_1", "kind_2"):
            self.fields[name].choices = [("", "–"), *((kind, kind) for kind in kinds)]
        if not has_award:
            del self.fields["reverse_award"]

    def clean(self):
        data = super().clean()
        adjustments = []
        for index in (1, 2):
            kind, amount = data.get(f"kind_{index}"), (data.get(f"amount_{index}") or "").strip()
            if kind and amount:
                try:
                    adjustments.append((kind, parse_amount(kind, amount)))
                except forms.ValidationError as error:
                    self.add_error(f"amount_{index}", error)
            elif kind or amount:
                self.add_error(f"amount_{index}", _("Give both the kind and the amount."))
        data["adjustments"] = adjustments
        return data

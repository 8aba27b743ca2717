"""Forms of the office's record of a player."""

from __future__ import annotations

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from masterpoints.office_record.services import MAX_REASON


class LedgerFilterForm(forms.Form):
    """The ledger's season and kind (GET); an unknown value is ignored, not an error page."""

    season = forms.TypedChoiceField(label=_("Season"), required=False, coerce=int, empty_value=None)
    kind = forms.ChoiceField(label=_("Kind"), required=False)

    def __init__(self, *args, seasons, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].choices = [("", _("every season")), *seasons]
        self.fields["kind"].choices = [("", _("every kind")), *((kind, kind) for kind in kinds)]

    def chosen(self) -> tuple[int | None, str]:
        if not self.is_valid():
            return None, ""
        return self.cleaned_data["season"], self.cleaned_data["kind"]


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label=_("Why is the tournament withdrawn?"),
        max_length=MAX_REASON,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Cited on every reversing entry, on the tournament's page and in the audit log."),
    )


def tournament_label(tournament) -> str:
    """``2025-09-16 · Tirsdagsturnering · Bridgeklubben A`` (the organiser where no club)."""
    return f"{date_format(tournament.date, 'Y-m-d')} · {tournament.name} · {tournament.organiser}"


def award_label(award) -> str:
    """``2025-09-16 · Tirsdagsturnering · Bridgeklubben A: 24 BP`` (the source where no tournament)."""
    where = tournament_label(award.tournament) if award.tournament_id else f"{award.awarded_on:%Y-%m-%d} · "
    where += "" if award.tournament_id else str(award.get_source_display())
    return f"{where}: {award.amount} {award.kind}"

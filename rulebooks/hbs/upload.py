"""The HBS upload's own questions: the strength S and the list of recognised tournaments (H-1, H-4), an
internet tournament under a director's licence (rule 10) and a tourist tournament (rule 2)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.forms import DecimalInput
from masterpoints.uploads.forms import ResultUploadForm
from tournaments.models import Form, RecognisedTournament
from tournaments.recognised import listed_for, upload_kinds


class HbsUploadForm(ResultUploadForm):
    """The upload form of an HBS federation."""

    category_choices = (
        ("black", _("black points (crni)")),
        ("red", _("red points (crveni)")),
        ("master", _("master points")),
    )
    field_order = (
        "organiser",
        "file",
        "event_form",
        "category",
        "boards",
        "strength",
        "recognised",
        "internet",
        "tourist",
        "nature",
    )

    strength = DecimalInput(
        label=_("Strength S (HBS)"),
        required=False,
        min_value=0,
        max_digits=6,
        decimal_places=3,
        help_text=_("From the list of recognised tournaments; the default for unlisted club events otherwise."),
    )
    recognised = forms.ModelChoiceField(
        label=_("Listed tournament (HBS)"),
        required=False,
        queryset=None,
        help_text=_("Its point kinds and strengths S from the list of recognised tournaments replace those above."),
    )
    internet = forms.BooleanField(
        label=_("An internet tournament I directed under my HBS licence (rule 10)"), required=False
    )
    tourist = forms.BooleanField(
        label=_("A tourist tournament in Croatia (rule 2: it scores only with HBS's approval)"), required=False
    )

    def __init__(self, *args, recognised=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["recognised"].queryset = (
            recognised if recognised is not None else RecognisedTournament.objects.none()
        )
        # Mini-teams are DBf's form (§ 421); HBS knows pairs, individual and teams.
        self.fields["event_form"].choices = [
            ("", _("as the file says")),
            *[c for c in Form.choices if c[0] != "minihold"],
        ]

    @classmethod
    def inputs(cls, federation, organisers, today) -> dict:
        """The entries of the list of recognised tournaments an upload may name (H-1)."""
        return {"recognised": listed_for(federation, today)}

    def rule_book_facts(self) -> dict:
        """S and the list of recognised tournaments (H-1, H-4), rule 10's licence and rule 2's tourist event."""
        data = self.cleaned_data
        facts = {
            "strength": str(data["strength"]) if data.get("strength") is not None else "",
            "internet": data["internet"],
            "tourist": data["tourist"],  # rule 2, H-27
        }
        if data.get("recognised"):
            facts.update(upload_kinds(data["recognised"]))  # H-1: kinds and S from the list
        return facts

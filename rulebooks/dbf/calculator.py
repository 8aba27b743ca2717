"""DBf's calculators: the § 406B scale (pairs, individual, mini-teams) and the § 404 title of a balance."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.forms import DecimalInput
from masterpoints.engine.common import MAX_BOARDS, MAX_FIELD, MAX_ROWS
from masterpoints.public.forms import CalculatorForm
from masterpoints.standings.titles import title_label


class DbfScaleForm(CalculatorForm):
    """DBf § 406B scale: pairs, individual, mini-teams (the public version of the § 454 spreadsheet)."""

    label = _("DBf scale")
    scheme = "dbf"

    prefix = "dbf"
    form = forms.ChoiceField(
        label=_("Form"),
        choices=[("pairs", _("pairs")), ("individual", _("individual")), ("minihold", _("mini-teams"))],
    )
    category = forms.ChoiceField(
        label=_("Category"), choices=[("BP", _("bronze (BP)")), ("SP", _("silver (SP)")), ("GP", _("gold (GP)"))]
    )
    organizer = forms.ChoiceField(
        label=_("Organiser"),
        choices=[
            ("club", _("club")),
            ("district", _("district")),
            ("circle", _("circle (kreds)")),
            ("federation", _("federation (DBf)")),
        ],
    )
    participants = forms.IntegerField(label=_("Participants in the row"), min_value=1, max_value=MAX_FIELD, initial=24)
    boards = forms.IntegerField(
        label=_("Boards"),
        min_value=0,
        max_value=MAX_BOARDS,
        initial=24,
        help_text=_("Per playing day for BP; in all for SP/GP."),
    )
    met = forms.IntegerField(
        label=_("Opponents met"),
        min_value=0,
        required=False,
        help_text=_("Leave empty when everyone met everyone (§ 405B6d, B7d)."),
    )
    robots = forms.BooleanField(label=_("Everyone played against robots (§ 405B6e)"), required=False)
    rows = forms.IntegerField(label=_("Rows"), min_value=1, max_value=MAX_ROWS, initial=1)
    row = forms.IntegerField(label=_("This row (1 = top)"), min_value=1, max_value=MAX_ROWS, initial=1)
    split = forms.ChoiceField(
        label=_("Rows split"), choices=[("random", _("at random")), ("strength", _("by strength"))], initial="random"
    )
    quota = forms.ChoiceField(
        label=_("Quota"),
        required=False,
        choices=[("", _("from the boards")), ("full", _("full")), ("half", _("half (§ 403B2, Klubsølv)"))],
    )

    def engine_request(self) -> dict[str, Any]:
        data = self.cleaned_data
        request = {
            "scheme": "dbf",
            "kind": "scale",
            "form": data["form"],
            "category": data["category"],
            "organizer": data["organizer"],
            "participants": data["participants"],
            "boards": data["boards"],
            "rows": data["rows"],
            "row": data["row"],
            "split": data["split"],
        }
        if data.get("met") is not None:
            request["met"] = data["met"]
        if data.get("robots"):
            request["robots"] = True
        if data.get("quota"):
            request["quota"] = data["quota"]
        return request


class DbfTitleForm(CalculatorForm):
    """DBf § 404: the title for a balance and what is missing for the next one."""

    label = _("DBf title")
    scheme = "dbf"

    answer_template = "rulebooks/dbf/calculator_title.html"
    prefix = "title"
    bp = DecimalInput(label=_("Bronze points (BP)"), min_value=0, decimal_places=0, initial=0)
    sp = DecimalInput(label=_("Silver points (SP)"), min_value=0, decimal_places=1, initial=0)
    gp = DecimalInput(label=_("Gold points (GP)"), min_value=0, decimal_places=2, initial=0)

    def engine_request(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"scheme": "dbf", "kind": "title", "bp": str(data["bp"]), "sp": str(data["sp"]), "gp": str(data["gp"])}

    def answer_context(self, answer: dict) -> dict[str, Any]:
        """The title's and the next title's stars, and what each kind alone reaches (§ 404B)."""
        return {
            "stars": "★" * answer.get("stars", 0),
            "next_stars": "★" * ((answer.get("next") or {}).get("stars") or 0),
            "next_rows": _next_rows(answer.get("next")),
        }


def _next_rows(following: dict | None) -> list[tuple[str, str, str]]:
    """``(amount, kind, title)`` per kind that alone reaches a higher title: the title is the one the amount
    reaches, which may be above the next title named (Klubmester ★★ is reached by BP alone, D-Q11)."""
    if not following:
        return []
    reaches = following.get("reaches") or {}
    rows = []
    for kind, amount in following["missing"].items():
        reached = reaches.get(kind)
        if amount is not None and reached:
            rows.append((amount, kind.upper(), title_label(reached["title"], reached["stars"])))
    return rows

"""The public calculator's forms: each turns its fields into one engine request (engine-cli.md)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.forms import DecimalInput
from masterpoints.engine.common import MAX_BOARDS, MAX_FIELD, MAX_ROWS


class CalculatorForm(forms.Form):
    """Base: ``engine_request()`` builds the JSON request; engine errors come back on the named field.

    ``scheme`` is the scheme whose symbols the answer's explanation uses; ``shows_scale`` says whether the
    answer is a scale (places and points) rather than a title or category."""

    label = ""
    scheme = ""
    shows_scale = False

    def engine_request(self) -> dict[str, Any]:
        raise NotImplementedError

    def add_engine_error(self, field: str, message: str) -> None:
        self.add_error(field if field in self.fields else None, message)


class DbfScaleForm(CalculatorForm):
    """DBf § 406B scale: pairs, individual, mini-teams (the public version of the § 454 spreadsheet)."""

    label = _("DBf scale")
    scheme = "dbf"
    shows_scale = True

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

    prefix = "title"
    bp = DecimalInput(label=_("Bronze points (BP)"), min_value=0, decimal_places=0, initial=0)
    sp = DecimalInput(label=_("Silver points (SP)"), min_value=0, decimal_places=1, initial=0)
    gp = DecimalInput(label=_("Gold points (GP)"), min_value=0, decimal_places=2, initial=0)

    def engine_request(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"scheme": "dbf", "kind": "title", "bp": str(data["bp"]), "sp": str(data["sp"]), "gp": str(data["gp"])}


class HbsScaleForm(CalculatorForm):
    """HBS formula B = (3 + N·T/5)·S·(1 + D/12) − 7 and its spread over half the field."""

    label = _("HBS scale")
    scheme = "hbs"
    shows_scale = True

    prefix = "hbs"
    form = forms.ChoiceField(
        label=_("Form"), choices=[("individual", _("individual")), ("pairs", _("pairs")), ("teams", _("teams"))]
    )
    participants = forms.IntegerField(label=_("Units in the field (N)"), min_value=1, max_value=MAX_FIELD, initial=20)
    boards = forms.IntegerField(label=_("Boards (D)"), min_value=0, max_value=MAX_BOARDS, initial=24)
    strength = DecimalInput(label=_("Strength (S)"), min_value=0, max_digits=6, decimal_places=3, initial=1)

    def engine_request(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "scheme": "hbs",
            "kind": "scale",
            "form": data["form"],
            "participants": data["participants"],
            "boards": data["boards"],
            "strength": str(data["strength"]),
        }


class HbsCategoryForm(CalculatorForm):
    """HBS categories (H-2): the category for a balance and what is missing for the next one."""

    label = _("HBS category")
    scheme = "hbs"

    prefix = "category"
    black = forms.IntegerField(label=_("Black points"), min_value=0, initial=0)
    red = forms.IntegerField(label=_("Red points"), min_value=0, initial=0)
    master = forms.IntegerField(label=_("Master points"), min_value=0, initial=0)

    def engine_request(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"scheme": "hbs", "kind": "category", **{k: str(data[k]) for k in ("black", "red", "master")}}


CALCULATORS: dict[str, type[CalculatorForm]] = {
    "dbf": DbfScaleForm,
    "title": DbfTitleForm,
    "hbs": HbsScaleForm,
    "category": HbsCategoryForm,
}

"""HBS's calculators: the formula's scale (B and its spread) and the H-2 category of a balance."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.forms import DecimalInput
from masterpoints.engine.common import MAX_BOARDS, MAX_FIELD
from masterpoints.public.forms import CalculatorForm


class HbsScaleForm(CalculatorForm):
    """HBS formula B = (3 + N·T/5)·S·(1 + D/12) − 7 and its spread over half the field."""

    label = _("HBS scale")
    scheme = "hbs"

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

    answer_template = "rulebooks/hbs/calculator_category.html"
    prefix = "category"
    black = forms.IntegerField(label=_("Black points"), min_value=0, initial=0)
    red = forms.IntegerField(label=_("Red points"), min_value=0, initial=0)
    master = forms.IntegerField(label=_("Master points"), min_value=0, initial=0)

    def engine_request(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"scheme": "hbs", "kind": "category", **{k: str(data[k]) for k in ("black", "red", "master")}}

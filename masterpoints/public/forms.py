"""The public calculator's form base: each rule book's calculators turn their fields into one engine request
(engine-cli.md)."""

from __future__ import annotations

from typing import Any

from django import forms


class CalculatorForm(forms.Form):
    """Base of a rule book's calculators (its plugin's ``SchemeInfo.calculators``): ``engine_request()``
    builds the JSON request; engine errors come back on the named field.

    ``scheme`` is the scheme whose symbols the answer's explanation uses; ``answer_template`` shows the
    answer (a scale of places and points unless the form names another), with :meth:`answer_context`."""

    label = ""
    scheme = ""
    answer_template = "masterpoints/calculator_scale.html"

    def engine_request(self) -> dict[str, Any]:
        raise NotImplementedError

    def answer_context(self, answer: dict) -> dict[str, Any]:
        """What the answer's template needs beyond the answer itself."""
        return {}

    def add_engine_error(self, field: str, message: str) -> None:
        self.add_error(field if field in self.fields else None, message)

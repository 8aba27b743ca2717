"""Forms of the officers' own pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ApiTokenForm(forms.Form):
    """A new API token: for which club or region (those the officer uploads for), and a name to know it by."""

    organiser = forms.ChoiceField(label=_("For"))
    name = forms.CharField(
        label=_("Name"), max_length=100, help_text=_("Which scoring program or computer will use it.")
    )

    def __init__(self, *args, organisers: list[tuple[str, str, object]], **kwargs):
        super().__init__(*args, **kwargs)
        self.organisers = {value: obj for value, _label, obj in organisers}
        self.fields["organiser"].choices = [(value, label) for value, label, _obj in organisers]

    def chosen(self) -> dict:
        """``club=`` or ``region=`` of the chosen organiser, as ``api_token_create`` takes them."""
        value = self.cleaned_data["organiser"]
        return {value.split(":", 1)[0]: self.organisers[value]}

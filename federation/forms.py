"""Form fields shared by the apps."""

from __future__ import annotations

from django import forms


class DecimalInput(forms.DecimalField):
    """A decimal number as the reader writes it: ``1,5`` in Danish and Croatian, ``1.5`` in English (a point
    is accepted in every language). A text box with the decimal keypad on phones: a number box would refuse
    the comma in some browsers."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(localize=True, **kwargs)

"""Amounts with the reader's decimal separator (``30,7`` in Danish and Croatian, ``30.7`` in English).

``{% load points %}``, then ``{{ award.amount|points }}`` for an amount already written with a point, or
``{{ line.units|units:2 }}`` for integer units and the kind's decimals.
"""

from __future__ import annotations

from django import template

from masterpoints.numbers import shown_amount, shown_units

register = template.Library()
register.filter("points", shown_amount, is_safe=True)


@register.filter(is_safe=True)
def units(value, decimals) -> str:
    """Integer units (``1234`` hundredths of an MP) as ``12.34`` in the reader's writing."""
    return shown_units(int(value), int(decimals))

"""Points as the reader's language writes them: ``30.7`` in English, ``30,7`` in Danish and Croatian.

The ledger, the engine, the JSON API and the CSV/XLSX exports keep the point as the decimal separator
(data for programs); only what a page or an e-mail shows to a person goes through these helpers.
"""

from __future__ import annotations

import re

from django.utils.formats import get_format

from masterpoints.engine.common import format_units

_AMOUNT = re.compile(r"[-+]?\d+\.\d+")


def decimal_separator() -> str:
    """The active language's decimal separator (Django's locale formats)."""
    return get_format("DECIMAL_SEPARATOR")


def shown_units(units: int, decimals: int, separator: str | None = None) -> str:
    """Integer units with the kind's decimals and the active language's separator (``separator`` when
    given: a page of many cells looks it up once)."""
    return format_units(units, decimals, separator or decimal_separator())


def shown_amount(value) -> str:
    """An amount already written with a decimal point (``"30.7"``) as the active language writes it;
    anything else unchanged."""
    text = str(value)
    return text.replace(".", decimal_separator()) if _AMOUNT.fullmatch(text) else text

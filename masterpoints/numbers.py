"""Points as the reader's language writes them: ``30.7`` in English, ``30,7`` in Danish and Croatian, and
point kinds by the names their rule book gives them in that language (HBS' ``crni``, ``crveni``, ``majstorski``).

The ledger, the engine, the JSON API and the CSV/XLSX exports keep the point as the decimal separator
(data for programs); only what a page or an e-mail shows to a person goes through these helpers.
"""

from __future__ import annotations

import datetime
import functools
import re

from django.utils import dateformat
from django.utils.formats import get_format
from django.utils.translation import get_language

from federation.schemes import kind_name
from masterpoints.engine.common import format_units

_AMOUNT = re.compile(r"[-+]?\d+\.\d+")


def decimal_separator() -> str:
    """The active language's decimal separator (Django's locale formats), looked up once per language: a
    player's page writes about 90 amounts."""
    return _separator(get_language())


@functools.cache
def _separator(language: str | None) -> str:
    return get_format("DECIMAL_SEPARATOR", lang=language)


def short_day(day: datetime.date, language: str | None = None) -> str:
    """``day`` as the active language writes it in a table (``SHORT_DATE_FORMAT``, as ``date_format()``
    writes it), each day written once per process and language: a ledger page shows up to 200 of them.
    ``language``: the active language, when the caller has read it already (once for a page of rows)."""
    return _short_day(language or get_language(), day)


@functools.lru_cache(maxsize=8192)
def _short_day(language: str | None, day: datetime.date) -> str:
    return dateformat.format(day, get_format("SHORT_DATE_FORMAT", lang=language))


def shown_units(units: int, decimals: int, separator: str | None = None) -> str:
    """Integer units with the kind's decimals and the active language's separator (``separator`` when
    given: a page of many cells looks it up once)."""
    return format_units(units, decimals, separator or decimal_separator())


def shown_amount(value) -> str:
    """An amount already written with a decimal point (``"30.7"``) as the active language writes it;
    anything else unchanged."""
    text = str(value)
    return text.replace(".", decimal_separator()) if _AMOUNT.fullmatch(text) else text


def kind_label(kind: str) -> str:
    """A point kind as the reader's language names it next to an amount: ``BP``, ``crni`` … (its rule book's
    ``kind_names``); a total (``MP``) as it is written."""
    return str(kind_name(kind))

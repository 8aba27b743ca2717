"""Refusals of the services: each service module keeps a catalogue ``REFUSALS`` (code → message, translated)
and raises ``refusal(code, **params)``. The code lets tests, views and the API tell refusals apart; the
message says what is wrong and where, in the user's language.

A date or a time is passed as the value itself (``datetime.date``, an aware ``datetime.datetime``): the
parameters stay machine-readable (the API writes them in ISO 8601), and the sentence shows them in the
reader's locale, formatted when the message is rendered in the active language (:func:`shown_value`)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format


@dataclass(frozen=True)
class Days:
    """A day or a span of days, with the name of what falls on them if any: ``Klubsølv (Oct. 6, 2025 –
    Oct. 10, 2025)`` in a sentence, ``Klubsølv (2025-10-06–2025-10-10)`` for machines."""

    first: datetime.date
    last: datetime.date | None = None
    name: str = ""

    def text(self, day: Callable[[datetime.date], str], dash: str) -> str:
        span = day(self.first) if self.last in (None, self.first) else f"{day(self.first)}{dash}{day(self.last)}"
        return f"{self.name} ({span})" if self.name else span


#: Items of a list parameter (``(Days(...), Days(...))``) are written one after the other with this.
LIST_SEPARATOR = "; "


def shown_value(value: Any) -> Any:
    """A parameter as a sentence shows it: a date in the active language's ``DATE_FORMAT`` (``Oct. 11, 2026``,
    ``11. oktober 2026``), a time in its ``DATETIME_FORMAT`` in the site's time zone, :class:`Days` and a
    tuple or list of values with those; anything else as is."""
    if isinstance(value, datetime.datetime):
        return date_format(timezone.localtime(value) if timezone.is_aware(value) else value, "DATETIME_FORMAT")
    if isinstance(value, datetime.date):
        return date_format(value, "DATE_FORMAT")
    if isinstance(value, Days):
        return value.text(shown_value, " – ")
    if isinstance(value, list | tuple):
        return LIST_SEPARATOR.join(str(shown_value(item)) for item in value)
    return value


def plain_value(value: Any) -> Any:
    """A parameter as machine-readable text: a date or a time in ISO 8601 (:class:`Days` and lists alike),
    anything else as its text."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Days):
        return value.text(plain_value, "–")
    if isinstance(value, list | tuple):
        return LIST_SEPARATOR.join(plain_value(item) for item in value)
    return str(value)


class ShownParams(dict):
    """A refusal's parameters: the values as given (``items()``, ``dict(...)``: what the API reads), each read
    by key (what ``message % params`` does when Django renders a ``ValidationError``) as :func:`shown_value`."""

    def __getitem__(self, key):
        return shown_value(super().__getitem__(key))


def refusals(messages: Mapping[str, str]) -> Callable[..., ValidationError]:
    """The ``refusal(code, **params)`` of a catalogue: a ``ValidationError`` with the code's message."""

    def refusal(code: str, **params) -> ValidationError:
        return ValidationError(messages[code], code=code, params=ShownParams(params) if params else None)

    return refusal

"""Whole numbers from a query string or form, bounded where they enter (design.md § Invariants).

A value outside its bound is refused with :class:`BadParameter`, whose message names the parameter and
the bound; views answer it with 400 (:func:`bad_request`), never with a 500 from a date or an offset that
a huge number broke.
"""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _

#: The highest page of any list: 100,000 pages of 50 rows is more than any federation's list.
MAX_PAGE = 100_000
#: Seasons are named by the year they start in; none lies outside these years.
FIRST_SEASON, LAST_SEASON = 1900, 2200
#: A database id is a positive 63-bit integer.
MAX_ID = 2**63 - 1


class BadParameter(ValueError):
    """A query or form value outside what the page reads; the message names it and its bound."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message


def bounded_int(raw, *, name: str, default: int, minimum: int, maximum: int) -> int:
    """``raw`` (a string from the request, or ``None``) as a whole number from ``minimum`` to ``maximum``.

    ``default`` when it is absent or not written in digits (a page of a list ignores what it cannot read
    as a number, as it always has); :class:`BadParameter` for digits outside the range."""
    text = "" if raw is None else str(raw)
    if not text.isdecimal():
        return default
    if len(text) > 30 or not minimum <= int(text) <= maximum:
        raise BadParameter(
            name,
            _("%(name)s must be a whole number from %(minimum)s to %(maximum)s, not %(value)s.")
            % {"name": name, "minimum": minimum, "maximum": maximum, "value": text[:20]},
        )
    return int(text)


def is_id(text: str) -> bool:
    """Whether ``text`` names a database id: digits, at most :data:`MAX_ID` (a filter ignores anything else)."""
    return text.isdecimal() and len(text) <= 19 and int(text) <= MAX_ID


def page_number(request, name: str = "page") -> int:
    """The page asked for (1 when none), at most :data:`MAX_PAGE`."""
    return bounded_int(request.GET.get(name), name=name, default=1, minimum=1, maximum=MAX_PAGE)


def season_number(raw, *, default: int) -> int:
    """A season (the year it starts in) from :data:`FIRST_SEASON` to :data:`LAST_SEASON`."""
    return bounded_int(raw, name="season", default=default, minimum=FIRST_SEASON, maximum=LAST_SEASON)


def bad_request(request, error: BadParameter):
    """The 400 page that says which value was refused and why."""
    return render(request, "400.html", {"message": error.message}, status=400)

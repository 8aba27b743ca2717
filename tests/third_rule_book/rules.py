"""The table rule book's dated rule set: the points per place (the table), the titles by total TP, the season.

The rule book in three sentences:

1. Each player of the entry placed k-th receives ``places[k - 1]`` table points (TP), 0 beyond the table
   (the table: 1st 10, 2nd 6, 3rd 3, others 0). Entries tied on places k…l share the sum of those places'
   points equally, rounded up to a whole TP.
2. A player's title is the highest of ``titles`` whose threshold the total TP reaches (Bronze player 10, Silver
   player 30, Gold player 100).
3. A season is a calendar year; every organiser awards TP.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

#: The one point kind of the rule book.
TP = "TP"
KINDS: tuple[str, ...] = (TP,)


@dataclass(frozen=True)
class TableRuleSet:
    """Every constant of the table rule book, valid from ``valid_from`` (inclusive)."""

    name: str = "Table rules 2024"
    valid_from: dt.date = dt.date(2024, 1, 1)
    #: Rule 1: TP per player for places 1, 2, 3 …; places beyond the table receive nothing.
    places: tuple[int, ...] = (10, 6, 3)
    #: Rule 2: the titles, lowest first, as (name, least total TP).
    titles: tuple[tuple[str, int], ...] = (("Bronze player", 10), ("Silver player", 30), ("Gold player", 100))
    #: Rule 3: a season is the calendar year.
    season_start: tuple[int, int] = (1, 1)
    #: The months the new-title mail goes out in (every month).
    title_mail_months: tuple[int, ...] = tuple(range(1, 13))
    #: Rule 3: every organiser awards TP.
    organiser_awards: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("club", KINDS),
        ("district", KINDS),
        ("circle", KINDS),
        ("federation", KINDS),
    )

    def points_for_place(self, place: int) -> int:
        """Rule 1: the table's TP for ``place`` (from 1), 0 beyond the table."""
        return self.places[place - 1] if 1 <= place <= len(self.places) else 0

    def awards_of(self, organiser: str) -> tuple[str, ...]:
        """Rule 3: the kinds ``organiser`` awards (TP, whoever organised)."""
        return dict(self.organiser_awards).get(organiser, ())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON, as the secretariat's dated rule sets store a payload."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "valid_from":
                out[f.name] = value.isoformat()
            elif f.name == "titles":
                out[f.name] = [[name, least] for name, least in value]
            elif f.name == "organiser_awards":
                out[f.name] = {organiser: list(kinds) for organiser, kinds in value}
            elif isinstance(value, tuple):
                out[f.name] = list(value)
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableRuleSet:
        """Back from :meth:`to_dict`; an unknown key is refused (``KeyError``)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise KeyError(f"unknown rule set keys: {', '.join(unknown)}")
        values: dict[str, Any] = {}
        for name, raw in data.items():
            if name == "valid_from":
                values[name] = dt.date.fromisoformat(raw)
            elif name == "titles":
                values[name] = tuple((str(title), int(least)) for title, least in raw)
            elif name == "organiser_awards":
                values[name] = tuple((organiser, tuple(kinds)) for organiser, kinds in raw.items())
            elif name in ("places", "season_start", "title_mail_months"):
                values[name] = tuple(int(item) for item in raw)
            else:
                values[name] = raw
        return cls(**values)


TABLE_RULES = TableRuleSet()


def ruleset_for(on_date: dt.date, candidates: Iterable[TableRuleSet]) -> TableRuleSet:
    """The newest candidate valid on ``on_date``; ``LookupError`` when none is valid yet."""
    valid = [rules for rules in candidates if rules.valid_from <= on_date]
    if not valid:
        raise LookupError(f"no table rule set is valid on {on_date.isoformat()}")
    return max(valid, key=lambda rules: rules.valid_from)

"""A player's ledger as their page and the API read it: every award newest first, a page at a time, as plain
values, and the day-by-day sums behind the chart of points over time.

The page shows 25 awards of a ledger of any length, read as values of the columns the page shows: as model
instances (the award, its tournament, its explanation and scale: four objects a row), building the objects would
take most of the page's CPU time. The rows are :class:`LedgerRow`, with the names of
:class:`~masterpoints.models.Award`'s fields and properties that the pages and
:func:`~masterpoints.award_text.award_block` read, so one row reads the same as the award it was read from.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Sum, TextField
from django.db.models.functions import Cast

from federation.models import Player
from federation.tables import SlicedRows
from masterpoints.explanation_store import loaded
from masterpoints.models import Award

#: The columns a ledger row is read from, in :class:`LedgerRow`'s order. The explanation's two parts come last,
#: as their stored JSON text: decoded only for a row whose words are not kept yet (``award_text.ledger_block``).
_COLUMNS = (
    "pk",
    "awarded_on",
    "kind",
    "units",
    "source",
    "tournament_id",
    "tournament__name",
    "part",
    "place_first",
    "place_last",
    "reason",
    "reverses_id",
    Cast("explanation_ref__scale__data", TextField()),
    Cast("explanation_ref__own", TextField()),
)


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One award of the ledger with what its row shows: the tournament's name, the day of the award a
    reversal cancels (``reverses_on``) and the explanation as stored (``scale_text`` and ``own_text``, the JSON
    of its two parts; ``None`` for an award without one), as the engine gave it in ``explanation_data``."""

    pk: int
    awarded_on: datetime.date
    kind: str
    units: int
    source: str
    tournament_id: int | None
    tournament_name: str
    part: str
    place_first: int | None
    place_last: int | None
    reason: str
    reverses_id: int | None
    reverses_on: datetime.date | None
    scale_text: str | None
    own_text: str | None

    amount = Award.amount  # the units in the kind's decimals

    @property
    def explanation_data(self) -> dict:
        """As ``Award.explanation_data``: the explanation as the engine gave it, ``{}`` when none."""
        return loaded(self.scale_text, self.own_text) if self.scale_text is not None else {}

    def get_source_display(self) -> str:
        return str(Award.Source(self.source).label)


class PlayerLedger(SlicedRows):
    """A player's awards newest first (as ``Award``'s ordering), read a slice at a time. Its length is
    ``size`` when the caller knows it (:attr:`PointsOverTime.awards`), else counted."""

    def __init__(self, player: Player, *, size: int | None = None):
        self.player = player
        self.size = size

    def __len__(self) -> int:
        if self.size is None:
            self.size = Award.objects.filter(player=self.player).count()
        return self.size

    def read(self, part: slice) -> list[LedgerRow]:
        """The rows of ``part``: one query, and one more for the days of the awards that reversals among them
        cancel."""
        awards = Award.objects.filter(player_id=self.player.pk).order_by("-awarded_on", "-pk")
        values = list(awards.values_list(*_COLUMNS)[part])
        cancelled = [row[11] for row in values if row[11] is not None]
        days = dict(Award.objects.filter(pk__in=cancelled).values_list("pk", "awarded_on")) if cancelled else {}
        return [
            LedgerRow(
                *row[:6],
                row[6] or "",
                *row[7:12],
                days.get(row[11]),
                *row[12:],
            )
            for row in values
        ]


@dataclass(frozen=True)
class PointsOverTime:
    """Cumulative balances per kind after each day with an award (reversals and corrections included), and
    the number of awards they sum (the ledger's length, read in the same query)."""

    series: list[tuple[datetime.date, dict[str, int]]]
    awards: int


def points_over_time(player: Player) -> PointsOverTime:
    # COUNT(*): the (player, awarded_on, kind, units) index alone answers (COUNT(id) reads each row).
    daily = (
        Award.objects.filter(player_id=player.pk)
        .values_list("awarded_on", "kind")
        .annotate(units=Sum("units"), awards=Count("*"))
        .order_by("awarded_on", "kind")
    )
    totals: dict[str, int] = dict.fromkeys(player.federation.scheme_info.kinds, 0)
    series: list[tuple[datetime.date, dict[str, int]]] = []
    awards = 0
    for day, kind, units, count in daily:
        totals[kind] = totals.get(kind, 0) + units
        awards += count
        if series and series[-1][0] == day:
            series[-1] = (day, dict(totals))
        else:
            series.append((day, dict(totals)))
    return PointsOverTime(series, awards)

"""The office's limits on a parsed file, checked right after parsing, before players are looked up or points
computed (design.md § Invariants: every number that enters from outside is bounded where it enters).

Two kinds of limit:

- the size of one event: more entries than :data:`MAX_ENTRIES_PER_EVENT`, or an entry with more players than
  :data:`MAX_PLAYERS_PER_ENTRY`;
- the columns a confirm writes the file's values to: an entry number longer than
  ``Entry.number`` keeps, a percentage of 10,000 or more, a score of 100,000,000 or more, a place or a player's
  boards beyond a whole-number column. Each is read from the model field itself (``max_length``,
  ``max_digits``/``decimal_places``, the integer column's range), so the preview refuses exactly what the
  database would, on SQLite as on PostgreSQL, naming the file's place, the value and the bound, instead of a
  confirm failing with a server error.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from tournaments.importers.model import ParsedEvent
from tournaments.issues import Issue, Location
from tournaments.models import Entry, Participation, RankingGroup, Tournament

#: At most this many entries (pairs, teams, players of an individual) in one event. The largest real results
#: file we hold is a multi-centre simultaneous pairs of 356 pairs (../shared/samples/pbn_fft_9901_multicentre.pbn,
#: SOURCES.md), the kind of event DBf's Klubsølv (§ 403A1, § 433E) is; a club evening has 6 to 40. Neither
#: rule book caps a field, but both scale it down where it is large (DBf § 405B6d counts only a fifth of the
#: participants beyond 40; HBS pays at most 50 % of the field, rule 5). 2,000 is five times the largest
#: event we know; a larger file is not one event's results.
MAX_ENTRIES_PER_EVENT = 2000
#: At most this many players in one entry. A team is 4 to 6 players (the importers warn outside that:
#: PLAYER_COUNT_UNUSUAL; WBF and EBL conditions of contest allow six), a pair two and an individual one, each
#: with the substitutes DBf § 405A1 and § 411D and HBS rule 6 count by their share of the boards; 8 leaves
#: room for two substitutes beyond a full team.
MAX_PLAYERS_PER_ENTRY = 8


def check_bounds(event: ParsedEvent) -> list[Issue]:
    """The file's entries and players against the office's limits, then every value a confirm writes against
    its column; counted on the parsed event only."""
    entries = sum(group.field_size for group in event.groups)
    if entries > MAX_ENTRIES_PER_EVENT:
        return [Issue("ENTRIES_TOO_MANY", params={"count": entries, "limit": MAX_ENTRIES_PER_EVENT})]
    too_many = [
        Issue(
            "PLAYERS_TOO_MANY",
            entry.where,
            {"entry": entry.number, "count": len(entry.players), "limit": MAX_PLAYERS_PER_ENTRY},
        )
        for entry in event.entries()
        if len(entry.players) > MAX_PLAYERS_PER_ENTRY
    ]
    return too_many or _column_issues(event)


def _column_issues(event: ParsedEvent) -> list[Issue]:
    """Each value of the file that ``tournament_create_from_preview`` writes as it is (names it cuts to their
    column are not refused), against its column."""
    where = Location()
    values: list[tuple[models.Field, Any, Location]] = [
        (_field(Tournament, "boards"), event.boards_played, where),
        (_field(Tournament, "boards"), event.boards_declared, where),
    ]
    for group in event.groups:
        where = group.entries[0].where if group.entries else Location()
        values += [(_field(RankingGroup, "key"), group.key, where), (_field(RankingGroup, "name"), group.name, where)]
        for entry in group.entries:
            values += [
                (_field(Entry, name), getattr(entry, name), entry.where)
                for name in ("key", "number", "place_first", "place_last", "score", "percentage")
            ]
            values += [(_field(Participation, "boards_played"), p.boards_played, p.where) for p in entry.players]
    return [issue for column, value, where in values if (issue := _column_issue(column, value, where))]


def _field(model: type[models.Model], name: str) -> models.Field:
    return model._meta.get_field(name)


def _column_issue(column: models.Field, value: Any, where: Location) -> Issue | None:
    """``VALUE_TOO_LONG`` or ``NUMBER_OUT_OF_RANGE`` when ``value`` does not fit ``column``, else ``None``."""
    if value is None:
        return None
    label = column.verbose_name
    if isinstance(column, models.CharField):
        if len(value) <= column.max_length:
            return None
        params = {"field": label, "value": _shown(value), "length": len(value), "limit": column.max_length}
        return Issue("VALUE_TOO_LONG", where, params)
    if isinstance(column, models.DecimalField):
        step = Decimal(1).scaleb(-column.decimal_places)
        limit = Decimal(10) ** (column.max_digits - column.decimal_places) - step
        fits = value.is_finite() and abs(value.quantize(step, rounding=ROUND_HALF_EVEN)) <= limit
        minimum = -limit
    else:
        minimum, limit = BaseDatabaseOperations.integer_field_ranges[column.get_internal_type()]
        fits = minimum <= value <= limit
    if fits:
        return None
    params = {"field": label, "value": _shown(str(value)), "minimum": minimum, "limit": limit}
    return Issue("NUMBER_OUT_OF_RANGE", where, params)


def _shown(text: str) -> str:
    """A value as the message names it: at most 60 characters of it."""
    return text if len(text) <= 60 else f"{text[:60]}…"

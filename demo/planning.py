"""The plan of a demo history: which tournaments are held in a season, where, when and by whom.

Pure and deterministic: a season's plan depends only on the scheme, the season's index, its dates, the
hosts and the engine's paid places, so a second run plans the same tournaments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from demo.data import seeded
from demo.profiles import DEMO_PROFILES
from federation.schemes import SchemeInfo


@dataclass(frozen=True)
class DemoHost:
    """Who can hold a demo tournament: a club (its playing weekdays) or a region (any weekend day).

    ``players`` are the ids of the players who take part there (a club's members, a region's clubs'
    members, or the whole federation).
    """

    organiser: str  # "club", "district" or "federation"
    index: int
    weekdays: tuple[int, ...]
    players: tuple[int, ...]


@dataclass(frozen=True)
class DemoEvent:
    """One planned tournament: pairs listed best first, each pair a couple of player ids."""

    host: DemoHost
    day: date
    category: str
    boards: int
    pairs: tuple[tuple[int, int], ...]


def demo_seasons(count: int, info: SchemeInfo, today: date) -> list[tuple[date, date]]:
    """The last ``count`` seasons of the scheme up to ``today``, oldest first, each as (first day, last
    day); the season still running ends ``today``."""
    current = info.season_of(today)
    seasons = []
    for season in range(current - count + 1, current + 1):
        start, end = info.season_dates(season)
        seasons.append((start, min(end, today)))
    return seasons


def plan_season(
    scheme: str,
    season_index: int,
    bounds: tuple[date, date],
    hosts: dict[str, Sequence[DemoHost]],
    awards_wanted: int,
    paid_places: Callable[[str, str, int, int], int],
) -> list[DemoEvent]:
    """Tournaments of one season, in date order, until about ``awards_wanted`` awards are planned.

    Clubs are picked in proportion to their members, on one of their playing weekdays; fields follow a
    triangular distribution leaning towards small club nights. ``paid_places(organiser, category, pairs,
    boards)`` is the engine's number of paid places, so the count of awards is the engine's own. Every
    event lies within ``bounds``; no event when no host has players enough for a field.
    """
    rng = seeded(f"{scheme}-season-{season_index}")
    start, end = bounds
    days = (end - start).days + 1
    event_mix = DEMO_PROFILES[scheme].event_mix
    # Only hosts with players enough for the smallest field of their kind of event hold one.
    able = {
        kind.organiser: [host for host in hosts.get(kind.organiser, ()) if len(host.players) >= 2 * kind.smallest]
        for kind in event_mix
    }
    mix = [kind for kind in event_mix if able[kind.organiser]]
    if not mix:
        return []
    weights = [kind.share for kind in mix]
    host_weights = {kind.organiser: _cumulative([len(h.players) for h in able[kind.organiser]]) for kind in mix}
    events: list[DemoEvent] = []
    planned = 0
    misses = 0
    while planned < awards_wanted and misses < 1000:
        organiser, category, _share, smallest, largest, boards = rng.choices(mix, weights)[0]
        host = rng.choices(able[organiser], cum_weights=host_weights[organiser])[0]
        pairs = min(len(host.players) // 2, round(rng.triangular(smallest, largest, smallest + 3)))
        if pairs < smallest:
            misses += 1
            continue
        day = start + timedelta(days=rng.randrange(days))
        if host.weekdays:
            day += timedelta(days=(host.weekdays[rng.randrange(len(host.weekdays))] - day.weekday()) % 7)
            if day > end:
                day -= timedelta(days=7)
            if day < start:
                misses += 1
                continue
        chosen = rng.sample(host.players, 2 * pairs)
        events.append(DemoEvent(host, day, category, boards, tuple(zip(chosen[0::2], chosen[1::2], strict=True))))
        planned += 2 * paid_places(organiser, category, pairs, boards)
    events.sort(key=lambda e: e.day)
    return events


def _cumulative(values: Sequence[int]) -> list[int]:
    """Running totals of ``values`` (the cumulative weights ``random.choices`` takes)."""
    total, out = 0, []
    for value in values:
        total += value
        out.append(total)
    return out

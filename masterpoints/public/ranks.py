"""A player's ranks read from an index of their federation's sorted keys, not counted per page.

A rank is one plus the number of better standings in its scope (:mod:`masterpoints.public.selectors`).
Counted in the database, each scope of a player's page is a range count over the federation's standings:
8–9 ms each for the federation's size, its rank and the ranking list's place, 20–35 ms for the district
(a semi-join over home memberships), on 70,000 standings (issue 16). The index holds, per federation, the
sorted ranking keys of its default list (the official list where the scheme publishes only that, HBS rule
3), of each region's players (by home club: a district counts the clubs of its circles, as
:func:`~masterpoints.public.selectors.in_region`), of each club's current members (as
:func:`~masterpoints.public.selectors.in_club`: counted, 1–2 ms of the database per page) and the sorted
figures of the ranking list (D-Q60); a rank is then a bisection. It also holds the folded names of the
default list (shown and hidden apart), so that the rankings searched by name count their rows here: 4 ms
in Python where the database joined the trigram matches to the federation's standings in 24–43 ms.

The index is kept in each process under the federation's standings version, which every change of its
standings or ranking list raises, and the day (the official list follows dues paid), for at most
:data:`RANK_INDEX_SECONDS`: a change of the register that raises no version (dues paid, a new home club, a
club joined or left) shows in the ranks within that time, and on a page kept for anonymous readers within
that and the page's own time (``page_cache.PAGE_CACHE_SECONDS``). A player the index does not hold (their
dues paid since it was built) has their ranks counted.

Building the index reads the whole federation (0.35–0.4 s for 70,000 standings and their names), which the first page
after an upload must not wait for: while the standings changed less than :data:`SETTLED_SECONDS` ago (an
evening of uploads), there is no index and the ranks are counted in the database; the first page after
that builds it.
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from clubs.models import ClubMembership
from federation.models import Federation, official_list_q
from masterpoints.models import RankingListEntry, Standing
from masterpoints.standings.versions import changed_at, federation_in, standings_version_cached

#: How long a process keeps one federation's index under an unchanged standings version and day (a build
#: a minute per process is a small part of one core).
RANK_INDEX_SECONDS = 60
#: An index is built only for standings that have not changed for this long.
SETTLED_SECONDS = 5


@dataclass(frozen=True)
class RankIndex:
    """Sorted keys (ascending) of a federation's scopes: ``listed`` (the default list), ``regions`` (region id
    → the keys of the listed players whose home club lies in it), ``clubs`` (club id → the keys of its listed
    current members) and ``ranking_list`` (the exact figures);
    the search names (``Player.search_name``) of the listed players who show their name (``names``) and of
    those who hide it (``hidden_names``)."""

    listed: array
    regions: dict[int, array]
    ranking_list: array
    clubs: dict[int, array]
    names: tuple[str, ...] = ()
    hidden_names: tuple[str, ...] = ()

    def named(self, words: tuple[str, ...], *, see_hidden: bool) -> int:
        """How many listed players' search names hold every one of ``words`` (folded, as
        :func:`~masterpoints.public.selectors.matching` compares them), hidden names only for ``see_hidden``."""
        first, rest = words[0], words[1:]
        found = 0
        for names in (self.names, self.hidden_names) if see_hidden else (self.names,):
            matches = [name for name in names if first in name]
            found += sum(1 for name in matches if all(word in name for word in rest)) if rest else len(matches)
        return found

    @staticmethod
    def better(keys: array, key: int) -> int:
        """How many of ``keys`` are higher than ``key`` (equal keys share a rank)."""
        return len(keys) - bisect_right(keys, key)

    @staticmethod
    def holds(keys: array, key: int) -> bool:
        """Whether ``key`` is among ``keys`` (a player's own key is, unless the index predates them)."""
        place = bisect_left(keys, key)
        return place < len(keys) and keys[place] == key


_kept: dict[int, tuple[str, float, RankIndex]] = {}


def rank_index(federation: Federation, *, day, official: bool, version: str | None = None) -> RankIndex | None:
    """The index of ``federation`` on ``day``; ``official``: the default list is the official list; ``version``:
    its standings version when the caller has read it. ``None`` while its standings have changed within
    :data:`SETTLED_SECONDS` (count the ranks instead)."""
    if version is not None and federation_in(version) != federation.pk:
        version = None  # read for another federation (a rankings address naming none): read this one's
    version = version or standings_version_cached(f"code:{federation.code}") or "0"  # as a player page
    stamp = f"{version}:{day}:{official}"
    kept = _kept.get(federation.pk)
    now = time.monotonic()
    if kept is not None and kept[0] == stamp and now - kept[1] < RANK_INDEX_SECONDS:
        return kept[2]
    if time.time_ns() // 1000 - changed_at(version) < SETTLED_SECONDS * 1_000_000:
        return None
    index = _build(federation, day=day, official=official)
    _kept[federation.pk] = (stamp, now, index)
    return index


def rank_index_forget() -> None:
    """Drop every kept index (tests start from an empty cache; a process never needs it)."""
    _kept.clear()


def _build(federation: Federation, *, day, official: bool) -> RankIndex:
    """Four reads of the whole federation, kept for many pages."""
    scope = Standing.objects.filter(federation=federation)
    if official:
        scope = scope.filter(official_list_q(day, prefix="player__"))
    keys: dict[int, int] = {}
    names: tuple[list[str], list[str]] = ([], [])
    rows = scope.values_list("player_id", "sort_key", "player__search_name", "player__hide_name").order_by()
    for player_id, key, name, hidden in rows:
        keys[player_id] = key
        names[hidden].append(name)
    members: dict[int, set[int]] = {}
    homes = ClubMembership.objects.filter(is_home=True, player__federation=federation).values_list(
        "player_id", "club__regions", "club__regions__parent"
    )
    for player_id, region_id, parent_id in homes.order_by():
        if player_id not in keys:
            continue
        for region in (region_id, parent_id):
            if region is not None:
                members.setdefault(region, set()).add(player_id)
    members_of: dict[int, list[int]] = {}
    current = ClubMembership.objects.filter(until__isnull=True, player__federation=federation)
    for player_id, club_id in current.values_list("player_id", "club_id").order_by():
        if player_id in keys:
            members_of.setdefault(club_id, []).append(keys[player_id])
    figures = RankingListEntry.objects.filter(federation=federation).values_list("score", flat=True)
    return RankIndex(
        listed=array("q", sorted(keys.values())),
        regions={region: array("q", sorted(keys[p] for p in players)) for region, players in members.items()},
        ranking_list=array("q", sorted(figures.order_by())),
        clubs={club: array("q", sorted(club_keys)) for club, club_keys in members_of.items()},
        names=tuple(names[False]),
        hidden_names=tuple(names[True]),
    )

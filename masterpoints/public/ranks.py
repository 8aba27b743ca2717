"""A federation's default list in rank order, kept in each process: the ranks of a player's page and the
rankings' rows and lengths read from it, not counted per page.

A rank is one plus the number of better standings in its scope (:mod:`masterpoints.public.selectors`).
Counted in the database, each scope of a player's page is a range count over the federation's standings:
8–9 ms each for the federation's size, its rank and the ranking list's place, 20–35 ms for the district
(a semi-join over home memberships), 1–2 ms for the club, on 70,000 standings (issue 16). The index holds,
per federation, its default list (the official list where the scheme publishes only that, HBS rule 3) in
the rankings' order: the player ids, their keys, their folded search names and what a row of the rankings
shows of them (so that a page of the list reads nothing of its own). A scope is a list of
positions in it: each region's players (by home club: a district counts the clubs of its circles, as
:func:`~masterpoints.public.selectors.in_region`), each club's current members (as
:func:`~masterpoints.public.selectors.in_club`), the players whose name holds the words searched for, or
everyone. A rank is then a bisection; a page of the rankings a slice of its scope
(:mod:`masterpoints.public.listed`). The index also holds the sorted figures of the ranking list (D-Q60).

The index is kept in each process under the federation's standings version, which every change of its
standings or ranking list raises, and the day (the official list follows dues paid), for at most
:data:`RANK_INDEX_SECONDS`: a change of the register that raises no version (dues paid, a new home club, a
club joined or left) shows in the ranks within that time, and on a page kept for anonymous readers within
that and the page's own time (``page_cache.PAGE_CACHE_SECONDS``). A player the index does not hold (their
dues paid since it was built) has their ranks counted.

Building the index reads the whole federation (0.5–0.7 s for 70,000 standings, their rows, names and
scopes; the index then holds about 25 MB of each process), which the first page after an upload must not
wait for: while the standings changed less than :data:`SETTLED_SECONDS` ago (an evening of uploads), there
is no index and the ranks are counted in the database; the first page after that builds it.
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import chain, compress, repeat
from operator import contains
from typing import TypeVar

from clubs.models import ClubMembership
from federation.models import Federation, official_list_q
from masterpoints.models import RankingListEntry, Standing
from masterpoints.standings.versions import changed_at, federation_in, standings_version_cached

#: How long a process keeps one federation's index under an unchanged standings version and day, and the
#: other reads it keeps (:func:`kept`): the bound the kept pages have (``page_cache.PAGE_CACHE_SECONDS``) for
#: a change of the register. A build (0.5–0.7 s
#: for 70,000 standings) a minute in each of four workers took 4 % of a core, every 5 minutes under 1 %.
RANK_INDEX_SECONDS = 300
T = TypeVar("T")
#: An index is built only for standings that have not changed for this long.
SETTLED_SECONDS = 5


#: What a row of the rankings shows of a listed player (:meth:`RankIndex.shown`), in the order of the fields of
#: ``masterpoints.public.listed.ListedPlayer`` and then ``ListedRow`` after its place: the texts (number,
#: name, whether it is hidden, the home club's name, the title or category), then the figures (the stars and
#: the balances, in integer units).
SHOWN_TEXTS = ("number", "first_name", "last_name", "hide_name", "home_club_name", "title")
SHOWN_FIGURES = ("stars", "mp", "bp", "sp", "gp", "black", "red", "master")
SHOWN = SHOWN_TEXTS + SHOWN_FIGURES
_PLAYER = ("player__number", "player__first_name", "player__last_name", "player__hide_name")

#: A scope no listed player is in.
NOBODY = array("q")


@dataclass(frozen=True)
class NameWords:
    """The listed players by the words of their folded search names: each distinct word once (``words``) and
    the positions of the names that have it (``positions``, ascending, one array per word).

    A search word is folded too, so it holds no space: a name holds it exactly when one of the name's words
    does, and a federation's names have far fewer distinct words than names (first and last names repeat).
    Looking for it among those in C (``operator.contains`` mapped over them) and joining their positions
    costs a fraction of looking in every name (2–3 ms for 70,000 names, issue 16)."""

    words: tuple[str, ...]
    positions: tuple[array, ...]

    @classmethod
    def of(cls, names, hidden) -> NameWords:
        """The words of ``names`` whose ``hidden`` flag (a parallel sequence) is not set."""
        found: dict[str, list[int]] = {}
        for at, (name, skip) in enumerate(zip(names, hidden, strict=True)):
            if not skip:
                for word in set(name.split()):
                    found.setdefault(word, []).append(at)
        return cls(tuple(found), tuple(array("q", positions) for positions in found.values()))

    def holding(self, part: str) -> list[int]:
        """The positions, ascending, of the names with a word that holds ``part``."""
        groups = list(compress(self.positions, map(contains, self.words, repeat(part))))
        if len(groups) == 1:
            return list(groups[0])
        return sorted(set(chain.from_iterable(groups)))


@dataclass(frozen=True)
class RankIndex:
    """A federation's default list in the rankings' order (key descending, then player id, as
    :func:`~masterpoints.public.selectors.ranked` orders it): ``order`` the player ids, ``keys`` their ranking
    keys, ``names`` their search names (``Player.search_name``) and the words of those names, of all of them
    (``words``, for the secretariat) and of those the public finds (``public_words``: hidden names are found
    by number only, HBS rule 4). A **scope** is a sequence of positions in that order,
    ascending, so itself in rank order: ``everyone``, a region's (``regions``: region id → the listed players
    whose home club lies in it), a club's (``clubs``: club id → its listed current members) or a name's
    (:meth:`named`). :meth:`shown` gives a listed player's row as the rankings show it (as the index was
    built, so a change of the register that raises no version shows within :data:`RANK_INDEX_SECONDS`; the
    points, titles and hidden names are the version's): ``texts`` holds each one's number, name, hiding and
    home club and title (:data:`SHOWN_TEXTS`, the repeated ones stored once), ``figures`` their stars and
    balances (:data:`SHOWN_FIGURES`, one run of them per position). ``ranking_list`` holds the exact figures
    of the ranking list, ascending."""

    order: array
    keys: array
    names: tuple[str, ...]
    words: NameWords
    public_words: NameWords
    texts: tuple[tuple, ...]
    figures: array
    regions: dict[int, array]
    clubs: dict[int, array]
    ranking_list: array

    @property
    def everyone(self) -> range:
        return range(len(self.order))

    def named(self, words: tuple[str, ...], *, see_hidden: bool) -> list[int]:
        """The scope of the listed players whose search name holds every one of ``words`` (folded, as
        :func:`~masterpoints.public.selectors.matching` compares them), hidden names only for ``see_hidden``:
        the first word looked for among the names' distinct words (:class:`NameWords`), the others in the
        names found; a list (an ``array`` built from them costs half again)."""
        first, rest = words[0], words[1:]
        found = (self.words if see_hidden else self.public_words).holding(first)
        if rest:
            names = self.names
            found = [at for at in found if all(word in names[at] for word in rest)]
        return found

    def shown(self, position: int) -> tuple:
        """What the rankings show of the player at ``position``: the values of :data:`SHOWN`, in its order."""
        width = len(SHOWN_FIGURES)
        return (*self.texts[position], *self.figures[position * width : (position + 1) * width])

    def better(self, scope, key: int) -> int:
        """How many players of ``scope`` have a key higher than ``key`` (equal keys share a rank)."""
        keys = self.keys
        return bisect_left(scope, -key, key=lambda position: -keys[position])

    def holds(self, key: int) -> bool:
        """Whether ``key`` is among the listed keys (a player's own key is, unless the index predates them)."""
        place = self.better(self.everyone, key)
        return place < len(self.keys) and self.keys[place] == key

    def figures_above(self, score: int) -> int:
        """How many figures of the ranking list are higher than ``score`` (equal figures share a place)."""
        return len(self.ranking_list) - bisect_right(self.ranking_list, score)


def rank_index(federation: Federation, *, day, official: bool, version: str | None = None) -> RankIndex | None:
    """The index of ``federation`` on ``day``; ``official``: the default list is the official list; ``version``:
    its standings version when the caller has read it. ``None`` while its standings have changed within
    :data:`SETTLED_SECONDS` (count the ranks instead); kept (:func:`kept`) under the version, the day and the
    list."""
    if version is not None and federation_in(version) != federation.pk:
        version = None  # read for another federation (a rankings address naming none): read this one's
    version = version or standings_version_cached(f"code:{federation.code}") or "0"  # as a player page
    if time.time_ns() // 1000 - changed_at(version) < SETTLED_SECONDS * 1_000_000:
        return None
    build = partial(_build, federation, day=day, official=official)
    return kept(("rank-index", federation.pk), build, stamp=f"{version}:{day}:{official}")


_kept: dict[tuple, tuple[str, float, object]] = {}


def kept(key: tuple, build: Callable[[], T], *, stamp: str = "") -> T:
    """What ``build()`` reads, kept in this process under ``key`` for :data:`RANK_INDEX_SECONDS` while its
    ``stamp`` stays (a standings version, a day): the public pages' reads of the register that every page of
    one kind needs and that change seldom (the rank index; the federations, the rankings' choices, the ladder
    book and the clubs with their districts: ``masterpoints.public.selectors`` and ``filters``), so that a
    change shows within that time. The value is shared by the process's requests, which only read it."""
    now = time.monotonic()
    found = _kept.get(key)
    if found is not None and found[0] == stamp and now - found[1] < RANK_INDEX_SECONDS:
        return found[2]
    value = build()
    _kept[key] = (stamp, now, value)
    return value


def rank_index_forget() -> None:
    """Drop every kept index and read (tests start from an empty cache; a process never needs it)."""
    _kept.clear()


def _build(federation: Federation, *, day, official: bool) -> RankIndex:
    """Four reads of the whole federation, kept for many pages."""
    scope = Standing.objects.filter(federation=federation)
    if official:
        scope = scope.filter(official_list_q(day, prefix="player__"))
    rows = scope.values_list("player_id", "sort_key", "player__search_name", *_PLAYER, "title", *SHOWN_FIGURES)
    rows = list(rows.order_by("-sort_key", "player_id"))
    position = {row[0]: index for index, row in enumerate(rows)}
    regions: dict[int, set[int]] = {}
    home_names: dict[int, str] = {}
    homes = ClubMembership.objects.filter(is_home=True, player__federation=federation).values_list(
        "player_id", "club__name", "club__regions", "club__regions__parent"
    )
    once: dict[str, str] = {}  # a first name, a last name, a club, a title: each one string, however often
    for player_id, club_name, region_id, parent_id in homes.order_by():
        if player_id in position:
            home_names.setdefault(position[player_id], once.setdefault(club_name, club_name))
            for region in (region_id, parent_id):
                if region is not None:
                    regions.setdefault(region, set()).add(position[player_id])
    clubs: dict[int, set[int]] = {}
    current = ClubMembership.objects.filter(until__isnull=True, player__federation=federation)
    for player_id, club_id in current.values_list("player_id", "club_id").order_by():
        if player_id in position:
            clubs.setdefault(club_id, set()).add(position[player_id])
    names = tuple(row[2] for row in rows)
    texts = tuple(
        (
            number,
            once.setdefault(first, first),
            once.setdefault(last, last),
            hide,
            home_names.get(at),
            once.setdefault(title, title),
        )
        for at, (_id, _key, _name, number, first, last, hide, title, *_figures) in enumerate(rows)
    )
    ranking = RankingListEntry.objects.filter(federation=federation).values_list("score", flat=True)
    return RankIndex(
        order=array("q", (row[0] for row in rows)),
        keys=array("q", (row[1] for row in rows)),
        names=names,
        words=NameWords.of(names, repeat(False, len(names))),
        public_words=NameWords.of(names, [row[6] for row in rows]),
        texts=texts,
        figures=array("q", (figure for row in rows for figure in row[8:])),
        regions={region: array("q", sorted(members)) for region, members in regions.items()},
        clubs={club: array("q", sorted(members)) for club, members in clubs.items()},
        ranking_list=array("q", sorted(ranking.order_by())),
    )

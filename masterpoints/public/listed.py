"""The rankings' default list read from the rank index (:mod:`masterpoints.public.ranks`): its length, and
its rows in rank order a page at a time, without a count or a window over the federation's standings.

The list with no filter but at most one region, club or name is most of what players open. Ranked in the
database, each page that was not kept ran ``RANK() OVER`` over the filtered standings (a semi-join per
standing for a region or club, the trigram matches for a name) and counted them. The index holds the list
in rank order with what each row shows, so the page's rows are a slice of it and its length a ``len()``: a
page reads nothing from the database (reading its 50 standings by player id cost 2–2.5 ms of every page not
kept), and each row's place is the number of better keys in its scope plus one (equal keys share it, as
``RANK()`` does). Like the ranks, the rows can lag a change of the register that raises no standings version
(a name, a home club, a membership) by up to ``RANK_INDEX_SECONDS``; their points, titles and hidden names
are those of the version.
"""

from __future__ import annotations

from dataclasses import dataclass

from federation.models import Federation, Player
from federation.tables import SlicedRows
from masterpoints.public.ranks import NOBODY, RankIndex, rank_index
from masterpoints.public.selectors import official_by_default, today


def listed_scope(index: RankIndex, *, region: int | None, club: int | None, words: tuple[str, ...], see_hidden: bool):
    """The positions in ``index`` (rank order) of the default list's players whose home club lies in
    ``region`` (as :func:`~masterpoints.public.selectors.in_region` finds them), or of ``club``'s current
    members (as :func:`~masterpoints.public.selectors.in_club`), or whose name holds every one of ``words``
    (:func:`~masterpoints.public.selectors.name_words`, as :func:`~masterpoints.public.selectors.matching`
    finds them, hidden names only for ``see_hidden``); everyone for none of these (one at most)."""
    if region is not None:
        return index.regions.get(region, NOBODY)
    if club is not None:
        return index.clubs.get(club, NOBODY)
    if words:
        return index.named(words, see_hidden=see_hidden)
    return index.everyone


@dataclass(frozen=True, slots=True)
class ListedPlayer:
    """The player of a listed row, as the rankings show them (:func:`~masterpoints.public.tables.shown_name`)."""

    number: str
    first_name: str
    last_name: str
    hide_name: bool

    full_name = Player.full_name


@dataclass(frozen=True, slots=True)
class ListedRow:
    """A row of the rankings read from the index: the standing's shown values, its player, home club and
    ``place``, under the names :class:`~masterpoints.models.Standing` and
    :func:`~masterpoints.public.selectors.ranked` give them (the rankings' table reads either)."""

    place: int
    player: ListedPlayer
    home_club_name: str | None
    title: str
    stars: int
    mp: int
    bp: int
    sp: int
    gp: int
    black: int
    red: int
    master: int


class ListedRows(SlicedRows):
    """The rows of one scope of the default list in rank order (:class:`ListedRow`), read a slice at a
    time from what the index shows of each (``RankIndex.shown``)."""

    def __init__(self, index: RankIndex, scope):
        self.index = index
        self.scope = scope

    def __len__(self) -> int:
        return len(self.scope)

    def read(self, part: slice) -> list[ListedRow]:
        return self._rows(self.scope[part])

    def _rows(self, positions) -> list[ListedRow]:
        index, scope = self.index, self.scope
        out = []
        for position in positions:
            row = index.shown(position)
            place = index.better(scope, index.keys[position]) + 1
            out.append(ListedRow(place, ListedPlayer(*row[:4]), *row[4:]))
        return out


def listed(
    federation: Federation,
    *,
    official: bool,
    region: int | None = None,
    club: int | None = None,
    words: tuple[str, ...] = (),
    see_hidden: bool = False,
    version: str | None = None,
) -> ListedRows | None:
    """The rows of the rankings list with no filter but the list (``official``) and at most one of a region,
    a club (both ids) or a name (``words``), as :func:`listed_scope` reads them. ``None`` where the index
    cannot say: another list than the default one, two of them together, or no index (standings changed
    within ``SETTLED_SECONDS``). ``version``: the federation's standings version the page has read."""
    if official != official_by_default(federation) or sum((region is not None, club is not None, bool(words))) > 1:
        return None
    index = rank_index(federation, day=today(), official=official, version=version)
    if index is None:
        return None
    return ListedRows(index, listed_scope(index, region=region, club=club, words=words, see_hidden=see_hidden))

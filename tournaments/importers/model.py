"""The normalised result model every importer produces (frozen dataclasses, no Django, no database).

One :class:`ParsedEvent` holds :class:`RankingGroup` s (the units masterpoints are computed over: a
whole field, one direction of a two-winner Mitchell, a section ...), each with its :class:`Entry` s
(pairs, teams or individual players) and their :class:`Participant` s. Team events may carry
:class:`Match` es. Nothing here is checked against members or clubs: that is the upload service's job.

Places follow competition ranking: entries tied on place 3 of 1, 2, 3, 3, 5 get ``place_first=3`` and
``place_last=4`` (the places they cover, which is what tie-splitting rules need).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from .issues import Location


@dataclass(frozen=True)
class EncodingDecision:
    """Which character encoding was used to read the file, and why.

    ``method`` is one of ``bom`` (byte-order mark), ``declared`` (the file's own declaration),
    ``xml-default`` (XML without declaration: UTF-8 by the XML rules), ``utf-8`` (valid UTF-8),
    ``ascii`` (plain ASCII), ``detected`` (charset-normalizer's guess among European 8-bit encodings)
    or ``fallback`` (the configured fallback). ``declared`` is what the file said, if anything.
    """

    encoding: str
    method: str
    declared: str | None = None

    @property
    def guessed(self) -> bool:
        return self.method in ("detected", "fallback")


@dataclass(frozen=True)
class SuppliedAward:
    """An award the scoring program wrote into the file (advisory; units are the program's)."""

    amount: Decimal
    kind: str | None = None


@dataclass(frozen=True)
class Participant:
    """A player as the file names them. ``national_id`` is the membership number as written (a string,
    leading zeros kept) or ``None`` when absent, empty or ``0``."""

    name: str
    national_id: str | None
    home_club: str | None = None
    boards_played: int | None = None
    where: Location = field(default_factory=Location, compare=False)


@dataclass(frozen=True)
class Entry:
    """A ranked unit: a pair, a team or an individual player.

    ``key`` is unique in the event: ``session/section/direction/number`` with ``-`` for parts the file
    does not have (``-/-/NS/1``). ``place_first``/``place_last`` are the places the entry covers (equal
    unless tied); they are ``None`` only when the group could not be ranked, which is always reported as
    an error. ``place_in_file`` is the place text as written (``3=``), ``None`` when places were computed.
    """

    key: str
    number: str
    place_first: int | None
    place_last: int | None
    score: Decimal | None
    percentage: Decimal | None
    boards_played: int | None
    players: tuple[Participant, ...]
    supplied_awards: tuple[SuppliedAward, ...] = ()
    name: str | None = None
    session: str | None = None
    section: str | None = None
    direction: str | None = None
    place_in_file: str | None = None
    handicap: Decimal | None = None
    adjustment: Decimal | None = None
    where: Location = field(default_factory=Location, compare=False)

    @property
    def tied(self) -> bool:
        return self.place_first is not None and self.place_last != self.place_first


@dataclass(frozen=True)
class RankingGroup:
    """Entries ranked against each other; the field size for masterpoints is ``len(entries)``.

    ``key`` is ``session/section/direction`` with ``-`` for an absent part (``-/-/-`` is a single field,
    ``-/-/NS`` the North-South field of a two-winner Mitchell, ``-/A/-`` section A ranked on its own).
    ``name`` is built from the file's own labels (empty for a single field; the UI labels that case).
    ``ranked_by`` is ``place`` when the file's places were used, ``score`` when places were computed from
    the scores (no places in the file, or a handicap event re-ranked on the scratch result).
    Entries are ordered by place, then by number.
    """

    key: str
    name: str
    session: str | None
    section: str | None
    direction: str | None
    entries: tuple[Entry, ...]
    ranked_by: str = "place"

    @property
    def field_size(self) -> int:
        return len(self.entries)


@dataclass(frozen=True)
class Match:
    """One match of a team (or Swiss) event, from ``team``'s point of view; ``opponent`` is ``None`` for
    a bye. IMPs and VPs are as written; ``boards`` is the number of boards of the match if known."""

    round: str
    team: str
    opponent: str | None
    imps: Decimal | None = None
    opponent_imps: Decimal | None = None
    vp: Decimal | None = None
    opponent_vp: Decimal | None = None
    boards: int | None = None
    session: str | None = None
    where: Location = field(default_factory=Location, compare=False)


@dataclass(frozen=True)
class ParsedEvent:
    """One event read from an upload.

    ``format`` is ``usebio``, ``pbn`` or ``csv``; ``version`` the format version as written (``1.2``);
    ``dialect`` the producer family (``compscore``, ``scorebridge``, ``bridgecomposer``, ``generic`` ...);
    ``program`` the producing program and version as written. ``form`` is ``pairs``, ``individual`` or
    ``teams``; ``scoring`` one of ``MP``, ``IMP``, ``BUTLER``, ``CROSS_IMP``, ``VP``; ``event_type`` the
    file's own word for it. ``boards_played`` is counted from result travellers (hand records never
    count), ``boards_declared`` is what the file states; either may be ``None``. ``awards_supplied``
    tells whether the file carries the program's own masterpoint awards (see ``Entry.supplied_awards``).
    ``handicap`` marks a handicap event, whose groups are ranked on the scratch result.
    """

    format: str
    version: str | None
    dialect: str
    program: str | None
    event_id: str | None
    name: str | None
    date: datetime.date | None
    club_number: str | None
    club_name: str | None
    form: str
    scoring: str
    event_type: str | None
    boards_played: int | None
    boards_declared: int | None
    sessions: int
    groups: tuple[RankingGroup, ...]
    matches: tuple[Match, ...]
    encoding: EncodingDecision
    awards_supplied: bool = False
    handicap: bool = False
    rating: str | None = None

    def entries(self) -> Iterator[Entry]:
        """All entries, group by group."""
        for group in self.groups:
            yield from group.entries

    def group(self, key: str) -> RankingGroup:
        """The group with ``key``; ``KeyError`` if there is none."""
        for group in self.groups:
            if group.key == key:
                return group
        raise KeyError(key)

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

from tournaments.issues import Location


@dataclass(frozen=True)
class EncodingDecision:
    """Which character encoding was used to read the file, and why.

    ``method`` is one of ``bom`` (byte-order mark), ``declared`` (the file's own declaration),
    ``xml-default`` (XML without declaration: UTF-8 by the XML rules), ``utf-8`` (valid UTF-8),
    ``ascii`` (plain ASCII), ``fallback`` (the most plausible of the caller's preferred 8-bit
    encodings), ``detected`` (the most plausible of the other European 8-bit encodings) or ``chosen``
    (the encoding the director chose, ``parse_results(..., encoding=...)``). ``declared`` is what the
    file said, if anything.
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
    leading zeros kept) or ``None`` when absent, empty or ``0``.

    ``boards_played`` is the player's own figure, else (team files) that of the pair the player sat in,
    else (individual events) the boards the travellers name the player on; ``None`` when unknown.
    ``pair`` is the pair a team player sat in, as the file numbers it (TeamsScorer ``1-3-4``), so that
    :attr:`Match.lineup` tells which players played which match."""

    name: str
    national_id: str | None
    home_club: str | None = None
    boards_played: int | None = None
    where: Location = field(default_factory=Location, compare=False)
    pair: str | None = None


@dataclass(frozen=True)
class Entry:
    """A ranked unit: a pair, a team or an individual player.

    ``key`` is unique in the event: ``session/section/direction/number`` with ``-`` for parts the file
    does not have (``-/-/NS/1``). ``place_first``/``place_last`` are the places the entry covers (equal
    unless tied); they are ``None`` only when the group could not be ranked, which is always reported as
    an error. ``place_in_file`` is the place text as written (``3=``), ``None`` when places were computed
    (it may differ from ``place_first`` when entries the file leaves unranked were taken out).
    ``centre`` is the entry's centre in a multi-centre (simultaneous) event. In a handicap group re-ranked on
    the scratch result, ``handicap_first``/``handicap_last`` are the places the file gives (its handicap
    ranking, ties covering the places they share), for a rule book that pays on the handicap result (DBf
    D-Q17); ``None`` otherwise.
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
    centre: str | None = None
    handicap_first: int | None = None
    handicap_last: int | None = None

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
class MatchPair:
    """Which pair of a team played in a match, and on how many of its boards (from the match's travellers).
    ``pair`` is the file's pair number, the :attr:`Participant.pair` of that pair's players."""

    team: str
    pair: str
    boards: int


@dataclass(frozen=True)
class Match:
    """One match of a team (or Swiss) event, from ``team``'s point of view; ``opponent`` is ``None`` for
    a bye.

    ``score``/``opponent_score`` are the match score as written, in the unit ``scoring`` names: ``IMP``,
    ``BAM`` (board points: ``points_per_board`` for a won board, 2 for point-a-board, 1 for
    board-a-match, half for a tied one) or ``VP``. ``imps`` and ``vp`` (with their ``opponent_``
    partners) repeat the score in those units when the file gives them (IMPs may be summed from the
    boards). ``boards`` is the number of boards of the match if known; ``start_board``/``end_board``
    the board range when the file gives one (TeamsScorer, Swiss files).

    ``round`` is as written. Where the file gives board ranges, the range identifies the match and the
    round may count only the listing team's own matches (TeamsScorer: team 1's fifth match is team 2's
    fourth), so rounds are not compared across teams then. ``lineup`` lists the pairs that played
    (from the match's travellers; empty when the file has none).
    """

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
    scoring: str | None = None
    score: Decimal | None = None
    opponent_score: Decimal | None = None
    points_per_board: Decimal | None = None
    start_board: int | None = None
    end_board: int | None = None
    lineup: tuple[MatchPair, ...] = ()

    @property
    def key(self) -> str:
        """Unique among the event's matches: ``session/round/team-opponent``, plus ``/start-end`` when the
        file gives the board range (``1/5/1-2/13-15``); ``bye`` stands for a missing opponent."""
        key = f"{self.session or '-'}/{self.round}/{self.team}-{self.opponent or 'bye'}"
        if self.start_board is not None and self.end_board is not None:
            key += f"/{self.start_board}-{self.end_board}"
        return key


@dataclass(frozen=True)
class ParsedEvent:
    """One event read from an upload.

    ``format`` is ``usebio``, ``pbn`` or ``csv``; ``version`` the format version as written (``1.2``);
    ``dialect`` the producer family (``compscore``, ``scorebridge``, ``bridgecomposer``, ``generic`` ...);
    ``program`` the producing program and version as written. ``form`` is ``pairs``, ``individual`` or
    ``teams``; ``scoring`` - what the entries' ``score`` is in - one of ``MP``, ``IMP``, ``BUTLER``,
    ``CROSS_IMP``, ``VP`` or ``BAM`` (board points: point-a-board or board-a-match teams); ``event_type``
    the file's own word for it. ``board_scoring`` and ``match_scoring`` are how the file says boards and
    matches were scored (the same codes; ``None`` when it does not say): a VP team event may have
    IMP- or BAM-scored boards. ``boards_played`` is counted from result travellers (hand records never
    count), ``boards_declared`` is what the file states (a PBN: the most ``NrBoards`` of its ranking);
    either may be ``None``. ``awards_supplied``
    tells whether the file carries the program's own masterpoint awards (see ``Entry.supplied_awards``).
    ``handicap`` marks a handicap event, whose groups are ranked on the scratch result (the file's places kept
    as each entry's ``handicap_first``/``handicap_last``). ``start_time`` is
    the local time the event started when the file says (PBN's ``Time`` tag); ``None`` otherwise, as in
    every USEBIO file we know (formats.md § 1.2: ``DATE`` only).
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
    board_scoring: str | None = None
    match_scoring: str | None = None
    start_time: datetime.time | None = None

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

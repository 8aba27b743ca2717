"""The mutable draft a format reader fills before :func:`~.ranking.finalise` checks and freezes it.

A reader (USEBIO, PBN, CSV) records what the file says in a :class:`DraftEvent` with one
:class:`DraftEntry` per pair, team or player, in file order, and reports the problems of single values
(unparseable places, scores, dates) as it reads. Everything shared by all formats - the group decision
(:mod:`.grouping`), places and ties (:mod:`.places`), the entry and event checks (:mod:`.ranking`) -
works on these drafts.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from tournaments.issues import Location

from .model import EncodingDecision, Match, Participant, SuppliedAward


@dataclass
class DraftEntry:
    """An entry as read, before the group decision and the ranking."""

    number: str | None
    where: Location
    session: str | None = None
    section: str | None = None
    direction: str | None = None
    place_text: str | None = None
    place: int | None = None
    tie_mark: bool = False
    place_bad: bool = False  # unparseable; already reported
    score: Decimal | None = None
    percentage: Decimal | None = None
    boards_played: int | None = None
    players: list[Participant] = field(default_factory=list)
    awards: list[SuppliedAward] = field(default_factory=list)
    name: str | None = None
    handicap: Decimal | None = None
    adjustment: Decimal | None = None
    phantom_reason: str | None = None
    #: the file says the entry is not ranked (PBN rank ``-``): left out of the field, with a warning
    unranked: bool = False
    centre: str | None = None

    @property
    def key(self) -> str:
        return "/".join(part or "-" for part in (self.session, self.section, self.direction, self.number))

    @property
    def label(self) -> str:
        """How messages name the entry: ``7 NS``, ``A 3``, ``4 (Team Smith)``."""
        text = " ".join(part for part in (self.section, self.number, self.direction) if part)
        return f"{text} ({self.name})" if self.name else text


@dataclass
class DraftEvent:
    """Everything a format reader found; :func:`finalise` checks it and freezes it."""

    format: str
    encoding: EncodingDecision
    form: str
    scoring: str
    version: str | None = None
    dialect: str = "generic"
    program: str | None = None
    event_id: str | None = None
    name: str | None = None
    date: datetime.date | None = None
    start_time: datetime.time | None = None
    club_number: str | None = None
    club_name: str | None = None
    event_type: str | None = None
    boards_played: int | None = None
    boards_declared: int | None = None
    #: what stated ``boards_declared``: ``""`` the event itself, ``nrboards`` the most boards any entry of a
    #: PBN ranking played (the variant of ``BOARDS_DECLARED_DIFFER``)
    boards_declared_from: str = ""
    awards_supplied: bool = False
    handicap: bool = False
    rating: str | None = None
    board_scoring: str | None = None
    match_scoring: str | None = None
    entries: list[DraftEntry] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    #: WINNER_TYPE hints: (session, section) -> 1 or 2; (session, None) and (None, None) are defaults.
    winner_types: dict[tuple[str | None, str | None], int] = field(default_factory=dict)
    merge_sections: bool = True
    check_ids: bool = True
    #: the reader moved the places below unranked entries up (the file counted them in its numbering)
    unranked_shifted: bool = False
    where: Location = field(default_factory=Location)

"""The USEBIO reader below the event: entries (formats.md § 1.2-1.3).

:class:`EntryReader` turns a ``PAIR``, ``TEAM`` or ``PLAYER`` element into a :class:`~.draft.DraftEntry`,
reporting unparseable places and numbers with the element's line and path; its number readers serve
:mod:`.usebio_boards` (travellers and matches) too. The event level (root, ``EVENT``, session and
section wrappers, event type) is read in :mod:`.usebio`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal
from xml.etree.ElementTree import Element

from tournaments.issues import IssueList, Location

from .draft import DraftEntry
from .model import Participant, SuppliedAward
from .text import (
    clean,
    normalise_direction,
    normalise_id,
    parse_decimal,
    parse_int,
    parse_place,
    split_entry_number,
)


def children(element: Element, path: str) -> Iterator[tuple[Element, str]]:
    """The child elements (no comments or processing instructions) with their paths: ``EVENT/PAIR[3]``
    when the tag repeats, ``EVENT/CLUB`` when it does not."""
    totals = Counter(child.tag for child in element)
    seen: Counter[str] = Counter()
    for child in element:
        if not isinstance(child.tag, str):
            continue  # comments / processing instructions
        seen[child.tag] += 1
        index = f"[{seen[child.tag]}]" if totals[child.tag] > 1 else ""
        yield child, f"{path}/{child.tag}{index}"


def child_text(element: Element, *tags: str) -> str | None:
    """The stripped text of the first of ``tags`` that is a child with text; ``None`` when none is."""
    for tag in tags:
        child = element.find(tag)
        if child is not None:
            value = clean(child.text)
            if value is not None:
                return value
    return None


class EntryReader:
    """Reads entries, boards and matches of one parsed USEBIO file, reporting into ``issues``.

    ``lines`` maps ``id(element)`` to the line of the element's start tag, for issue locations.
    """

    def __init__(self, lines: dict[int, int], issues: IssueList) -> None:
        self.lines = lines
        self.issues = issues

    def where(self, element: Element, path: str) -> Location:
        return Location(line=self.lines.get(id(element)), path=path)

    # --- numbers --------------------------------------------------------------------------------

    def decimal(self, element: Element, path: str, entry: str | None, *tags: str) -> Decimal | None:
        """The first of ``tags`` that has text, as a number (``SCORE_UNPARSEABLE`` if it is not one)."""
        for tag in tags:
            child = element.find(tag)
            if child is None or clean(child.text) is None:
                continue
            value, ok = parse_decimal(child.text)
            if not ok:
                self.unparseable(child, f"{path}/{tag}", tag, entry)
            return value
        return None

    def integer(self, element: Element, path: str, entry: str | None, tag: str) -> int | None:
        child = element.find(tag)
        if child is None:
            return None
        value, ok = parse_int(child.text)
        if not ok:
            self.unparseable(child, f"{path}/{tag}", tag, entry)
        return value

    def unparseable(self, element: Element, path: str, tag: str, entry: str | None) -> None:
        where, value = self.where(element, path), clean(element.text)
        if entry is None:
            self.issues.add("SCORE_UNPARSEABLE", where, variant="field", value=value, field=tag)
        else:
            self.issues.add("SCORE_UNPARSEABLE", where, value=value, field=tag, entry=entry)

    # --- entries --------------------------------------------------------------------------------

    def place(self, element: Element, path: str, draft: DraftEntry) -> None:
        child = element.find("PLACE")
        draft.place_text = clean(child.text) if child is not None else None
        place, tie_mark, ok = parse_place(draft.place_text)
        if not ok:
            draft.place_bad = True
            self.issues.add(
                "PLACE_UNPARSEABLE", self.where(child, f"{path}/PLACE"), value=draft.place_text, entry=draft.label
            )
        draft.place, draft.tie_mark = place, tie_mark

    def results(self, element: Element, path: str, draft: DraftEntry, default_award_kind: str | None) -> None:
        self.place(element, path, draft)
        label = draft.label
        draft.score = self.decimal(element, path, label, "TOTAL_SCORE")
        draft.percentage = self.decimal(element, path, label, "PERCENTAGE")
        draft.boards_played = self.integer(element, path, label, "BOARDS_PLAYED")
        draft.handicap = self.decimal(element, path, label, "HANDICAP")
        draft.adjustment = self.decimal(element, path, label, "ADJUSTMENT")
        draft.awards = self.awards(element, path, label, default_award_kind)
        if draft.score is not None and draft.score <= -9999:
            draft.phantom_reason = str(draft.score)

    def awards(self, element: Element, path: str, label: str, default_kind: str | None) -> list[SuppliedAward]:
        found: list[SuppliedAward] = []
        amount = self.decimal(element, path, label, "MASTER_POINTS_AWARDED")
        if amount is not None:
            found.append(SuppliedAward(amount, child_text(element, "MASTER_POINT_TYPE") or default_kind))
        for block, block_path in children(element, path):
            if block.tag != "MASTER_POINTS":
                continue
            amount = self.decimal(block, block_path, label, "MASTER_POINTS_AWARDED")
            if amount is not None:
                found.append(SuppliedAward(amount, child_text(block, "MASTER_POINT_TYPE") or default_kind))
        return found

    def player(self, element: Element, path: str, label: str) -> Participant:
        return Participant(
            name=child_text(element, "PLAYER_NAME", "NAME") or "",
            national_id=normalise_id(child_text(element, "NATIONAL_ID_NUMBER")),
            home_club=child_text(element, "CLUB_ID_NUMBER", "CLUB_NAME"),
            boards_played=self.integer(element, path, label, "BOARDS_PLAYED"),
            where=self.where(element, path),
        )

    def pair(
        self, element: Element, path: str, session: str | None, section: str | None, award_kind: str | None
    ) -> DraftEntry:
        """A ``PAIR``: number (direction and section may be part of it), results and ``PLAYER`` children."""
        number, number_direction, number_section = split_entry_number(child_text(element, "PAIR_NUMBER"))
        draft = DraftEntry(
            number=number,
            where=self.where(element, path),
            session=session,
            section=section or number_section,
            direction=normalise_direction(child_text(element, "DIRECTION")) or number_direction,
        )
        self.results(element, path, draft, award_kind)
        draft.players = [
            self.player(child, child_path, draft.label)
            for child, child_path in children(element, path)
            if child.tag == "PLAYER"
        ]
        return draft

    def team(
        self, element: Element, path: str, session: str | None, section: str | None, award_kind: str | None
    ) -> DraftEntry:
        """A ``TEAM``: ``@TEAM_ID``/``@TEAM_NAME`` or children, results (VPs when there is no total) and
        players directly or inside ``PAIR`` children."""
        number = clean(element.get("TEAM_ID")) or child_text(element, "TEAM_ID", "TEAM_NUMBER")
        number = split_entry_number(number)[0]
        draft = DraftEntry(
            number=number,
            where=self.where(element, path),
            session=session,
            section=section,
            name=clean(element.get("TEAM_NAME")) or child_text(element, "TEAM_NAME"),
        )
        self.results(element, path, draft, award_kind)
        if draft.score is None:
            draft.score = self.decimal(element, path, draft.label, "VICTORY_POINTS", "TOTAL_VPS")
        for child, child_path in children(element, path):
            if child.tag == "PLAYER":
                draft.players.append(self.player(child, child_path, draft.label))
            elif child.tag == "PAIR":
                draft.players.extend(self.team_pair(child, child_path, draft.label))
        return draft

    def team_pair(self, element: Element, path: str, label: str) -> list[Participant]:
        """The players of a team's ``PAIR``: each with the pair's number and, unless the player has a
        figure of their own, the pair's ``BOARDS_PLAYED`` (TeamsScorer writes it per pair only)."""
        number = child_text(element, "PAIR_NUMBER")
        boards = self.integer(element, path, label, "BOARDS_PLAYED")
        players = []
        for child, child_path in children(element, path):
            if child.tag == "PLAYER":
                player = self.player(child, child_path, label)
                own = player.boards_played
                players.append(replace(player, pair=number, boards_played=own if own is not None else boards))
        return players

    def individual(
        self, element: Element, path: str, session: str | None, section: str | None, award_kind: str | None
    ) -> DraftEntry:
        """A ``PLAYER`` of an individual event: one entry with that one player."""
        number = split_entry_number(child_text(element, "PLAYER_NUMBER", "NUMBER"))[0]
        draft = DraftEntry(number=number, where=self.where(element, path), session=session, section=section)
        self.results(element, path, draft, award_kind)
        player = self.player(element, path, draft.label)
        draft.players = [replace(player, boards_played=draft.boards_played)]  # the entry's BOARDS_PLAYED
        return draft

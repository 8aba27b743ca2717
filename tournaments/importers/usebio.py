"""USEBIO 1.0-1.3 reader (formats.md § 1), for every dialect we have seen.

Parsing is safe: ``defusedxml`` refuses entity declarations and external references (``XML_FORBIDDEN``)
but keeps DOCTYPEs, which real files carry (``forbid_dtd=False``); the DTD is never fetched. Text is
decoded by :func:`~.text.decode_text` (declaration, else UTF-8, else a reported guess) before expat sees
it, so cp1250 bytes without a declaration are read with a warning rather than failing.

What the reader understands:

* one ``EVENT`` (``EVENT_COUNT`` otherwise), type from ``EVENT@EVENT_TYPE``, ``PARTICIPANTS@EVENT_TYPE`` or
  an ``EVENT_TYPE`` child: ``MP_PAIRS``/``PAIRS``, ``BUTLER_PAIRS``, ``CROSS_IMP``, ``IMP_PAIRS``,
  ``SWISS_PAIRS``, ``TEAMS``, ``SWISS_TEAMS``, ``INDIVIDUAL``; anything else is ``EVENT_TYPE_UNSUPPORTED``;
* ``PARTICIPANTS`` directly in ``EVENT`` or inside ``SESSION``/``SECTION`` wrappers (``@SESSION_ID``,
  ``@SECTION_ID``); when an overall ranking sits in ``EVENT`` beside per-session ones, only it is used;
* ``PAIR`` (numbers ``1``, ``1NS``/``1EW``, ``(A) 1 NS``; ``DIRECTION`` NS/EW/empty), ``TEAM``
  (``@TEAM_ID``, ``@TEAM_NAME``, players directly or in ``PAIR``), ``PLAYER`` for individual events;
* ``PLACE`` as ``3`` or ``3=``; no places at all → computed from the scores (``PLACE_MISSING`` warning);
* ``WINNER_TYPE`` 1/2 on the event, a session or a section, checked against the places (ranking.py);
* ``TOTAL_SCORE`` (may be negative for IMPs), ``PERCENTAGE``, ``BOARDS_PLAYED``, ``HANDICAP`` (a
  non-zero handicap makes a handicap event, ranked on the scratch ``PERCENTAGE``/``TOTAL_SCORE``),
  ``ADJUSTMENT``; awards flat (``MASTER_POINTS_AWARDED`` + ``MASTER_POINT_TYPE``, Compscore) or nested
  (``MASTER_POINTS`` blocks, ScoreBridge/EBU), kept as supplied;
* boards: only ``BOARD`` elements with ``TRAVELLER_LINE`` count; ``HANDSET`` and ``BOARD`` with only
  ``HAND`` are hand records. An entry without ``BOARDS_PLAYED`` gets the number of traveller lines that
  name it;
* ``MATCH`` (``ROUND_NUMBER``, ``TEAM``/``OPPOSING_TEAM`` or ``NS_PAIR_NUMBER``/``EW_PAIR_NUMBER``, IMPs in
  ``TEAM_SCORE``/``OPPOSING_TEAM_SCORE``, VPs in ``TEAM_VICTORY_POINTS``/``OPPOSING_TEAM_VICTORY_POINTS``);
* phantoms (``TOTAL_SCORE`` -9999, or players named like "Phantom"/"Sit out" without ids) are left out.

Unknown elements are skipped and listed once (``ELEMENTS_IGNORED``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from decimal import Decimal
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from .issues import IssueList, Location
from .model import Match, ParsedEvent, Participant, SuppliedAward
from .ranking import DraftEntry, DraftEvent, finalise
from .text import (
    DEFAULT_FALLBACK_ENCODINGS,
    clean,
    decode_text,
    normalise_direction,
    normalise_id,
    parse_decimal,
    parse_int,
    parse_place,
    report_date,
    split_entry_number,
)

KNOWN_VERSIONS = ("1.0", "1.1", "1.2", "1.3")

#: EVENT_TYPE -> (form, scoring or None when SCORING_METHOD decides)
EVENT_TYPES: dict[str, tuple[str, str | None]] = {
    "MP_PAIRS": ("pairs", "MP"),
    "PAIRS": ("pairs", None),
    "BUTLER_PAIRS": ("pairs", "BUTLER"),
    "CROSS_IMP": ("pairs", "CROSS_IMP"),
    "CROSS_IMP_PAIRS": ("pairs", "CROSS_IMP"),
    "IMP_PAIRS": ("pairs", "IMP"),
    "SWISS_PAIRS": ("pairs", "VP"),
    "TEAMS": ("teams", None),
    "SWISS_TEAMS": ("teams", "VP"),
    "INDIVIDUAL": ("individual", None),
}
SCORING_METHODS = {
    "MATCH_POINTS": "MP",
    "MATCHPOINTS": "MP",
    "MP": "MP",
    "IMPS": "IMP",
    "IMP": "IMP",
    "BUTLER": "BUTLER",
    "CROSS_IMPS": "CROSS_IMP",
    "CROSS_IMP": "CROSS_IMP",
    "VPS": "VP",
    "VP": "VP",
}
_EVENT_HEADER = {
    "EVENT_IDENTIFIER", "EVENT_ID", "EVENT_DESCRIPTION", "TITLE", "EVENT_NAME", "PROGRAM_NAME", "PROGRAM_VERSION",
    "DATE", "VENUE", "WINNER_TYPE", "SESSION_COUNT", "SECTION_COUNT", "PAIRS", "EW_PAIRS", "TEAMS", "PLAYERS",
    "BOARDS_PLAYED", "BOARDS_PER_ROUND", "SCORING_METHOD", "BOARD_SCORING_METHOD", "MATCH_SCORING_METHOD",
    "MPS_AWARDED_FLAG", "MASTER_POINT_SCALE", "EVENT_RATING", "MASTER_POINT_TYPE", "P2P_CHARGE_RATE",
    "EBU_CHARGE_CODE", "CONTACT", "STRATIFICATION", "EVENT_TYPE", "CLUB", "SESSION_ID", "SESSION_NUMBER",
    "SECTION_ID", "SECTION_LETTER", "SECTION_NAME", "ROUNDS", "HANDSET",
}  # fmt: skip
_DECLARATION = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._:-]+)[\"']")
_MAX_DEPTH = 4


class _LineTreeBuilder(TreeBuilder):
    """Remembers the line of every start tag, for issue locations."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[int, int] = {}
        self.expat = None

    def start(self, tag, attrs):  # type: ignore[override]
        element = super().start(tag, attrs)
        if self.expat is not None:
            self.lines[id(element)] = self.expat.CurrentLineNumber
        return element


def parse_usebio(
    data: bytes, issues: IssueList, *, fallbacks: Sequence[str] = DEFAULT_FALLBACK_ENCODINGS
) -> ParsedEvent | None:
    """Read a USEBIO file. Returns ``None`` when nothing can be ranked (the reason is in ``issues``)."""
    declaration = _DECLARATION.match(data[:512])
    declared = declaration.group(1).decode("ascii") if declaration else None
    text, decision = decode_text(data, issues, declared=declared, xml=True, fallbacks=fallbacks)
    builder = _LineTreeBuilder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    builder.expat = parser.parser
    try:
        parser.feed(text)
        root = parser.close()
    except DefusedXmlException as exc:
        issues.add("XML_FORBIDDEN", Location(line=builder.expat.CurrentLineNumber), what=_forbidden(exc))
        return None
    except ParseError as exc:
        line, column = exc.position
        reason = str(exc).split(":", 1)[0]
        issues.add("XML_MALFORMED", Location(line=line), line=line, column=column + 1, reason=reason)
        return None
    reader = _Reader(root, builder.lines, issues)
    return reader.read(decision)


def _forbidden(exc: DefusedXmlException) -> str:
    name = getattr(exc, "name", None)
    if name:
        return f"<!ENTITY {name}>"
    system_id = getattr(exc, "sysid", None) or getattr(exc, "system_id", None)
    return f"SYSTEM {system_id}" if system_id else type(exc).__name__


def _children(element: Element, path: str) -> Iterator[tuple[Element, str]]:
    totals = Counter(child.tag for child in element)
    seen: Counter[str] = Counter()
    for child in element:
        if not isinstance(child.tag, str):
            continue  # comments / processing instructions
        seen[child.tag] += 1
        index = f"[{seen[child.tag]}]" if totals[child.tag] > 1 else ""
        yield child, f"{path}/{child.tag}{index}"


def _text(element: Element, *tags: str) -> str | None:
    for tag in tags:
        child = element.find(tag)
        if child is not None:
            value = clean(child.text)
            if value is not None:
                return value
    return None


def _dialect(program: str | None) -> str:
    if not program:
        return "generic"
    slug = re.sub(r"[^a-z]+", "", program.lower())
    return slug or "generic"


class _Reader:
    def __init__(self, root: Element, lines: dict[int, int], issues: IssueList) -> None:
        self.root = root
        self.lines = lines
        self.issues = issues
        self.unknown: set[str] = set()
        self.participants: list[tuple[Element, str, str | None, str | None]] = []
        self.boards: list[tuple[Element, str, str | None, str | None]] = []
        self.matches: list[tuple[Element, str, str | None]] = []
        self.winner_types: dict[tuple[str | None, str | None], int] = {}

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

    # --- the event ------------------------------------------------------------------------------

    def read(self, decision) -> ParsedEvent | None:
        root, issues = self.root, self.issues
        root_where = self.where(root, "USEBIO")
        if root.tag != "USEBIO":
            issues.add("FORMAT_UNKNOWN", root_where, variant="xml", filename="", root=root.tag, supported="USEBIO")
            return None
        version = clean(root.get("Version") or root.get("VERSION") or root.get("version"))
        if version not in KNOWN_VERSIONS:
            issues.add("USEBIO_VERSION_UNKNOWN", root_where, version=version or "?")
        events = root.findall("EVENT")
        for child, _path in _children(root, "USEBIO"):
            if child.tag not in ("CLUB", "EVENT", "HANDSET"):
                self.unknown.add(child.tag)
        if len(events) != 1:
            issues.add("EVENT_COUNT", root_where, count=len(events))
            return None
        event = events[0]
        event_path = "USEBIO/EVENT"
        event_where = self.where(event, event_path)
        club = root.find("CLUB")
        if club is None:
            club = event.find("CLUB")
        program_name = _text(event, "PROGRAM_NAME")
        program = " ".join(p for p in (program_name, _text(event, "PROGRAM_VERSION")) if p) or None

        self.walk(event, event_path, None, None, 0)
        winner_type, _ok = parse_int(_text(event, "WINNER_TYPE"))
        if winner_type in (1, 2):
            self.winner_types[(None, None)] = winner_type

        participants = event.find("PARTICIPANTS")
        event_type = clean(event.get("EVENT_TYPE")) or _text(event, "EVENT_TYPE")
        if event_type is None and participants is not None:
            event_type = clean(participants.get("EVENT_TYPE"))
        form, scoring = self.kind(event, event_type, event_where)
        if form is None:
            return None

        draft = DraftEvent(
            format="usebio",
            encoding=decision,
            form=form,
            scoring=scoring,
            version=version,
            dialect=_dialect(program_name),
            program=program,
            event_id=_text(event, "EVENT_ID", "EVENT_IDENTIFIER"),
            name=_text(event, "EVENT_DESCRIPTION", "TITLE", "EVENT_NAME"),
            club_number=_text(club, "CLUB_ID_NUMBER") if club is not None else None,
            club_name=_text(club, "CLUB_NAME") if club is not None else None,
            event_type=event_type,
            rating=_text(event, "EVENT_RATING", "MASTER_POINT_SCALE"),
            winner_types=self.winner_types,
            where=event_where,
        )
        date_element = event.find("DATE")
        date_where = self.where(date_element, f"{event_path}/DATE") if date_element is not None else event_where
        draft.date = report_date(_text(event, "DATE"), date_where, issues)
        draft.boards_declared = self.integer(event, event_path, None, "BOARDS_PLAYED")
        default_award_kind = _text(event, "MASTER_POINT_TYPE")

        blocks = self.participants
        if any(s is None for _e, _p, s, _c in blocks) and any(s is not None for _e, _p, s, _c in blocks):
            issues.add("SESSION_RESULTS_IGNORED", event_where)
            blocks = [block for block in blocks if block[2] is None]
        for element, path, session, section in blocks:
            for child, child_path in _children(element, path):
                if child.tag == "PAIR":
                    draft.entries.append(self.pair(child, child_path, session, section, default_award_kind))
                elif child.tag == "TEAM":
                    draft.entries.append(self.team(child, child_path, session, section, default_award_kind))
                elif child.tag == "PLAYER":
                    draft.entries.append(self.individual(child, child_path, session, section, default_award_kind))
                else:
                    self.unknown.add(child.tag)

        self.count_boards(draft)
        for element, path, session in self.matches:
            draft.matches.append(self.match(element, path, session))
        draft.handicap = any(e.handicap for e in draft.entries)
        flag = (_text(event, "MPS_AWARDED_FLAG") or "").upper()
        draft.awards_supplied = flag == "Y" or any(e.awards for e in draft.entries)
        if self.unknown:
            issues.add("ELEMENTS_IGNORED", event_where, names=", ".join(sorted(self.unknown)[:20]))
        return finalise(draft, issues)

    def kind(self, event: Element, event_type: str | None, where: Location) -> tuple[str | None, str]:
        """(form, scoring) for the event; ``(None, "")`` after ``EVENT_TYPE_UNSUPPORTED``."""
        if event_type is None:
            tags = {child.tag for block, _p, _s, _c in self.participants for child in block}
            form = "teams" if "TEAM" in tags else "individual" if "PLAYER" in tags and "PAIR" not in tags else "pairs"
            self.issues.add("EVENT_TYPE_MISSING", where, form=form)
            scoring = None
        elif event_type.upper() in EVENT_TYPES:
            form, scoring = EVENT_TYPES[event_type.upper()]
        else:
            self.issues.add(
                "EVENT_TYPE_UNSUPPORTED", where, event_type=event_type, supported=", ".join(sorted(EVENT_TYPES))
            )
            return None, ""
        if scoring is None:
            if form == "teams":
                method = (_text(event, "MATCH_SCORING_METHOD") or "").upper()
                scoring = "VP" if SCORING_METHODS.get(method) == "VP" else "IMP"
            else:
                method = (_text(event, "BOARD_SCORING_METHOD", "SCORING_METHOD") or "").upper()
                scoring = SCORING_METHODS.get(method, "MP")
        return form, scoring

    def walk(self, element: Element, path: str, session: str | None, section: str | None, depth: int) -> None:
        sessions = sections = 0
        for child, child_path in _children(element, path):
            tag = child.tag
            if tag == "SESSION" and depth < _MAX_DEPTH:
                sessions += 1
                session_id = clean(child.get("SESSION_ID")) or _text(child, "SESSION_ID", "SESSION_NUMBER")
                session_id = session_id or str(sessions)
                self.hint(child, session_id, None)
                self.walk(child, child_path, session_id, section, depth + 1)
            elif tag == "SECTION" and depth < _MAX_DEPTH:
                sections += 1
                section_id = clean(child.get("SECTION_ID")) or _text(
                    child, "SECTION_ID", "SECTION_LETTER", "SECTION_NAME"
                )
                section_id = section_id or str(sections)
                self.hint(child, session, section_id)
                self.walk(child, child_path, session, section_id, depth + 1)
            elif tag == "PARTICIPANTS":
                self.participants.append((child, child_path, session, section))
            elif tag == "BOARD":
                self.boards.append((child, child_path, session, section))
            elif tag == "MATCH":
                self.matches.append((child, child_path, session))
            elif tag not in _EVENT_HEADER:
                self.unknown.add(tag)

    def hint(self, element: Element, session: str | None, section: str | None) -> None:
        value, _ok = parse_int(_text(element, "WINNER_TYPE"))
        if value in (1, 2):
            self.winner_types[(session, section)] = value

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
            found.append(SuppliedAward(amount, _text(element, "MASTER_POINT_TYPE") or default_kind))
        for block, block_path in _children(element, path):
            if block.tag != "MASTER_POINTS":
                continue
            amount = self.decimal(block, block_path, label, "MASTER_POINTS_AWARDED")
            if amount is not None:
                found.append(SuppliedAward(amount, _text(block, "MASTER_POINT_TYPE") or default_kind))
        return found

    def player(self, element: Element, path: str, label: str) -> Participant:
        return Participant(
            name=_text(element, "PLAYER_NAME", "NAME") or "",
            national_id=normalise_id(_text(element, "NATIONAL_ID_NUMBER")),
            home_club=_text(element, "CLUB_ID_NUMBER", "CLUB_NAME"),
            boards_played=self.integer(element, path, label, "BOARDS_PLAYED"),
            where=self.where(element, path),
        )

    def pair(
        self, element: Element, path: str, session: str | None, section: str | None, award_kind: str | None
    ) -> DraftEntry:
        number, number_direction, number_section = split_entry_number(_text(element, "PAIR_NUMBER"))
        draft = DraftEntry(
            number=number,
            where=self.where(element, path),
            session=session,
            section=section or number_section,
            direction=normalise_direction(_text(element, "DIRECTION")) or number_direction,
        )
        self.results(element, path, draft, award_kind)
        draft.players = [
            self.player(child, child_path, draft.label)
            for child, child_path in _children(element, path)
            if child.tag == "PLAYER"
        ]
        return draft

    def team(
        self, element: Element, path: str, session: str | None, section: str | None, award_kind: str | None
    ) -> DraftEntry:
        number = clean(element.get("TEAM_ID")) or _text(element, "TEAM_ID", "TEAM_NUMBER")
        number = split_entry_number(number)[0]
        draft = DraftEntry(
            number=number,
            where=self.where(element, path),
            session=session,
            section=section,
            name=clean(element.get("TEAM_NAME")) or _text(element, "TEAM_NAME"),
        )
        self.results(element, path, draft, award_kind)
        if draft.score is None:
            draft.score = self.decimal(element, path, draft.label, "VICTORY_POINTS", "TOTAL_VPS")
        for child, child_path in _children(element, path):
            if child.tag == "PLAYER":
                draft.players.append(self.player(child, child_path, draft.label))
            elif child.tag == "PAIR":
                draft.players.extend(
                    self.player(grandchild, grand_path, draft.label)
                    for grandchild, grand_path in _children(child, child_path)
                    if grandchild.tag == "PLAYER"
                )
        return draft

    def individual(
        self, element: Element, path: str, session: str | None, section: str | None, award_kind: str | None
    ) -> DraftEntry:
        number = split_entry_number(_text(element, "PLAYER_NUMBER", "NUMBER"))[0]
        draft = DraftEntry(number=number, where=self.where(element, path), session=session, section=section)
        self.results(element, path, draft, award_kind)
        player = self.player(element, path, draft.label)
        draft.players = [Participant(player.name, player.national_id, player.home_club, None, player.where)]
        return draft

    # --- boards and matches ---------------------------------------------------------------------

    def count_boards(self, draft: DraftEvent) -> None:
        """Count result boards (not hand records) and the traveller lines of every entry."""
        index: dict[tuple, list[DraftEntry]] = {}
        for entry in draft.entries:
            for key in (
                (entry.session, entry.section, entry.direction, entry.number),
                (entry.session, "*", entry.direction, entry.number),
            ):
                index.setdefault(key, []).append(entry)
        counted: Counter[int] = Counter()
        boards: set[tuple[str | None, str]] = set()
        for element, path, session, section in self.boards:
            lines = element.findall("TRAVELLER_LINE")
            if not lines:
                continue  # a hand record, not a traveller
            boards.add((session, _text(element, "BOARD_NUMBER") or path))
            for line in lines:
                for tag, default_direction in (("NS_PAIR_NUMBER", "NS"), ("EW_PAIR_NUMBER", "EW")):
                    number, direction, number_section = split_entry_number(_text(line, tag))
                    if number is None:
                        continue
                    scope = number_section or section or "*"
                    for candidate_direction in (direction or default_direction, None):
                        found = index.get((session, scope, candidate_direction, number), [])
                        if len(found) == 1:
                            counted[id(found[0])] += 1
                            break
        draft.boards_played = len(boards) or None
        for entry in draft.entries:
            if entry.boards_played is None and counted[id(entry)]:
                entry.boards_played = counted[id(entry)]

    def match(self, element: Element, path: str, session: str | None) -> Match:
        label = None  # matches are not entries: issues name the field only
        boards = self.integer(element, path, label, "BOARDS_PLAYED")
        if boards is None:
            board_elements = element.findall("BOARD")
            boards = len(board_elements) or None
        team = split_entry_number(_text(element, "TEAM", "TEAM_NUMBER", "TEAM_ID", "NS_PAIR_NUMBER", "HOME_TEAM"))[0]
        opponent = split_entry_number(
            _text(element, "OPPOSING_TEAM", "OPPOSING_TEAM_NUMBER", "OPPONENT", "EW_PAIR_NUMBER", "AWAY_TEAM")
        )[0]
        return Match(
            round=_text(element, "ROUND_NUMBER", "ROUND") or "?",
            team=team or "?",
            opponent=opponent,
            imps=self.decimal(element, path, label, "TEAM_SCORE", "TEAM_IMPS"),
            opponent_imps=self.decimal(element, path, label, "OPPOSING_TEAM_SCORE", "OPPOSING_TEAM_IMPS"),
            vp=self.decimal(element, path, label, "TEAM_VICTORY_POINTS", "TEAM_VPS"),
            opponent_vp=self.decimal(element, path, label, "OPPOSING_TEAM_VICTORY_POINTS", "OPPOSING_TEAM_VPS"),
            boards=boards,
            session=session,
            where=self.where(element, path),
        )

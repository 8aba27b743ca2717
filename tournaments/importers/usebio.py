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
* ``WINNER_TYPE`` 1/2 on the event, a session or a section, checked against the places (grouping.py,
  formats.md § 1.5.2);
* ``TOTAL_SCORE`` (may be negative for IMPs), ``PERCENTAGE``, ``BOARDS_PLAYED``, ``HANDICAP`` (a
  non-zero handicap makes a handicap event, ranked on the scratch ``PERCENTAGE``/``TOTAL_SCORE``, the file's
  places kept as ``Entry.handicap_first``/``handicap_last``),
  ``ADJUSTMENT``; awards flat (``MASTER_POINTS_AWARDED`` + ``MASTER_POINT_TYPE``, Compscore) or nested
  (``MASTER_POINTS`` blocks, ScoreBridge/EBU), kept as supplied;
* boards: only ``BOARD`` elements with ``TRAVELLER_LINE`` count; ``HANDSET`` and ``BOARD`` with only
  ``HAND`` are hand records. An entry without ``BOARDS_PLAYED`` gets the number of traveller lines that
  name it; a player of an individual event the boards whose ``N_``/``E_``/``S_``/``W_PLAYER_NUMBER``
  name them (numbers that are no player are reported, ``TRAVELLER_NUMBERS_UNKNOWN``); a team player in
  a ``PAIR`` the pair's ``BOARDS_PLAYED`` and its ``PAIR_NUMBER`` (TeamsScorer);
* ``MATCH`` (``ROUND_NUMBER``, ``TEAM``/``OPPOSING_TEAM`` or ``NS_PAIR_NUMBER``/``EW_PAIR_NUMBER``, the
  board range ``START_BOARD_NUMBER``/``END_BOARD_NUMBER``; ``TEAM_SCORE``/``OPPOSING_TEAM_SCORE`` in IMPs
  beside ``TEAM_VICTORY_POINTS``, or alone in the match-scoring unit: VPs for TeamsScorer, board points
  for point-a-board ``PAB``); the match's travellers give its lineup (:mod:`.usebio_boards`);
* scoring: ``BOARD_SCORING_METHOD`` / ``MATCH_SCORING_METHOD`` (``SCORING_METHOD`` as a fallback),
  including ``PAB`` (point-a-board) and ``BAM``, read as ``BAM`` board points;
* USEBIO 1.0 and 1.1: read like 1.2; what such a file does not carry is named (``USEBIO_CONTENT_MISSING``),
  and a file with no result at all (1.0 pay-to-play returns) is ranked on its travellers' match points;
* phantoms (``TOTAL_SCORE`` -9999, or players named like "Phantom"/"Sit out" without ids) are left out.

Unknown elements are skipped and listed once (``ELEMENTS_IGNORED``). This module reads the root, the
event and its wrappers; entries are read by :mod:`.usebio_entries`, travellers and matches by
:mod:`.usebio_boards`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from tournaments.issues import IssueList, Location

from .draft import DraftEvent
from .model import EncodingDecision, ParsedEvent
from .ranking import finalise
from .text import DEFAULT_FALLBACK_ENCODINGS, clean, decode_text, parse_int, report_date
from .usebio_boards import MatchMethods, count_boards, read_match, report_missing, scores_from_travellers
from .usebio_entries import EntryReader, child_text, children

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
    "PAB": "BAM",
    "POINT_A_BOARD": "BAM",
    "BAM": "BAM",
    "BOARD_A_MATCH": "BAM",
}
#: Board points for a won board: point-a-board scores 2 (1 for a tie), board-a-match 1 (½).
POINTS_PER_BOARD = {"PAB": Decimal(2), "POINT_A_BOARD": Decimal(2), "BAM": Decimal(1), "BOARD_A_MATCH": Decimal(1)}
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
_EVENT_PATH = "USEBIO/EVENT"


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
    data: bytes,
    issues: IssueList,
    *,
    fallbacks: Sequence[str] = DEFAULT_FALLBACK_ENCODINGS,
    chosen: str | None = None,
) -> ParsedEvent | None:
    """Read a USEBIO file. Returns ``None`` when nothing can be ranked (the reason is in ``issues``).
    ``chosen`` is the encoding the director chose (it overrides the declaration)."""
    declaration = _DECLARATION.match(data[:512])
    declared = declaration.group(1).decode("ascii") if declaration else None
    text, decision = decode_text(data, issues, declared=declared, xml=True, fallbacks=fallbacks, chosen=chosen)
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
    reader = _EventReader(root, builder.lines, issues)
    return reader.read(decision)


def _forbidden(exc: DefusedXmlException) -> str:
    name = getattr(exc, "name", None)
    if name:
        return f"<!ENTITY {name}>"
    system_id = getattr(exc, "sysid", None) or getattr(exc, "system_id", None)
    return f"SYSTEM {system_id}" if system_id else type(exc).__name__


def _dialect(program: str | None) -> str:
    if not program:
        return "generic"
    slug = re.sub(r"[^a-z]+", "", program.lower())
    return slug or "generic"


class _EventReader:
    """Reads the ``USEBIO`` root and its one ``EVENT``; entries, boards and matches go to an
    :class:`~.usebio_entries.EntryReader`."""

    def __init__(self, root: Element, lines: dict[int, int], issues: IssueList) -> None:
        self.root = root
        self.issues = issues
        self.elements = EntryReader(lines, issues)
        self.version: str | None = None
        self.unknown: set[str] = set()
        self.participants: list[tuple[Element, str, str | None, str | None]] = []
        self.boards: list[tuple[Element, str, str | None, str | None]] = []
        self.matches: list[tuple[Element, str, str | None]] = []
        self.winner_types: dict[tuple[str | None, str | None], int] = {}
        self.methods = MatchMethods(None, None)

    def read(self, decision: EncodingDecision) -> ParsedEvent | None:
        """The file's one event, checked and frozen by :func:`~.ranking.finalise`.

        Returns ``None`` when nothing can be ranked, with the reason in ``issues``: the root is not
        ``USEBIO``, the file does not hold exactly one ``EVENT``, or the event type is unsupported.
        Unknown elements anywhere in the file are listed once (``ELEMENTS_IGNORED``).
        """
        event = self.the_event()
        if event is None:
            return None
        self.walk(event, _EVENT_PATH, None, None, 0)
        draft = self.draft(event, decision)
        if draft is None:
            return None
        self.read_entries(draft, child_text(event, "MASTER_POINT_TYPE"))
        self.read_boards(draft, child_text(event, "PROGRAM_NAME") is not None)
        draft.handicap = any(e.handicap for e in draft.entries)
        flag = (child_text(event, "MPS_AWARDED_FLAG") or "").upper()
        draft.awards_supplied = flag == "Y" or any(e.awards for e in draft.entries)
        if self.unknown:
            self.issues.add("ELEMENTS_IGNORED", draft.where, names=", ".join(sorted(self.unknown)[:20]))
        return finalise(draft, self.issues)

    def read_boards(self, draft: DraftEvent, has_program: bool) -> None:
        """Travellers (boards played; scores when the file has no results) and matches; for USEBIO 1.0 and
        1.1 what the file lacks (``USEBIO_CONTENT_MISSING``)."""
        had_boards = any(
            e.boards_played is not None or any(p.boards_played is not None for p in e.players) for e in draft.entries
        )
        count_boards(draft, self.boards, self.issues)
        computed = scores_from_travellers(draft, self.boards)
        pairs = {p.pair: e.number for e in draft.entries if e.number for p in e.players if p.pair}
        draft.matches.extend(
            read_match(self.elements, element, path, session, self.methods, pairs)
            for element, path, session in self.matches
        )
        if self.version in ("1.0", "1.1"):
            report_missing(
                draft, self.version, self.issues, had_boards=had_boards, computed=computed, program=has_program
            )

    def the_event(self) -> Element | None:
        """The root's one ``EVENT``, or ``None`` after ``FORMAT_UNKNOWN`` (the root is not ``USEBIO``) or
        ``EVENT_COUNT``. Records the version (``USEBIO_VERSION_UNKNOWN`` unless 1.0-1.3) and notes the
        root's unknown children."""
        root, issues = self.root, self.issues
        root_where = self.elements.where(root, "USEBIO")
        if root.tag != "USEBIO":
            issues.add("FORMAT_UNKNOWN", root_where, variant="xml", filename="", root=root.tag, supported="USEBIO")
            return None
        self.version = clean(root.get("Version") or root.get("VERSION") or root.get("version"))
        if self.version not in KNOWN_VERSIONS:
            issues.add("USEBIO_VERSION_UNKNOWN", root_where, version=self.version or "?")
        events = root.findall("EVENT")
        for child, _path in children(root, "USEBIO"):
            if child.tag not in ("CLUB", "EVENT", "HANDSET"):
                self.unknown.add(child.tag)
        if len(events) != 1:
            issues.add("EVENT_COUNT", root_where, count=len(events))
            return None
        return events[0]

    def draft(self, event: Element, decision: EncodingDecision) -> DraftEvent | None:
        """The event's facts as a draft without entries, or ``None`` after ``EVENT_TYPE_UNSUPPORTED``.

        Call after :meth:`walk` (the form may be inferred from the entries found). Guarantees: form and
        scoring are decided (``EVENT_TYPE_MISSING`` when inferred); the event's ``WINNER_TYPE`` is the
        default of the group decision; the date (``DATE_MISSING``, ``DATE_UNPARSEABLE``) and the declared
        boards (``SCORE_UNPARSEABLE``) are read.
        """
        winner_type, _ok = parse_int(child_text(event, "WINNER_TYPE"))
        if winner_type in (1, 2):
            self.winner_types[(None, None)] = winner_type
        event_where = self.elements.where(event, _EVENT_PATH)
        participants = event.find("PARTICIPANTS")
        event_type = clean(event.get("EVENT_TYPE")) or child_text(event, "EVENT_TYPE")
        if event_type is None and participants is not None:
            event_type = clean(participants.get("EVENT_TYPE"))
        form, scoring = self.kind(event, event_type, event_where)
        if form is None:
            return None
        methods = self.methods
        club = self.root.find("CLUB")
        if club is None:
            club = event.find("CLUB")
        program_name = child_text(event, "PROGRAM_NAME")
        program = " ".join(p for p in (program_name, child_text(event, "PROGRAM_VERSION")) if p) or None
        draft = DraftEvent(
            format="usebio",
            encoding=decision,
            form=form,
            scoring=scoring,
            version=self.version,
            dialect=_dialect(program_name),
            program=program,
            event_id=child_text(event, "EVENT_ID", "EVENT_IDENTIFIER"),
            name=child_text(event, "EVENT_DESCRIPTION", "TITLE", "EVENT_NAME"),
            club_number=child_text(club, "CLUB_ID_NUMBER") if club is not None else None,
            club_name=child_text(club, "CLUB_NAME") if club is not None else None,
            event_type=event_type,
            rating=child_text(event, "EVENT_RATING", "MASTER_POINT_SCALE"),
            board_scoring=methods.board,
            match_scoring=methods.match,
            winner_types=self.winner_types,
            where=event_where,
        )
        date_element = event.find("DATE")
        date_where = (
            self.elements.where(date_element, f"{_EVENT_PATH}/DATE") if date_element is not None else event_where
        )
        draft.date = report_date(child_text(event, "DATE"), date_where, self.issues)
        draft.boards_declared = self.elements.integer(event, _EVENT_PATH, None, "BOARDS_PLAYED")
        return draft

    def read_entries(self, draft: DraftEvent, award_kind: str | None) -> None:
        """Add to ``draft`` an entry for every ``PAIR``, ``TEAM`` or ``PLAYER`` of the ``PARTICIPANTS``
        blocks, in file order; other children are noted as unknown. When an overall ranking sits in
        ``EVENT`` beside per-session ones, only the overall one is read (``SESSION_RESULTS_IGNORED``)."""
        blocks = self.participants
        if any(s is None for _e, _p, s, _c in blocks) and any(s is not None for _e, _p, s, _c in blocks):
            self.issues.add("SESSION_RESULTS_IGNORED", draft.where)
            blocks = [block for block in blocks if block[2] is None]
        readers = {"PAIR": self.elements.pair, "TEAM": self.elements.team, "PLAYER": self.elements.individual}
        for element, path, session, section in blocks:
            for child, child_path in children(element, path):
                read = readers.get(child.tag)
                if read is None:
                    self.unknown.add(child.tag)
                else:
                    draft.entries.append(read(child, child_path, session, section, award_kind))

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
        board_word = (child_text(event, "BOARD_SCORING_METHOD") or "").upper()
        match_word = (child_text(event, "MATCH_SCORING_METHOD") or "").upper()
        general = SCORING_METHODS.get((child_text(event, "SCORING_METHOD") or "").upper())
        board = SCORING_METHODS.get(board_word) or (general if general not in (None, "VP") else None)
        match = SCORING_METHODS.get(match_word) or (general if form == "teams" and general in ("VP", "BAM") else None)
        self.methods = MatchMethods(board, match, POINTS_PER_BOARD.get(match_word) or POINTS_PER_BOARD.get(board_word))
        if scoring is None:
            if form == "teams":
                scoring = match if match in ("VP", "BAM", "IMP") else "BAM" if board == "BAM" else "IMP"
            else:
                scoring = board or general or "MP"
        return form, scoring

    def walk(self, element: Element, path: str, session: str | None, section: str | None, depth: int) -> None:
        """Collect the ``PARTICIPANTS``, ``BOARD`` and ``MATCH`` elements under ``element`` with their
        session and section, descending into ``SESSION``/``SECTION`` wrappers (at most ``_MAX_DEPTH``
        deep; a wrapper without id is numbered by position), their ``WINNER_TYPE`` hints and unknown tags."""
        sessions = sections = 0
        for child, child_path in children(element, path):
            tag = child.tag
            if tag == "SESSION" and depth < _MAX_DEPTH:
                sessions += 1
                session_id = clean(child.get("SESSION_ID")) or child_text(child, "SESSION_ID", "SESSION_NUMBER")
                session_id = session_id or str(sessions)
                self.hint(child, session_id, None)
                self.walk(child, child_path, session_id, section, depth + 1)
            elif tag == "SECTION" and depth < _MAX_DEPTH:
                sections += 1
                section_id = clean(child.get("SECTION_ID")) or child_text(
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
        """Record the wrapper's ``WINNER_TYPE`` (1 or 2; anything else is ignored) for the group decision."""
        value, _ok = parse_int(child_text(element, "WINNER_TYPE"))
        if value in (1, 2):
            self.winner_types[(session, section)] = value

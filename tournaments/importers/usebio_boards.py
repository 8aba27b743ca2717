"""The USEBIO reader's boards: travellers of pairs and individual events, and team matches (formats.md § 1.2).

Travellers (``BOARD`` with ``TRAVELLER_LINE``; hand records never count, formats.md § 1.5.7) give the
boards each entry played - for pairs the lines naming it, for individual events the boards whose
``N_``/``E_``/``S_``/``W_PLAYER_NUMBER`` name the player - and, in early files without any result
(USEBIO 1.0), the scores: the match points the lines give each side.

Team matches (``MATCH``) are read in both dialects seen: ``TEAM_SCORE`` in IMPs beside
``TEAM_VICTORY_POINTS`` (Compscore style), or ``TEAM_SCORE`` alone in the event's match-scoring unit
(TeamsScorer: VPs; point-a-board files: board points) with the board range
(``START_BOARD_NUMBER``/``END_BOARD_NUMBER``), per-board ``IMPS`` or ``TEAM_POINTS``, and travellers that
name the team's pairs (``1-3-4``), which give the match's lineup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from xml.etree.ElementTree import Element

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from tournaments.issues import IssueList

from .draft import DraftEntry, DraftEvent
from .model import Match, MatchPair
from .text import clean, parse_decimal, split_entry_number
from .usebio_entries import EntryReader, child_text

#: A match has at most this many boards (a bound on START/END_BOARD_NUMBER: a range is never walked).
MAX_MATCH_BOARDS = 200
#: How many unknown traveller numbers a message lists.
_LISTED = 20
_SEATS = (("N_PLAYER_NUMBER", "NS"), ("S_PLAYER_NUMBER", "NS"), ("E_PLAYER_NUMBER", "EW"), ("W_PLAYER_NUMBER", "EW"))
_PAIRS = (("NS_PAIR_NUMBER", "NS"), ("EW_PAIR_NUMBER", "EW"))

Boards = list[tuple[Element, str, str | None, str | None]]


@dataclass(frozen=True)
class MatchMethods:
    """How the event says boards and matches are scored: the codes (``IMP``, ``BAM``, ``VP`` ...) and, for
    board points, the points a won board scores (2 for point-a-board ``PAB``, 1 for board-a-match)."""

    board: str | None
    match: str | None
    points_per_board: Decimal | None = None


def _natural(number: str) -> tuple[int, str]:
    return (int(number), "") if number.isdecimal() else (10**9, number)


class _Index:
    """Finds the entry a traveller's number names: by session, section and direction, falling back to
    any section and to no direction; ``None`` when no entry, or more than one, fits."""

    def __init__(self, entries: list[DraftEntry]) -> None:
        self.index: dict[tuple, list[DraftEntry]] = {}
        for entry in entries:
            for key in (
                (entry.session, entry.section, entry.direction, entry.number),
                (entry.session, "*", entry.direction, entry.number),
            ):
                self.index.setdefault(key, []).append(entry)

    def find(self, session: str | None, section: str | None, text: str | None, default: str) -> DraftEntry | None:
        number, direction, number_section = split_entry_number(text)
        if number is None:
            return None
        scope = number_section or section or "*"
        for candidate in (direction or default, None):
            found = self.index.get((session, scope, candidate, number), [])
            if len(found) == 1:
                return found[0]
        return None


def _seats(draft: DraftEvent) -> tuple[tuple[str, str], ...]:
    return _SEATS if draft.form == "individual" else _PAIRS


def count_boards(draft: DraftEvent, boards: Boards, issues: IssueList) -> None:
    """Count result boards (not hand records) and the boards every entry played.

    ``boards`` are the ``BOARD`` elements found, as (element, path, session, section). Guarantees:
    ``draft.boards_played`` is the number of distinct boards with traveller lines (``None`` without
    any); an entry without ``BOARDS_PLAYED`` gets the number of traveller lines that name it (pairs) or
    of distinct boards that name it in a seat (individual: also its player's boards); numbers the
    travellers name that are no entry of an individual event are reported (``TRAVELLER_NUMBERS_UNKNOWN``).
    """
    index = _Index(draft.entries)
    seats = _seats(draft)
    counted: Counter[int] = Counter()
    found_boards: set[tuple[str | None, str]] = set()
    unknown: set[str] = set()
    for element, path, session, section in boards:
        lines = element.findall("TRAVELLER_LINE")
        if not lines:
            continue  # a hand record, not a traveller
        found_boards.add((session, child_text(element, "BOARD_NUMBER") or path))
        on_board: set[int] = set()
        for line in lines:
            for tag, default in seats:
                text = child_text(line, tag)
                entry = index.find(session, section, text, default)
                if entry is None:
                    if text is not None and draft.form == "individual":
                        unknown.add(text)
                elif draft.form == "individual":
                    on_board.add(id(entry))
                else:
                    counted[id(entry)] += 1
        counted.update(on_board)
    draft.boards_played = len(found_boards) or None
    for entry in draft.entries:
        if entry.boards_played is None and counted[id(entry)]:
            entry.boards_played = counted[id(entry)]
            if draft.form == "individual" and len(entry.players) == 1 and entry.players[0].boards_played is None:
                entry.players[0] = replace(entry.players[0], boards_played=entry.boards_played)
    if unknown:
        listed = sorted(unknown, key=_natural)
        text = ", ".join(listed[:_LISTED]) + (", …" if len(listed) > _LISTED else "")
        issues.add("TRAVELLER_NUMBERS_UNKNOWN", draft.where, count=len(listed), numbers=text)


def scores_from_travellers(draft: DraftEvent, boards: Boards) -> bool:
    """Give every entry the match points the travellers credit it with, and its percentage of the tops
    of the boards it played, when the file carries no result at all (no place, score or percentage, as in
    USEBIO 1.0 files written for the EBU's pay-to-play scheme). Returns whether it did.

    Guarantees: nothing changes unless every entry lacks all three and some traveller line gives both
    ``NS_MATCH_POINTS`` and ``EW_MATCH_POINTS``; a line's top is their sum; percentages have 2 decimals.
    """
    if not draft.entries or any(
        e.place is not None or e.place_bad or e.score is not None or e.percentage is not None for e in draft.entries
    ):
        return False
    index = _Index(draft.entries)
    points: dict[int, Decimal] = {}
    tops: dict[int, Decimal] = {}
    for element, _path, session, section in boards:
        for line in element.findall("TRAVELLER_LINE"):
            ns, ns_ok = parse_decimal(child_text(line, "NS_MATCH_POINTS"))
            ew, ew_ok = parse_decimal(child_text(line, "EW_MATCH_POINTS"))
            if ns is None or ew is None or not (ns_ok and ew_ok) or ns < 0 or ew < 0:
                continue
            for tag, side in _seats(draft):
                entry = index.find(session, section, child_text(line, tag), side)
                if entry is not None:
                    points[id(entry)] = points.get(id(entry), Decimal(0)) + (ns if side == "NS" else ew)
                    tops[id(entry)] = tops.get(id(entry), Decimal(0)) + ns + ew
    if not points:
        return False
    for entry in draft.entries:
        if id(entry) in points:
            entry.score = points[id(entry)]
            if tops[id(entry)]:
                entry.percentage = (100 * entry.score / tops[id(entry)]).quantize(Decimal("0.01"))
    return True


# --- matches --------------------------------------------------------------------------------------------


def read_match(
    reader: EntryReader,
    element: Element,
    path: str,
    session: str | None,
    methods: MatchMethods,
    pairs: dict[str, str],
) -> Match:
    """A ``MATCH`` as written (checked later by :mod:`.matches`).

    ``pairs`` maps the teams' pair numbers to their team (for the lineup). Guarantees: the score is
    taken in the unit the dialect implies (see the module docstring) and repeated as ``imps`` or ``vp``
    when it is one; IMPs are otherwise summed from the boards' net ``IMPS`` (each side's gross IMPs);
    a board range is kept only when 1 ≤ start ≤ end < start + :data:`MAX_MATCH_BOARDS`
    (``SCORE_UNPARSEABLE`` otherwise); ``boards`` is ``BOARDS_PLAYED``, else the range's length, else
    the number of ``BOARD`` children.
    """
    start, end = _board_range(reader, element, path)
    boards = reader.integer(element, path, None, "BOARDS_PLAYED")
    if boards is None:
        boards = (end - start + 1) if start is not None and end is not None else len(element.findall("BOARD")) or None
    team = split_entry_number(child_text(element, "TEAM", "TEAM_NUMBER", "TEAM_ID", "NS_PAIR_NUMBER", "HOME_TEAM"))[0]
    opponent = split_entry_number(
        child_text(element, "OPPOSING_TEAM", "OPPOSING_TEAM_NUMBER", "OPPONENT", "EW_PAIR_NUMBER", "AWAY_TEAM")
    )[0]
    value = reader.decimal
    score = value(element, path, None, "TEAM_SCORE", "TEAM_IMPS", "TEAM_POINTS")
    other = value(element, path, None, "OPPOSING_TEAM_SCORE", "OPPOSING_TEAM_IMPS", "OPPOSING_TEAM_POINTS")
    vp = value(element, path, None, "TEAM_VICTORY_POINTS", "TEAM_VPS")
    other_vp = value(element, path, None, "OPPOSING_TEAM_VICTORY_POINTS", "OPPOSING_TEAM_VPS")
    board_unit = methods.board if methods.board in ("IMP", "BAM") else "IMP"
    unit = board_unit if vp is not None or other_vp is not None else (methods.match or board_unit)
    if score is None and other is None and unit == "BAM":
        score, other = _board_points(element)
    imps, other_imps = (
        (score, other) if unit == "IMP" else _board_imps(element) if board_unit == "IMP" else (None, None)
    )
    if unit == "VP" and vp is None and other_vp is None:
        vp, other_vp = score, other
    return Match(
        round=child_text(element, "ROUND_NUMBER", "ROUND") or "?",
        team=team or "?",
        opponent=opponent,
        imps=imps,
        opponent_imps=other_imps,
        vp=vp,
        opponent_vp=other_vp,
        boards=boards,
        session=session,
        where=reader.where(element, path),
        scoring=unit if score is not None or other is not None else None,
        score=score,
        opponent_score=other,
        points_per_board=methods.points_per_board if unit == "BAM" else None,
        start_board=start,
        end_board=end,
        lineup=_lineup(element, pairs),
    )


def _board_range(reader: EntryReader, element: Element, path: str) -> tuple[int | None, int | None]:
    start = reader.integer(element, path, None, "START_BOARD_NUMBER")
    end = reader.integer(element, path, None, "END_BOARD_NUMBER")
    if start is None or end is None:
        return None, None
    if not 1 <= start <= end < start + MAX_MATCH_BOARDS:
        child = element.find("END_BOARD_NUMBER")
        reader.unparseable(child, f"{path}/END_BOARD_NUMBER", f"START_BOARD_NUMBER {start} - END_BOARD_NUMBER", None)
        return None, None
    return start, end


def _sum_boards(element: Element, read: Callable[[Element], tuple[Decimal | None, Decimal | None]]):
    ours = theirs = None
    for board in element.findall("BOARD"):
        mine, other = read(board)
        if mine is None:
            continue
        ours = (ours or Decimal(0)) + mine
        theirs = (theirs or Decimal(0)) + (other or Decimal(0))
    return ours, theirs


def _board_imps(element: Element) -> tuple[Decimal | None, Decimal | None]:
    """Each side's IMPs from the boards' net ``IMPS`` (the listing team's view): the positive boards are
    the team's, the negative ones the opponent's."""

    def read(board: Element) -> tuple[Decimal | None, Decimal | None]:
        net, ok = parse_decimal(child_text(board, "IMPS"))
        if net is None or not ok:
            return None, None
        return max(net, Decimal(0)), max(-net, Decimal(0))

    return _sum_boards(element, read)


def _board_points(element: Element) -> tuple[Decimal | None, Decimal | None]:
    def read(board: Element) -> tuple[Decimal | None, Decimal | None]:
        mine, ok = parse_decimal(child_text(board, "TEAM_POINTS"))
        other, other_ok = parse_decimal(child_text(board, "OPPOSING_TEAM_POINTS"))
        return (mine, other) if ok and other_ok else (None, None)

    return _sum_boards(element, read)


def _lineup(element: Element, pairs: dict[str, str]) -> tuple[MatchPair, ...]:
    """The teams' pairs the match's travellers name, with the number of its boards each played."""
    played: dict[tuple[str, str], set[str]] = {}
    for position, board in enumerate(element.findall("BOARD")):
        number = child_text(board, "BOARD_NUMBER") or f"#{position}"
        for line in board.findall("TRAVELLER_LINE"):
            for tag, _side in _PAIRS:
                pair = clean(child_text(line, tag))
                if pair is not None and pair in pairs:
                    played.setdefault((pairs[pair], pair), set()).add(number)
    return tuple(
        MatchPair(team, pair, len(numbers))
        for (team, pair), numbers in sorted(played.items(), key=lambda item: (_natural(item[0][0]), item[0][1]))
    )


# --- what early files lack ------------------------------------------------------------------------------

_MISSING_LABELS = {
    "PLACE": _("places"),
    "TOTAL_SCORE/PERCENTAGE": _("scores or percentages"),
    "TOTAL_SCORE/PERCENTAGE computed": _("scores or percentages (computed from the travellers' match points)"),
    "PLAYER_NAME": _("player names"),
    "NATIONAL_ID_NUMBER": _("membership numbers"),
    "BOARDS_PLAYED": _("boards played"),
    "BOARDS_PLAYED counted": _("boards played (counted from the travellers)"),
    "TRAVELLER_LINE": _("board results (travellers)"),
    "PROGRAM_NAME": _("the scoring program's name"),
}


def _missing_text(keys: tuple[str, ...]) -> str:
    return ", ".join(str(_MISSING_LABELS[key]) for key in keys)


missing_label = lazy(_missing_text, str)


def report_missing(
    draft: DraftEvent, version: str, issues: IssueList, *, had_boards: bool, computed: bool, program: bool
) -> None:
    """``USEBIO_CONTENT_MISSING`` naming what a USEBIO 1.0/1.1 file does not carry at all, and what was done
    instead (boards counted, scores computed from the travellers); nothing when it lacks nothing.
    ``elements`` names the USEBIO elements, for the API and the tests."""
    entries = draft.entries
    players = [p for e in entries for p in e.players]
    keys: list[str] = []
    if entries and all(e.place is None and not e.place_bad for e in entries):
        keys.append("PLACE")
    if computed:
        keys.append("TOTAL_SCORE/PERCENTAGE computed")
    elif entries and all(e.score is None and e.percentage is None for e in entries):
        keys.append("TOTAL_SCORE/PERCENTAGE")
    if players and not any(p.name for p in players):
        keys.append("PLAYER_NAME")
    if players and not any(p.national_id for p in players):
        keys.append("NATIONAL_ID_NUMBER")
    if not had_boards:
        keys.append("BOARDS_PLAYED counted" if any(e.boards_played for e in entries) else "BOARDS_PLAYED")
    if draft.boards_played is None and not draft.matches:
        keys.append("TRAVELLER_LINE")
    if not program:
        keys.append("PROGRAM_NAME")
    if keys:
        elements = ", ".join(dict.fromkeys(key.split(" ")[0] for key in keys))
        issues.add(
            "USEBIO_CONTENT_MISSING",
            draft.where,
            version=version,
            missing=missing_label(tuple(keys)),
            elements=elements,
        )

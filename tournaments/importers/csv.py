"""Our own CSV templates (version 1): one for pairs and individual events, one for team events.

A club director fills them in a spreadsheet and saves as CSV; ``static/results-templates/README.md``
is the user documentation and ``pairs-example.csv`` / ``teams-example.csv`` are filled-in examples.
One file holds one event, in blocks read from top to bottom:

1. **Event fields**, one per row: the field name in the first cell, the value in the second.
   ``event_date`` (required: ``2025-03-14``, ``14.03.2025`` or ``14/03/2025``, day first),
   ``event_name`` (expected), ``event_type`` (``pairs``, ``individual`` or ``teams``), ``club_id``,
   ``club_name``, ``event_id``, ``scoring`` (``MP``, ``IMP``, ``BUTLER``, ``CROSS_IMP``, ``VP``, ``BAM``
   = board points of point-a-board teams, also written ``PAB``),
   ``boards_played``, ``winners`` (``1`` or ``2``: two winners = North-South and East-West ranked
   separately).
2. **Results table**: a header row, then one row per entry.
   Pairs/individual: ``entry_no``, ``place``, ``player_1_id``, ``player_1_name`` (required), and
   ``session``, ``section``, ``direction`` (NS/EW/empty), ``score``, ``percentage``, ``boards_played``,
   ``player_N_id``/``player_N_name``/``player_N_club``/``player_N_boards`` for N = 1, 2, ... (optional);
   ``handicap`` (optional): a non-zero handicap makes a handicap event, whose ``score``/``percentage`` are the
   nominal (scratch) result and whose places the handicap result, as in USEBIO.
   Teams: ``team_no``, ``place``, ``player_1_id``, ``player_1_name`` (required), ``team_name``,
   ``section``, ``session``, ``score``, ``boards_played`` and any number of ``player_N_*`` columns.
3. **Matches table** (teams, optional): a header row with ``round``, ``team_no``, ``opponent_no``
   (required; an empty opponent is a bye) and ``imps``, ``opponent_imps``, ``vp``, ``opponent_vp``,
   ``points``, ``opponent_points`` (board points: 2 a board won, 1 a board tied), ``boards``,
   ``session``; one row per match (listing it from both sides is fine).

Rules: ``,``, ``;`` or tab separators (the one that yields our header wins); UTF-8 with or without BOM
(other encodings are guessed and reported); decimal comma allowed (``62,5``); places are whole numbers,
ties repeated (``3``, ``3``, ``5``) or written ``3=``; an empty ``place`` column everywhere means "compute
from score"; rows whose first cell starts with ``#`` and empty rows are ignored; column names ignore
case, spaces and hyphens (``Player 1 ID`` = ``player_1_id``).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from tournaments.issues import IssueList, Location

from .draft import DraftEntry, DraftEvent
from .model import EncodingDecision, Match, ParsedEvent, Participant
from .ranking import finalise
from .text import (
    clean,
    normalise_direction,
    normalise_id,
    parse_decimal,
    parse_int,
    parse_place,
    report_date,
)

TEMPLATE_VERSION = "1"
EVENT_FIELDS = (
    "event_date",
    "event_name",
    "event_type",
    "club_id",
    "club_name",
    "event_id",
    "scoring",
    "boards_played",
    "winners",
)
REQUIRED = {
    "pairs": ("entry_no", "place", "player_1_id", "player_1_name"),
    "teams": ("team_no", "place", "player_1_id", "player_1_name"),
    "matches": ("round", "team_no", "opponent_no"),
}
COLUMNS = {
    "pairs": {
        "session",
        "section",
        "direction",
        "entry_no",
        "place",
        "score",
        "percentage",
        "boards_played",
        "handicap",
    },
    "teams": {"session", "section", "team_no", "team_name", "place", "score", "boards_played"},
    "matches": {
        "session",
        "round",
        "team_no",
        "opponent_no",
        "imps",
        "opponent_imps",
        "vp",
        "opponent_vp",
        "points",
        "opponent_points",
        "boards",
    },
}
TABLE_LABELS = {"pairs": _("results"), "teams": _("results"), "matches": _("matches")}
_PLAYER_COLUMN = re.compile(r"^player_?(\d+)_?(id|name|club|boards)$")
_EVENT_TYPES = {
    "pairs": "pairs",
    "pair": "pairs",
    "individual": "individual",
    "individuals": "individual",
    "teams": "teams",
    "team": "teams",
}
_SCORINGS = {
    "MP": "MP", "IMP": "IMP", "IMPS": "IMP", "BUTLER": "BUTLER", "CROSS_IMP": "CROSS_IMP", "VP": "VP", "BAM": "BAM",
    "PAB": "BAM",
}  # fmt: skip
_DELIMITERS = (";", ",", "\t")


def normalise_column(title: str) -> str:
    """``Player 1 ID`` → ``player_1_id``; ``\\ufeffEntry-No`` → ``entry_no``."""
    text = title.replace("\ufeff", "").strip().lower()
    text = re.sub(r"[\s\-]+", "_", text)
    text = re.sub(r"_+", "_", text).strip("_")
    match = _PLAYER_COLUMN.match(text)
    if match:
        return f"player_{int(match.group(1))}_{match.group(2)}"
    return text


def _table_kind(cells: list[str]) -> str | None:
    names = {normalise_column(c) for c in cells if c}
    if "opponent_no" in names and "round" in names:
        return "matches"
    if "entry_no" in names:
        return "pairs"
    if "team_no" in names:
        return "teams"
    return None


def _rows(text: str, delimiter: str) -> list[tuple[int, list[str]]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = []
    try:
        for row in reader:
            rows.append((reader.line_num, row))
    except csv.Error:
        pass  # a broken quote: keep the rows read so far; the missing ones surface as missing data
    return rows


def find_delimiter(text: str) -> str | None:
    """The separator under which the text has one of our table headers, or ``None`` (not our template)."""
    best, best_score = None, 0
    for delimiter in _DELIMITERS:
        if delimiter not in text:
            continue
        score = 0
        for _line, row in _rows(text[:200_000], delimiter):
            if _table_kind(row) in ("pairs", "teams"):
                known = {normalise_column(c) for c in row} & (COLUMNS["pairs"] | COLUMNS["teams"])
                score = max(score, len(known) + 1)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def looks_delimited(text: str) -> bool:
    """Whether text looks like some table (to say "not our template" rather than "unknown format")."""
    lines = [line for line in text.splitlines()[:50] if line.strip()][:10]
    tabular = [line for line in lines if line.count(";") >= 2 or line.count(",") >= 2 or line.count("\t") >= 2]
    return bool(lines) and len(tabular) * 2 >= len(lines)


@dataclass
class _Table:
    kind: str
    columns: list[str]
    line: int
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)


def parse_csv_text(text: str, decision: EncodingDecision, issues: IssueList) -> ParsedEvent | None:
    """Read decoded text in our CSV template.

    Returns ``None`` without adding an issue when no template header is found (the caller reports
    ``FORMAT_UNKNOWN``), and ``None`` after ``NO_ENTRIES`` when the template has no results.
    """
    delimiter = find_delimiter(text)
    if delimiter is None:
        return None
    fields: dict[str, tuple[str, Location]] = {}
    tables: list[_Table] = []
    table: _Table | None = None
    for line, row in _rows(text, delimiter):
        cells = [cell.strip() for cell in row]
        while cells and not cells[-1]:
            cells.pop()
        if not cells or cells[0].startswith("#"):
            continue
        kind = _table_kind(cells)
        first = normalise_column(cells[0])
        if kind is not None:
            table = _Table(kind, [normalise_column(c) for c in cells], line)
            tables.append(table)
            continue
        if first in EVENT_FIELDS and len(cells) <= 2:
            fields[first] = (cells[1] if len(cells) > 1 else "", Location(line=line, column=first))
            continue
        if table is None:
            issues.add("CSV_ROW_IGNORED", Location(line=line))
            continue
        values = {column: (cells[i] if i < len(cells) else "") for i, column in enumerate(table.columns)}
        table.rows.append((line, values))
    return _build(fields, tables, decision, issues)


def _field(fields: dict[str, tuple[str, Location]], name: str) -> str | None:
    return clean(fields[name][0]) if name in fields else None


def _build(
    fields: dict[str, tuple[str, Location]], tables: list[_Table], decision: EncodingDecision, issues: IssueList
) -> ParsedEvent | None:
    results = [t for t in tables if t.kind in ("pairs", "teams")]
    template = results[0].kind
    where = Location(line=1)
    event_type = _field(fields, "event_type")
    if event_type is None:
        form = "teams" if template == "teams" else "pairs"
        issues.add("EVENT_TYPE_MISSING", where, form=form)
    else:
        form = _EVENT_TYPES.get(event_type.lower(), "")
        allowed = ("teams",) if template == "teams" else ("pairs", "individual")
        if form not in allowed:
            issues.add(
                "CSV_VALUE_INVALID",
                fields["event_type"][1],
                value=event_type,
                column="event_type",
                expected=" / ".join(allowed),
            )
            form = allowed[0]
    scoring_text = _field(fields, "scoring")
    scoring = _SCORINGS.get((scoring_text or "").upper().replace("-", "_").replace(" ", "_"))
    if scoring_text and scoring is None:
        expected = ", ".join(_SCORINGS)
        issues.add("CSV_VALUE_INVALID", fields["scoring"][1], value=scoring_text, column="scoring", expected=expected)
    draft = DraftEvent(
        format="csv",
        encoding=decision,
        form=form,
        scoring=scoring or ("VP" if form == "teams" else "MP"),
        match_scoring=(scoring or "VP") if form == "teams" else None,
        version=TEMPLATE_VERSION,
        dialect="template",
        event_id=_field(fields, "event_id"),
        name=_field(fields, "event_name"),
        club_number=_field(fields, "club_id"),
        club_name=_field(fields, "club_name"),
        event_type=event_type,
        where=where,
    )
    draft.date = report_date(
        _field(fields, "event_date"), fields["event_date"][1] if "event_date" in fields else where, issues
    )
    for name, expected in (("boards_played", _("a whole number")), ("winners", "1 / 2")):
        value, ok = parse_int(_field(fields, name))
        if not ok or (name == "winners" and value not in (None, 1, 2)):
            issues.add("CSV_VALUE_INVALID", fields[name][1], value=_field(fields, name), column=name, expected=expected)
            value = None
        if name == "boards_played":
            draft.boards_declared = value
        elif value:
            draft.winner_types[(None, None)] = value

    for table in tables:
        missing = [c for c in REQUIRED[table.kind] if c not in table.columns]
        for column in missing:
            issues.add("CSV_COLUMN_MISSING", Location(line=table.line), table=TABLE_LABELS[table.kind], column=column)
        unknown = [c for c in table.columns if c and c not in COLUMNS[table.kind] and not _PLAYER_COLUMN.match(c)]
        if unknown:
            issues.add("CSV_COLUMN_UNKNOWN", Location(line=table.line), columns=", ".join(unknown))
        if [c for c in missing if not c.startswith("player_")]:
            continue  # without its key columns a table cannot be read; the missing columns are reported
        if table.kind == "matches":
            draft.matches.extend(_match(line, row, issues) for line, row in table.rows)
        else:
            draft.entries.extend(_entry(table.kind, line, row, issues) for line, row in table.rows)
    draft.handicap = any(e.handicap for e in draft.entries)
    return finalise(draft, issues)


class _Cells:
    """Typed access to one row's cells, reporting ``CSV_VALUE_INVALID`` with row and column."""

    def __init__(self, line: int, row: dict[str, str], issues: IssueList) -> None:
        self.line, self.row, self.issues = line, row, issues

    def where(self, column: str) -> Location:
        return Location(line=self.line, column=column)

    def text(self, column: str) -> str | None:
        return clean(self.row.get(column))

    def invalid(self, column: str, expected) -> None:
        self.issues.add(
            "CSV_VALUE_INVALID", self.where(column), value=self.text(column), column=column, expected=expected
        )

    def decimal(self, column: str):
        value, ok = parse_decimal(self.row.get(column))
        if not ok:
            self.invalid(column, _("a number"))
        return value

    def integer(self, column: str) -> int | None:
        value, ok = parse_int(self.row.get(column))
        if not ok:
            self.invalid(column, _("a whole number"))
        return value


def _entry(kind: str, line: int, row: dict[str, str], issues: IssueList) -> DraftEntry:
    cells = _Cells(line, row, issues)
    number_column = "team_no" if kind == "teams" else "entry_no"
    direction_text = cells.text("direction")
    direction = normalise_direction(direction_text)
    if direction_text and direction is None:
        cells.invalid("direction", "NS / EW")
    entry = DraftEntry(
        number=cells.text(number_column),
        where=Location(line=line),
        session=cells.text("session"),
        section=cells.text("section"),
        direction=direction,
        name=cells.text("team_name"),
    )
    entry.place_text = cells.text("place")
    entry.place, entry.tie_mark, ok = parse_place(entry.place_text)
    if not ok:
        entry.place_bad = True
        issues.add("PLACE_UNPARSEABLE", cells.where("place"), value=entry.place_text, entry=entry.label)
    entry.score = cells.decimal("score")
    entry.percentage = cells.decimal("percentage")
    entry.handicap = cells.decimal("handicap")
    entry.boards_played = cells.integer("boards_played")
    numbers = sorted({int(m.group(1)) for c in row if (m := _PLAYER_COLUMN.match(c))})
    for n in numbers:
        prefix = f"player_{n}_"
        name, national_id = cells.text(prefix + "name"), cells.text(prefix + "id")
        club, boards = cells.text(prefix + "club"), cells.integer(prefix + "boards")
        if not any((name, national_id, club, boards)):
            continue
        entry.players.append(
            Participant(
                name=name or "",
                national_id=normalise_id(national_id),
                home_club=club,
                boards_played=boards,
                where=cells.where(prefix + "id"),
            )
        )
    return entry


def _match(line: int, row: dict[str, str], issues: IssueList) -> Match:
    cells = _Cells(line, row, issues)
    imps, opponent_imps = cells.decimal("imps"), cells.decimal("opponent_imps")
    vp, opponent_vp = cells.decimal("vp"), cells.decimal("opponent_vp")
    points, opponent_points = cells.decimal("points"), cells.decimal("opponent_points")
    scoring, score, opponent_score = next(
        (
            (unit, ours, theirs)
            for unit, ours, theirs in (
                ("VP", vp, opponent_vp),
                ("BAM", points, opponent_points),
                ("IMP", imps, opponent_imps),
            )
            if ours is not None or theirs is not None
        ),
        (None, None, None),
    )
    return Match(
        round=cells.text("round") or "?",
        team=cells.text("team_no") or "?",
        opponent=cells.text("opponent_no"),
        imps=imps,
        opponent_imps=opponent_imps,
        vp=vp,
        opponent_vp=opponent_vp,
        boards=cells.integer("boards"),
        session=cells.text("session"),
        where=Location(line=line),
        scoring=scoring,
        score=score,
        opponent_score=opponent_score,
        points_per_board=Decimal(2) if scoring == "BAM" else None,
    )

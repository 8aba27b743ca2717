"""One PBN ranking table (``TotalScoreTable``) into draft entries (formats.md § 2.3-2.4).

Columns are matched by name, case and ``_``/``-`` ignored (the mapping is documented in :mod:`.pbn`).
Besides the standard's columns this reads what real writers add: ``TotalScoreMP``/``TotalScoreIMP``/
``TotalScoreVP``/``TotalScoreBAM`` (Ruter and others), membership-number columns, ``Direction``,
``Section``, ``Center``/``Centre`` (multi-centre simultaneous events) and, for teams, ``Roster``.

Rows ranked ``-`` are PBN's "not applicable": the entry is not ranked (the FFT multi-centre file leaves 33
of 356 pairs out); it is marked so and left out of the field by :func:`~.ranking.finalise`. A writer
that counted such rows in its numbering (ranks 64, ``-``, 66) has the places below them moved up, when
that - and only that - makes the ranks a ranking again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from masterpoints.engine.common import MAX_BOARDS
from tournaments.issues import IssueList, Location

from .draft import DraftEntry, DraftEvent
from .model import Participant
from .places import competition_ranking
from .text import (
    normalise_direction,
    normalise_id,
    parse_decimal,
    parse_int,
    parse_place,
    split_entry_number,
)

TOKEN = re.compile(r'"[^"]*"|\S+')

NUMBER_COLUMNS = ("pairid", "teamid", "participantid", "entryid")
NAME_COLUMNS = ("names", "name", "teamname", "players")
SCORE_COLUMNS = (
    "totalscore", "totalscoremp", "totalscoreimp", "totalscorevp", "totalscorebam", "totalmp", "totalimp",
    "totalvp", "totalbam", "mp", "imp", "vp", "bam", "score",
)  # fmt: skip
PERCENT_COLUMNS = ("totalpercentage", "percentage", "meanpercentage")
CENTRE_COLUMNS = ("center", "centre", "centerid", "centreid")
#: Membership-number columns, most specific first (the first present wins).
ID_COLUMNS = (
    "memberid", "memberids", "memberno", "membernr", "membernumber", "fedno", "fednr", "fedid", "federationid",
    "federationno", "federationnumber", "nationalid", "nationalidnumber", "natid", "licence", "license",
    "licenceno", "licenseno", "licencenumber", "licensenumber", "regno", "registrationno", "registrationnumber",
    "playerid", "playerids", "id", "ids",
)  # fmt: skip
#: What a score column says about the scoring, most specific first.
HEADER_SCORINGS = (
    (("totalscorevp", "totalvp", "vp"), "VP"),
    (("totalscorebam", "totalbam", "bam"), "BAM"),
    (("totalscoreimp", "totalimp", "imp"), "IMP"),
    (("totalscoremp", "totalmp", "mp"), "MP"),
)
#: Two names in one cell: ``"A;B"`` (the standard), ``user1/user2`` (online events), ``A - B``, ``A & B``.
_NAME_SEPARATORS = (re.compile(r"\s*;\s*"), re.compile(r"\s*/\s*"), re.compile(r"\s+-\s+"), re.compile(r"\s+&\s+"))


@dataclass
class Table:
    name: str
    header: str
    line: int
    rows: list[tuple[int, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def normalise(title: str) -> str:
    return re.sub(r"[\s_.\-]", "", title).lower()


def header_columns(header: str) -> list[tuple[str, str]]:
    """(title, key) of every column of a table header (``Rank\\3R;PairId\\5R`` → ``Rank``, ``rank`` ...)."""
    columns = []
    for part in header.split(";"):
        title = part.strip().lstrip("+-").split("\\")[0].strip()
        columns.append((title, normalise(title)))
    return columns


def header_scoring(header: str) -> str | None:
    """The scoring a ranking's score column implies (``TotalScoreMP`` → ``MP``), ``None`` if none does."""
    keys = {key for _title, key in header_columns(header)}
    for names, scoring in HEADER_SCORINGS:
        if keys & set(names):
            return scoring
    return None


def cell(token: str | None) -> str | None:
    """A cell's text without quotes; ``None`` for empty, ``?`` (unknown) and ``-`` (not applicable)."""
    if token is None:
        return None
    if len(token) >= 2 and token.startswith('"') and token.endswith('"'):
        token = token[1:-1]
    token = token.strip()
    if token in ("", "?", "-"):
        return None
    return token.lstrip("^") or None


def split_names(text: str | None, form: str) -> list[str]:
    """The player names of a ``Names`` cell: split on ``;``, else (pairs only) on ``/``, `` - `` or `` & ``."""
    if not text:
        return []
    for number, separator in enumerate(_NAME_SEPARATORS):
        if number and form != "pairs":
            break
        parts = [part.strip() for part in separator.split(text.strip())]
        if len(parts) > 1 and all(parts):
            return parts
    return [text.strip()]


def split_ids(text: str | None) -> list[str]:
    """``"123;456"``, ``123,456`` or ``"123 456"`` → ``["123", "456"]``."""
    if not text:
        return []
    separator = r"[;,]" if re.search(r"[;,]", text) else r"\s+"
    return [part.strip() for part in re.split(separator, text) if part.strip()]


def numbered(keys: list[str], bases: Sequence[str]) -> list[int]:
    """Indexes of columns like ``name1``, ``name2`` (or ``memberid1`` ...) ordered by their number."""
    for base in bases:
        found = []
        for index, key in enumerate(keys):
            match = re.fullmatch(re.escape(base) + r"(\d+)", key)
            if match:
                found.append((int(match.group(1)), index))
        if found:
            return [index for _n, index in sorted(found)]
    return []


@dataclass
class _Layout:
    """Where each value is in a table's rows (column indexes, ``None`` when absent)."""

    titles: list[str]
    rank: int | None
    number: int | None
    names: int | None
    score: int | None
    percentage: int | None
    boards: int | None
    direction: int | None
    section: int | None
    centre: int | None
    roster: int | None
    handicap: int | None
    numbered_names: list[int]
    id_column: int | None
    numbered_ids: list[int]

    @classmethod
    def of(cls, header: str) -> _Layout:
        columns = header_columns(header)
        keys = [key for _title, key in columns]

        def find(candidates: Sequence[str]) -> int | None:
            return next((keys.index(c) for c in candidates if c in keys), None)

        id_column = find(ID_COLUMNS)
        return cls(
            titles=[title for title, _key in columns],
            rank=find(("rank",)),
            number=find(NUMBER_COLUMNS),
            names=find(NAME_COLUMNS),
            score=find(SCORE_COLUMNS),
            percentage=find(PERCENT_COLUMNS),
            boards=find(("nrboards", "boards")),
            direction=find(("direction", "dir")),
            section=find(("section",)),
            centre=find(CENTRE_COLUMNS),
            roster=find(("roster",)),
            handicap=find(("handicap", "hcp")),
            numbered_names=numbered(keys, ("name", "names", "player")),
            id_column=id_column,
            numbered_ids=[] if id_column is not None else numbered(keys, ID_COLUMNS),
        )

    @property
    def has_ids(self) -> bool:
        return self.id_column is not None or bool(self.numbered_ids)


def has_id_column(header: str) -> bool:
    """Whether a table header has a membership-number column."""
    return _Layout.of(header).has_ids


def read_table(draft: DraftEvent, table: Table, section: str | None, issues: IssueList) -> list[DraftEntry]:
    """Add the table's rows to ``draft`` and return their entries (rows that do not fit the header are
    reported, ``PBN_ROW_MALFORMED``, and skipped). ``PBN_ID_COLUMN_USED`` names the membership-number
    column, ``PBN_TABLE_COMMENT`` every comment inside the table."""
    layout = _Layout.of(table.header)
    if layout.has_ids:
        used = [layout.id_column] if layout.id_column is not None else layout.numbered_ids
        column = ", ".join(layout.titles[index] for index in used)  # type: ignore[index]
        issues.add("PBN_ID_COLUMN_USED", Location(line=table.line), column=column)
    for comment in table.comments:
        if comment:
            issues.add("PBN_TABLE_COMMENT", Location(line=table.line), comment=comment)
    entries = []
    for line, row in table.rows:
        tokens = TOKEN.findall(row)
        if len(tokens) != len(layout.titles):
            issues.add("PBN_ROW_MALFORMED", Location(line=line), found=len(tokens), expected=len(layout.titles))
            continue
        raw_rank = tokens[layout.rank].strip('"').strip() if layout.rank is not None else None
        entry = _row_entry(draft, layout, [cell(token) for token in tokens], Location(line=line), section, issues)
        entry.unranked = raw_rank == "-"
        entries.append(entry)
        draft.entries.append(entry)
    if any(e.unranked for e in entries):
        draft.unranked_shifted |= _shift_below_unranked(entries)
    return entries


def _row_entry(
    draft: DraftEvent, layout: _Layout, cells: list[str | None], where: Location, section: str | None, issues
) -> DraftEntry:
    def at(index: int | None) -> str | None:
        return cells[index] if index is not None else None

    number, number_direction, number_section = split_entry_number(at(layout.number))
    entry = DraftEntry(
        number=number,
        where=where,
        section=at(layout.section) or section or number_section,
        direction=normalise_direction(at(layout.direction)) or number_direction,
        centre=at(layout.centre),
    )
    entry.place_text = at(layout.rank)
    entry.place, entry.tie_mark, ok = parse_place(entry.place_text)
    if not ok:
        entry.place_bad = True
        issues.add("PLACE_UNPARSEABLE", where, value=entry.place_text, entry=entry.label)
    for attribute, index in (("score", layout.score), ("percentage", layout.percentage), ("handicap", layout.handicap)):
        value, ok = parse_decimal(at(index))
        if not ok:
            issues.add("SCORE_UNPARSEABLE", where, value=at(index), field=layout.titles[index], entry=entry.label)  # type: ignore[index]
        setattr(entry, attribute, value)
    entry.boards_played = _boards(layout, at(layout.boards), entry, where, issues)
    entry.players = _players(draft, layout, at, entry, where, issues)
    return entry


def _boards(layout: _Layout, text: str | None, entry: DraftEntry, where: Location, issues) -> int | None:
    """The entry's ``NrBoards``: a whole number from 1 to the engine's ``MAX_BOARDS`` (every number from the
    file is bounded); anything else is ``SCORE_UNPARSEABLE`` naming the value (its line is the row's) and
    leaves the entry's boards unknown."""
    value, ok = parse_int(text)
    if value is not None and not 1 <= value <= MAX_BOARDS:
        ok, value = False, None
    if not ok:
        field_name = layout.titles[layout.boards]  # type: ignore[index]
        issues.add(
            "SCORE_UNPARSEABLE",
            where,
            variant="boards",
            value=text,
            field=field_name,
            entry=entry.label,
            limit=MAX_BOARDS,
        )
    return value


def _players(draft: DraftEvent, layout: _Layout, at, entry: DraftEntry, where: Location, issues) -> list[Participant]:
    if layout.numbered_names:
        names = [at(i) or "" for i in layout.numbered_names if at(i)]
    else:
        names = split_names(at(layout.names), draft.form)
    if draft.form == "teams" and not layout.numbered_names and (len(names) == 1 or layout.roster is not None):
        entry.name = " ".join(names) or None
        names = [part.strip() for part in re.split(r"[;,]", at(layout.roster) or "") if part.strip()]
    if layout.id_column is not None:
        ids = split_ids(at(layout.id_column))
    else:
        ids = [at(i) or "" for i in layout.numbered_ids]
    if layout.has_ids and ids and len(ids) != len(names):
        issues.add("PBN_ROW_MALFORMED", where, variant="ids", names=len(names), ids=len(ids))
        ids = []
    return [
        Participant(name=name, national_id=normalise_id(ids[i]) if i < len(ids) else None, where=where)
        for i, name in enumerate(names)
    ]


def _shift_below_unranked(entries: list[DraftEntry]) -> bool:
    """Move the places below unranked rows up by the number of unranked rows above them, when the file's
    places are no ranking but the moved ones are (the writer counted the unranked rows). Returns whether
    it did; the places as written stay in ``place_text``."""
    ranked = [e for e in entries if not e.unranked and e.place is not None]
    if not ranked or competition_ranking(e.place for e in ranked) is None:  # type: ignore[misc]
        return False
    shifted: dict[int, int] = {}
    above = 0
    for entry in entries:
        if entry.unranked:
            above += 1
        elif entry.place is not None:
            shifted[id(entry)] = entry.place - above
    if any(place < 1 for place in shifted.values()) or competition_ranking(shifted.values()) is not None:
        return False
    for entry in ranked:
        entry.place = shifted[id(entry)]
    return True


def decide_centres(entries: list[DraftEntry], issues: IssueList, where: Location) -> None:
    """For a table whose entries name several centres: one field when the places run across the centres
    (``GROUPS_DECIDED`` / ``across_centres``), a group per centre (the centre becomes the entries'
    section) when each centre's places form a ranking of their own (``per_centre``); otherwise nothing
    (the ranking checks report what is wrong)."""
    ranked = [e for e in entries if not e.unranked]
    centres = sorted({e.centre for e in ranked if e.centre})
    if len(centres) < 2 or any(e.centre is None or e.place is None for e in ranked):
        return
    names = ", ".join(centres[:30]) + (", …" if len(centres) > 30 else "")
    if competition_ranking(e.place for e in ranked) is None:  # type: ignore[misc]
        issues.add("GROUPS_DECIDED", where, variant="across_centres", count=len(centres), names=names, size=len(ranked))
        return
    per_centre = {centre: [e for e in ranked if e.centre == centre] for centre in centres}
    if all(competition_ranking(e.place for e in group) is None for group in per_centre.values()):  # type: ignore[misc]
        for entry in entries:
            entry.section = entry.centre if entry.section is None else f"{entry.section} {entry.centre}"
        groups = ", ".join(f"{centre} {len(group)}" for centre, group in per_centre.items())
        issues.add("GROUPS_DECIDED", where, variant="per_centre", count=len(centres), names=names, groups=groups)

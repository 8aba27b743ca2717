"""PBN 2.x reader for the final ranking (``TotalScoreTable``), formats.md § 2.

The reader has its own tokenizer instead of a PBN library: tags ``[Name "value"]``, ``%`` metadata
(``% PBN 2.1``, ``%Content-type: ...; charset=ISO-8859-1``, ``%Creator:``), ``{...}`` and ``;`` comments,
games separated by empty lines, tag inheritance (``"#"`` = the previous game's value, ``"##text"`` =
*text* for this and the following games), and table rows split with ``"[^"]*"|\\S+`` so quoted names
with spaces or apostrophes stay one cell. A table tag of ``"#"`` repeats the previous game's header.

Mapping of ``TotalScoreTable`` columns (names compared case-insensitively, ignoring ``_``/``-``):

* place: ``Rank`` (the best rank of a tie, so ties are equal ranks); entry number: ``PairId``/``TeamId``;
* names: ``Names`` (``"Name1;Name2"``) or numbered ``Name1``, ``Name2`` ...;
* score: the first of ``TotalScore``, ``TotalMP``, ``TotalIMP``, ``TotalVP``, ``MP``, ``IMP``, ``VP``,
  ``Score``; percentage: ``TotalPercentage``, ``Percentage``, ``MeanPercentage``; boards: ``NrBoards``;
* membership numbers: PBN has no standard column, so a user-defined one is accepted: ``MemberID``,
  ``MemberNo``, ``FedNo``, ``FederationID``, ``NationalID``, ``Licence``, ``RegNo``, ``PlayerId``, ``Id``
  (and plural or numbered forms such as ``MemberID1``, ``MemberID2``); one cell may hold ``"123;456"``
  in the order of the names. The column used is reported (``PBN_ID_COLUMN_USED``); without one,
  ``PBN_ID_COLUMN_MISSING`` says every player must be matched by name;
* optional user columns ``Direction`` (NS/EW) and ``Section``.

Each ranking table is a group (its game's ``Section`` tag names it); a table that only repeats rows of
an earlier one is skipped (``PBN_TABLE_REPEATED``), and a comment inside a table (the standard's
example says "Only the best 10 participants") is a warning, since a truncated table hides the field
size. A file without any ``TotalScoreTable`` is refused with ``NO_RANKING_TABLE``, saying whether it holds
hand records only or single table results.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .draft import DraftEntry, DraftEvent
from .issues import IssueList, Location
from .model import ParsedEvent, Participant
from .ranking import finalise
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

_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_CHARSET = re.compile(rb"^%.*?charset\s*=\s*\"?([A-Za-z0-9._:-]+)", re.IGNORECASE | re.MULTILINE)
_VERSION = re.compile(r"^%\s*PBN\s+(\d+(?:\.\d+)*)", re.IGNORECASE)
_CREATOR = re.compile(r"^%\s*Creator\s*:\s*(.+)$", re.IGNORECASE)
_TOKEN = re.compile(r'"[^"]*"|\S+')
_LINES = re.compile(r"\r\n|\r|\n")

_NUMBER_COLUMNS = ("pairid", "teamid", "participantid", "entryid")
_NAME_COLUMNS = ("names", "name", "teamname", "players")
_SCORE_COLUMNS = ("totalscore", "totalmp", "totalimp", "totalvp", "mp", "imp", "vp", "score")
_PERCENT_COLUMNS = ("totalpercentage", "percentage", "meanpercentage")
#: Membership-number columns, most specific first (the first present wins).
ID_COLUMNS = (
    "memberid", "memberids", "memberno", "membernr", "membernumber", "fedno", "fednr", "fedid", "federationid",
    "federationno", "federationnumber", "nationalid", "nationalidnumber", "natid", "licence", "license",
    "licenceno", "licenseno", "licencenumber", "licensenumber", "regno", "registrationno", "registrationnumber",
    "playerid", "playerids", "id", "ids",
)  # fmt: skip
_FORMS = {"pairs": "pairs", "teams": "teams", "individuals": "individual", "individual": "individual"}
_SCORINGS = (
    ("crossimp", "CROSS_IMP"),
    ("butler", "BUTLER"),
    ("imp", "IMP"),
    ("vp", "VP"),
    ("mp", "MP"),
    ("matchpoint", "MP"),
)


@dataclass
class _Table:
    name: str
    header: str
    line: int
    rows: list[tuple[int, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


@dataclass
class _Game:
    line: int
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    tables: dict[str, _Table] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)  # after inheritance


@dataclass
class _Column:
    title: str
    key: str


def _normalise(title: str) -> str:
    return re.sub(r"[\s_.\-]", "", title).lower()


def parse_pbn(
    data: bytes, issues: IssueList, *, fallbacks: Sequence[str] = DEFAULT_FALLBACK_ENCODINGS
) -> ParsedEvent | None:
    """Read a PBN file's ranking. Returns ``None`` when there is none (``NO_RANKING_TABLE``)."""
    declared = _CHARSET.search(data[:8192])
    text, decision = decode_text(
        data, issues, declared=declared.group(1).decode("ascii") if declared else None, fallbacks=fallbacks
    )
    games, version, creator = _read_games(text)
    _inherit(games)

    tables: list[tuple[_Game, _Table]] = [
        (game, game.tables["TotalScoreTable"])
        for game in games
        if "TotalScoreTable" in game.tables and game.tables["TotalScoreTable"].rows
    ]
    if not tables:
        _refuse(games, issues)
        return None

    first_game = tables[0][0]
    values = _event_values(games, first_game)
    competition = _FORMS.get(_normalise(values.get("Competition", "")))
    where = Location(line=first_game.line)
    draft = DraftEvent(
        format="pbn",
        encoding=decision,
        form=competition or "pairs",
        scoring=_scoring(values.get("Scoring", ""), competition or "pairs", tables[0][1].header),
        version=version,
        dialect=_normalise(creator.split(" Version")[0]) if creator else "generic",
        program=creator or clean(values.get("Application")),
        name=clean(values.get("Event")),
        event_type=clean(values.get("Competition")),
        merge_sections=False,
        where=where,
    )
    if competition is None:
        issues.add("EVENT_TYPE_MISSING", where, form="pairs")
    date_text = clean(values.get("EventDate")) or clean(values.get("Date"))
    draft.date = report_date(date_text, Location(line=first_game.line), issues)

    kept: list[tuple[_Game, _Table]] = []
    seen_rows: list[set[tuple[str, ...]]] = []
    for game, table in tables:
        rows = {tuple(_TOKEN.findall(row)) for _line, row in table.rows}
        if any(rows <= earlier for earlier in seen_rows):
            issues.add("PBN_TABLE_REPEATED", Location(line=table.line))
            continue
        seen_rows.append(rows)
        kept.append((game, table))
    sectionless = [game for game, _table in kept if not clean(game.values.get("Section"))]
    if len(sectionless) > 1:
        issues.add("GROUP_AMBIGUOUS", where, variant="tables", count=len(sectionless))
    id_column_seen = False
    for index, (game, table) in enumerate(kept, start=1):
        section = clean(game.values.get("Section"))
        if section is None and len(sectionless) > 1:
            section = f"#{index}"
        id_column_seen |= _read_table(draft, table, section, issues)
    draft.check_ids = id_column_seen
    if not id_column_seen:
        issues.add("PBN_ID_COLUMN_MISSING", Location(line=tables[0][1].line))
    boards = {
        game.values.get("Board") for game in games if "ScoreTable" in game.tables and game.tables["ScoreTable"].rows
    }
    draft.boards_played = len(boards - {None, ""}) or None
    return finalise(draft, issues)


def _read_games(text: str) -> tuple[list[_Game], str | None, str | None]:
    games: list[_Game] = []
    game: _Game | None = None
    table: _Table | None = None
    in_comment = False
    version = creator = None
    for number, raw in enumerate(_LINES.split(text), start=1):
        line = raw.strip()
        if in_comment:
            if table is not None:
                table.comments[-1] += " " + line.split("}")[0].strip()
            in_comment = "}" not in line
            continue
        if not line:
            if game is not None:
                games.append(game)
            game, table = None, None
            continue
        if line.startswith("%"):
            version = version or (_VERSION.match(line).group(1) if _VERSION.match(line) else None)
            creator = creator or (clean(_CREATOR.match(line).group(1)) if _CREATOR.match(line) else None)
            continue
        if line.startswith(";"):
            continue
        if line.startswith("{"):
            in_comment = "}" not in line
            if table is not None:
                table.comments.append(line.lstrip("{").split("}")[0].strip())
            continue
        tag = _TAG.match(line)
        if tag:
            if game is None:
                game = _Game(line=number)
            name, value = tag.group(1), re.sub(r'\\(["\\])', r"\1", tag.group(2))
            game.tags[name] = (value, number)
            if name.endswith("Table"):
                table = _Table(name, value, number)
                game.tables[name] = table
            else:
                table = None
            continue
        if table is not None:
            table.rows.append((number, line))
    if game is not None:
        games.append(game)
    return games, version, creator


def _inherit(games: list[_Game]) -> None:
    """Resolve ``#`` and ``##`` tag values into ``game.values`` (tables: header and, if empty, rows)."""
    sticky: dict[str, str] = {}
    previous: _Game | None = None
    for game in games:
        for name, (value, _line) in game.tags.items():
            if value == "#":
                resolved = previous.values.get(name, "") if previous else ""
                table = game.tables.get(name)
                if table is not None and previous is not None and name in previous.tables:
                    table.header = previous.tables[name].header
                    if not table.rows:
                        table.rows = list(previous.tables[name].rows)
            elif value.startswith("##"):
                resolved = value[2:]
                sticky[name] = resolved
            else:
                resolved = value
            game.values[name] = resolved
        for name, value in sticky.items():
            game.values.setdefault(name, value)
        previous = game


_EVENT_TAGS = ("Event", "EventDate", "Date", "Competition", "Scoring", "Application")


def _event_values(games: list[_Game], game: _Game) -> dict[str, str]:
    """The ranking game's tag values; an event tag it lacks is taken from the first game that has it
    (programs often write the event header once, at the top)."""
    values = dict(game.values)
    for name in _EVENT_TAGS:
        if clean(values.get(name)) is None:
            for other in games:
                if clean(other.values.get(name)) is not None:
                    values[name] = other.values[name]
                    break
    return values


def _refuse(games: list[_Game], issues: IssueList) -> None:
    results = sum(
        1
        for game in games
        if (clean(game.values.get("Contract")) and clean(game.values.get("Result"))) or "ScoreTable" in game.tables
    )
    deals = sum(1 for game in games if clean(game.values.get("Deal")))
    if results:
        issues.add("NO_RANKING_TABLE", variant="table_results", games=results)
    elif deals:
        issues.add("NO_RANKING_TABLE", variant="hand_records", games=deals)
    else:
        issues.add("NO_RANKING_TABLE")


def _scoring(value: str, form: str, header: str) -> str:
    """From the Scoring tag; without one, from the ranking's score column (TotalVP → VP ...)."""
    key = _normalise(value)
    for word, scoring in _SCORINGS:
        if word in key:
            return scoring
    columns = {_normalise(part.strip().lstrip("+-").split("\\")[0]) for part in header.split(";")}
    for names, scoring in ((("totalvp", "vp"), "VP"), (("totalimp", "imp"), "IMP"), (("totalmp", "mp"), "MP")):
        if columns & set(names):
            return scoring
    return "IMP" if form == "teams" else "MP"


def _cell(token: str | None) -> str | None:
    if token is None:
        return None
    if len(token) >= 2 and token.startswith('"') and token.endswith('"'):
        token = token[1:-1]
    token = token.strip()
    if token in ("", "?", "-"):
        return None
    return token.lstrip("^") or None


def _read_table(draft: DraftEvent, table: _Table, section: str | None, issues: IssueList) -> bool:
    """Add the table's rows to ``draft``; returns whether it had a membership-number column."""
    columns = []
    for part in table.header.split(";"):
        title = part.strip().lstrip("+-").split("\\")[0].strip()
        columns.append(_Column(title, _normalise(title)))
    keys = [c.key for c in columns]

    def find(candidates: Sequence[str]) -> int | None:
        for candidate in candidates:
            if candidate in keys:
                return keys.index(candidate)
        return None

    rank, number = find(("rank",)), find(_NUMBER_COLUMNS)
    names, score, percentage = find(_NAME_COLUMNS), find(_SCORE_COLUMNS), find(_PERCENT_COLUMNS)
    boards, direction, section_column = find(("nrboards", "boards")), find(("direction", "dir")), find(("section",))
    numbered_names = _numbered(keys, ("name", "names", "player"))
    id_column = find(ID_COLUMNS)
    numbered_ids = [] if id_column is not None else _numbered(keys, ID_COLUMNS)
    if id_column is not None or numbered_ids:
        used = [columns[id_column].title] if id_column is not None else [columns[i].title for i in numbered_ids]
        issues.add("PBN_ID_COLUMN_USED", Location(line=table.line), column=", ".join(used))
    for comment in table.comments:
        if comment:
            issues.add("PBN_TABLE_COMMENT", Location(line=table.line), comment=comment)

    for line, row in table.rows:
        where = Location(line=line)
        tokens = _TOKEN.findall(row)
        if len(tokens) != len(columns):
            issues.add("PBN_ROW_MALFORMED", where, found=len(tokens), expected=len(columns))
            continue
        cells = [_cell(token) for token in tokens]

        def at(index: int | None, cells: list[str | None] = cells) -> str | None:
            return cells[index] if index is not None else None

        entry_number, number_direction, number_section = split_entry_number(at(number))
        entry = DraftEntry(
            number=entry_number,
            where=where,
            section=at(section_column) or section or number_section,
            direction=normalise_direction(at(direction)) or number_direction,
        )
        entry.place_text = at(rank)
        entry.place, entry.tie_mark, ok = parse_place(entry.place_text)
        if not ok:
            entry.place_bad = True
            issues.add("PLACE_UNPARSEABLE", where, value=entry.place_text, entry=entry.label)
        for attribute, index in (("score", score), ("percentage", percentage)):
            value, ok = parse_decimal(at(index))
            if not ok:
                issues.add("SCORE_UNPARSEABLE", where, value=at(index), field=columns[index].title, entry=entry.label)  # type: ignore[index]
            setattr(entry, attribute, value)
        entry.boards_played, ok = parse_int(at(boards))
        if not ok:
            issues.add("SCORE_UNPARSEABLE", where, value=at(boards), field=columns[boards].title, entry=entry.label)  # type: ignore[index]

        if numbered_names:
            player_names = [at(i) or "" for i in numbered_names if at(i)]
        else:
            raw_names = at(names) or ""
            player_names = [n.strip() for n in raw_names.split(";")] if raw_names else []
        if draft.form == "teams" and len(player_names) == 1 and not numbered_names:
            entry.name, player_names = player_names[0], []
        if id_column is not None:
            ids = _split_ids(at(id_column))
        else:
            ids = [at(i) or "" for i in numbered_ids] if numbered_ids else []
        if (id_column is not None or numbered_ids) and ids and len(ids) != len(player_names):
            issues.add("PBN_ROW_MALFORMED", where, variant="ids", names=len(player_names), ids=len(ids))
            ids = []
        entry.players = [
            Participant(name=name, national_id=normalise_id(ids[i]) if i < len(ids) else None, where=where)
            for i, name in enumerate(player_names)
        ]
        draft.entries.append(entry)
    return id_column is not None or bool(numbered_ids)


def _split_ids(cell: str | None) -> list[str]:
    """``"123;456"``, ``123,456`` or ``"123 456"`` → ``["123", "456"]``."""
    if not cell:
        return []
    separator = r"[;,]" if re.search(r"[;,]", cell) else r"\s+"
    return [part.strip() for part in re.split(separator, cell) if part.strip()]


def _numbered(keys: list[str], bases: Sequence[str]) -> list[int]:
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

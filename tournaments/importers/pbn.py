"""PBN 2.x reader for the final ranking (``TotalScoreTable``), formats.md § 2.

The reader has its own tokenizer instead of a PBN library: tags ``[Name "value"]``, ``%`` metadata
(``% PBN 2.1``, ``%Content-type: ...; charset=ISO-8859-1``, ``%Creator:``), ``{...}`` and ``;`` comments,
games separated by empty lines, tag inheritance (``"#"`` = the previous game's value, ``"##text"`` =
*text* for this and the following games), and table rows split with ``"[^"]*"|\\S+`` so quoted names
with spaces or apostrophes stay one cell. A table tag of ``"#"`` repeats the previous game's header.

Mapping of ``TotalScoreTable`` columns (names compared case-insensitively, ignoring ``_``/``-``):

* place: ``Rank`` (the best rank of a tie, so ties are equal ranks; ``-`` = not ranked, the entry is
  left out of the field with ``ENTRIES_UNRANKED``); entry number: ``PairId``/``TeamId``;
* names: ``Names`` (``"Name1;Name2"``; in pairs also ``user1/user2`` of online events, ``A - B`` and
  ``A & B``) or numbered ``Name1``, ``Name2`` ...; for teams the team's name and its ``Roster``;
* score: the first of ``TotalScore``, ``TotalScoreMP``/``IMP``/``VP``/``BAM`` (Ruter), ``TotalMP``,
  ``TotalIMP``, ``TotalVP``, ``TotalBAM``, ``MP``, ``IMP``, ``VP``, ``BAM``, ``Score`` (the column also
  gives the scoring when there is no ``Scoring`` tag); percentage: ``TotalPercentage``, ``Percentage``,
  ``MeanPercentage``; boards: ``NrBoards`` (a whole number from 1 to :data:`masterpoints.engine.common.MAX_BOARDS`, else
  ``SCORE_UNPARSEABLE``), which also gives the event's boards when the file has no per-board
  ``ScoreTable`` (:func:`_event_boards`);
* membership numbers: PBN has no standard column, so a user-defined one is accepted: ``MemberID``,
  ``MemberNo``, ``FedNo``, ``FederationID``, ``NationalID``, ``Licence``, ``RegNo``, ``PlayerId``, ``Id``
  (and plural or numbered forms such as ``MemberID1``, ``MemberID2``); one cell may hold ``"123;456"``
  in the order of the names. The column used is reported (``PBN_ID_COLUMN_USED``); without one,
  ``PBN_ID_COLUMN_MISSING`` says every player must be matched by name;
* optional user columns ``Direction`` (NS/EW), ``Section`` and ``Center``/``Centre``: a table across
  several centres is one field when its places run across them, a group per centre when each centre's
  places start again (``GROUPS_DECIDED`` says which);
* optional user column ``Handicap`` (or ``Hcp``; the PBN standard has none): a non-zero handicap makes a
  handicap event, whose score and percentage are the nominal (scratch) result and whose ``Rank`` the
  handicap result, as in USEBIO and our CSV template (DBf § 405B6f pays BP on the nominal result).

Each ranking table is a group (its game's ``Section`` tag names it; several named tables are reported
as ranked separately, ``GROUPS_DECIDED``); table reading is in :mod:`.pbn_table`; a table that only repeats rows of
an earlier one is skipped (``PBN_TABLE_REPEATED``), a file cut off inside a table row or a tag is refused
(``PBN_TRUNCATED``, :func:`_cut_line`), and a comment inside a table (the standard's
example says "Only the best 10 participants") is a warning, since a truncated table hides the field
size. A file without any ``TotalScoreTable`` is refused with ``NO_RANKING_TABLE``, saying whether it holds
hand records only or single table results.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.issues import IssueList, Location

from .draft import DraftEvent
from .model import ParsedEvent
from .pbn_table import TOKEN, Table, decide_centres, has_id_column, header_scoring, normalise, read_table
from .ranking import finalise
from .text import DEFAULT_FALLBACK_ENCODINGS, clean, decode_text, parse_time, report_date

_TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_CHARSET = re.compile(rb"^%.*?charset\s*=\s*\"?([A-Za-z0-9._:-]+)", re.IGNORECASE | re.MULTILINE)
_VERSION = re.compile(r"^%\s*PBN\s+(\d+(?:\.\d+)*)", re.IGNORECASE)
_CREATOR = re.compile(r"^%\s*Creator\s*:\s*(.+)$", re.IGNORECASE)
_LINES = re.compile(r"\r\n|\r|\n")
_FORMS = {"pairs": "pairs", "teams": "teams", "individuals": "individual", "individual": "individual"}
_SCORINGS = (
    ("crossimp", "CROSS_IMP"),
    ("butler", "BUTLER"),
    ("bam", "BAM"),
    ("boardamatch", "BAM"),
    ("pointaboard", "BAM"),
    ("imp", "IMP"),
    ("vp", "VP"),
    ("mp", "MP"),
    ("matchpoint", "MP"),
)


@dataclass
class _Game:
    line: int
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)  # after inheritance


def parse_pbn(
    data: bytes,
    issues: IssueList,
    *,
    fallbacks: Sequence[str] = DEFAULT_FALLBACK_ENCODINGS,
    chosen: str | None = None,
) -> ParsedEvent | None:
    """Read a PBN file's ranking. Returns ``None`` when there is none (``NO_RANKING_TABLE``).
    ``chosen`` is the encoding the director chose (it overrides a declared charset)."""
    declared = _CHARSET.search(data[:8192])
    charset = declared.group(1).decode("ascii") if declared else None
    text, decision = decode_text(data, issues, declared=charset, fallbacks=fallbacks, chosen=chosen)
    games, version, creator = _read_games(text)
    cut = _cut_line(text, games)
    if cut is not None:
        issues.add("PBN_TRUNCATED", Location(line=cut))
    _inherit(games)

    tables: list[tuple[_Game, Table]] = [
        (game, game.tables["TotalScoreTable"])
        for game in games
        if "TotalScoreTable" in game.tables and game.tables["TotalScoreTable"].rows
    ]
    if not tables:
        _refuse(games, issues)
        return None

    first_game = tables[0][0]
    values = _event_values(games, first_game)
    competition = _FORMS.get(normalise(values.get("Competition", "")))
    where = Location(line=first_game.line)
    draft = DraftEvent(
        format="pbn",
        encoding=decision,
        form=competition or "pairs",
        scoring=_scoring(values.get("Scoring", ""), competition or "pairs", tables[0][1].header),
        version=version,
        dialect=normalise(creator.split(" Version")[0]) if creator else "generic",
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
    draft.start_time = parse_time(values.get("Time"))

    kept: list[tuple[_Game, Table]] = []
    seen_rows: list[set[tuple[str, ...]]] = []
    for game, table in tables:
        rows = {tuple(TOKEN.findall(row)) for _line, row in table.rows}
        if any(rows <= earlier for earlier in seen_rows):
            issues.add("PBN_TABLE_REPEATED", Location(line=table.line))
            continue
        seen_rows.append(rows)
        kept.append((game, table))
    sectionless = [game for game, _table in kept if not clean(game.values.get("Section"))]
    if len(sectionless) > 1:
        issues.add("GROUP_AMBIGUOUS", where, variant="tables", count=len(sectionless))
    elif len(kept) > 1 and not sectionless:
        names = [clean(game.values.get("Section")) or "" for game, _table in kept]
        groups = ", ".join(f"{name} {len(table.rows)}" for name, (_game, table) in zip(names, kept, strict=True))
        issues.add("GROUPS_DECIDED", where, variant="per_table", count=len(kept), names=", ".join(names), groups=groups)
    id_column_seen = False
    for index, (game, table) in enumerate(kept, start=1):
        section = clean(game.values.get("Section"))
        if section is None and len(sectionless) > 1:
            section = f"#{index}"
        decide_centres(read_table(draft, table, section, issues), issues, Location(line=table.line))
        id_column_seen |= has_id_column(table.header)
    draft.check_ids = id_column_seen
    if not id_column_seen:
        issues.add("PBN_ID_COLUMN_MISSING", Location(line=tables[0][1].line))
    _event_boards(draft, games)
    draft.handicap = any(e.handicap for e in draft.entries)  # a Handicap column (§ 405B6f), as in USEBIO
    return finalise(draft, issues)


def _event_boards(draft: DraftEvent, games: list[_Game]) -> None:
    """The event's boards: counted from the games with a per-board ``ScoreTable`` (``boards_played``), and
    as the ranking states them (``boards_declared``): the ``NrBoards`` every entry played when they agree,
    else the most any entry played (late arrivals, sit-outs, sections of different length), each entry
    keeping its own count as its boards played (the partial participation of § 405A1 and HBS rule 6, H-9).
    The count from the score tables comes first; when both are there and differ, ``BOARDS_DECLARED_DIFFER``
    (variant ``nrboards``) names both numbers."""
    boards = {
        game.values.get("Board") for game in games if "ScoreTable" in game.tables and game.tables["ScoreTable"].rows
    }
    draft.boards_played = len(boards - {None, ""}) or None
    played = [entry.boards_played for entry in draft.entries if entry.boards_played is not None]
    if played:
        draft.boards_declared, draft.boards_declared_from = max(played), "nrboards"


def _read_games(text: str) -> tuple[list[_Game], str | None, str | None]:
    games: list[_Game] = []
    game: _Game | None = None
    table: Table | None = None
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
                table = Table(name, value, number)
                game.tables[name] = table
            else:
                table = None
            continue
        if table is not None:
            table.rows.append((number, line))
    if game is not None:
        games.append(game)
    return games, version, creator


def _cut_line(text: str, games: list[_Game]) -> int | None:
    """The line a file cut off in the middle of a line ends on (a PBN cut mid-row would otherwise be confirmed
    as a smaller event), else ``None``. Every line of a PBN ends with a line break (PBN 2.1 § 3), as in every file we
    hold; a last line without one that is a table row or an unfinished tag was cut: its last value may be short
    (``57`` of ``57.29``) and the rows after it are missing, which no column count can tell."""
    if not text or text.endswith(("\n", "\r")):
        return None
    number = len(_LINES.split(text))
    last = _LINES.split(text)[-1].strip()
    in_table = any(table.rows and table.rows[-1][0] == number for game in games for table in game.tables.values())
    unfinished_tag = last.startswith("[") and not _TAG.match(last)
    return number if in_table or unfinished_tag else None


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


_EVENT_TAGS = ("Event", "EventDate", "Date", "Time", "Competition", "Scoring", "Application")


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
    """From the Scoring tag; without one, from the ranking's score column (TotalScoreVP → VP ...)."""
    key = normalise(value)
    for word, scoring in _SCORINGS:
        if word in key:
            return scoring
    return header_scoring(header) or ("IMP" if form == "teams" else "MP")

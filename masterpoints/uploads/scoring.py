"""The bridge between an uploaded event and the points engine of the federation's scheme.

Each ranking group of the file is scored as its own field (a row, a section, one direction of a
two-winner Mitchell). Player keys handed to the engine are the preview's line keys
(``entry key#n``), so every award maps back to a line of the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.module_loading import import_string

from federation.rulesets import rules_for
from masterpoints.engine.common import PlayerAward, Reason, RequestError
from masterpoints.engine.dbf import events as dbf_events
from masterpoints.engine.dbf import minihold as dbf_minihold
from masterpoints.engine.dbf import team_events as dbf_teams
from masterpoints.engine.dbf.scale import fmt
from masterpoints.engine.dbf.teams import team_row_value
from masterpoints.uploads import claims
from masterpoints.uploads.lines import GroupLine, Preview
from tournaments.checks import CheckIssue


@dataclass
class ScoringResult:
    """The awards, the groups that award nothing (and why), what the adapter has to say about how it read the
    event (issues shaped like the preview's) and, where a player's place in the tournament is not that of their
    line of the file (a compound event, H-16), the place by player key."""

    awards: list[PlayerAward] = field(default_factory=list)
    nothing_awarded: list[tuple[str, Reason | None]] = field(default_factory=list)
    issues: list = field(default_factory=list)
    places: dict[str, tuple[int, int]] = field(default_factory=dict)


def compute(preview: Preview) -> ScoringResult:
    """Every player's awards for the preview's event under the rule set valid on its date, by the scheme's
    adapter (``federation.schemes``: :func:`score_dbf` or ``scoring_hbs.score_hbs``), or by its office adapter
    for a form the secretariat entered (``facts["office_form"]``, § 451A, D-Q33)."""
    if preview.upload.facts.get("office_form"):
        return import_string(preview.scheme.office_scoring_adapter)(preview)
    return import_string(preview.scheme.scoring_adapter)(preview)


def event_boards(preview: Preview) -> int:
    """Boards of the event: the director's figure, else those counted in the file, else those it declares."""
    facts, event = preview.upload.facts, preview.event
    return int(facts.get("boards") or event.boards_played or event.boards_declared or 0)


def event_form(preview: Preview) -> str:
    return preview.upload.facts.get("form") or preview.event.form


def group_label(group: GroupLine) -> str:
    return group.group.name or str(group.row_number)


def is_compound(preview: Preview) -> bool:
    """Whether the file's several session rankings are the stages of one compound tournament: a form of the
    scheme's ``compound_forms`` (HBS pairs, rule 7, H-16) in a file of more than one session."""
    event = preview.event
    return event is not None and event.sessions > 1 and event_form(preview) in preview.scheme.compound_forms


# --- DBf ------------------------------------------------------------------------------------------------


#: The team table an upload uses by category when the director names none (§ 412A, § 413A; GP needs its own).
DBF_TEAM_TABLES = {"BP": "bp", "SP": "sp_outside_pyramid"}


def score_dbf(preview: Preview) -> ScoringResult:
    """DBf: one upload is one scoring part: a playing day for BP (§ 405B6a), the whole tournament for SP/GP
    (§ 405B7a). Each ranking group is a section; strength rows follow the groups' order (§ 405B5)."""
    rules = rules_for(preview.upload.federation, preview.event.date)
    if event_form(preview) == "teams":
        return _dbf_teams(preview, rules)
    facts = preview.upload.facts
    boards = event_boards(preview)
    split = "strength" if facts.get("split_by_strength") else "random"
    sections = []
    for group in preview.groups:
        entries = tuple(
            dbf_events.Entry(
                entry=line.entry.key,
                first=line.entry.place_first,
                last=line.entry.place_last,
                players=tuple(
                    dbf_events.Player(player=player.key, boards=_recorded(player.boards_played, line, boards))
                    for player in line.players
                ),
            )
            for line in group.entries
            if not is_absent(line)  # § 405B1: nothing for it, and not in N (nor its place in the field)
        )
        sections.append(
            dbf_events.Section(
                key=group.group.key,
                participants=group.group.field_size - sum(1 for line in group.entries if is_absent(line)),
                boards=boards,
                entries=entries,
                row=group.row_number if split == "strength" else 1,
                met=facts.get("met"),
                robots=bool(facts.get("robots")),
                rounds=_minihold_rounds(preview, group) if event_form(preview) == "minihold" else (),
            )
        )
    event = dbf_events.PairEvent(
        form=event_form(preview),
        category=facts["category"],
        organizer=facts.get("organiser_kind", "club"),
        parts=(dbf_events.Part(key="", sections=tuple(sections), split=split),),
        sanction=preview.sanction,  # § 403A–B, found by tournaments.sanctions.event_sanction
        special=claims.engine_special(preview),
    )
    result = ScoringResult(awards=dbf_events.pair_event_awards(event, rules))
    note_groups_awarding_nothing(preview, result)
    return result


def _recorded(boards_played: int | None, line, event_boards: int) -> int:
    """A player's boards: their own as recorded, else their entry's, else the event's. A recorded 0 is a fact
    (§ 405B1: an absent player), never a missing value."""
    for value in (boards_played, line.entry.boards_played):
        if value is not None:
            return value
    return event_boards


def is_absent(line) -> bool:
    """§ 405B1 ("En fraværende deltager tæller ikke med"): an entry the file records with 0 boards, itself or
    for each of its players, took no part and does not count in N."""
    if line.entry.boards_played is not None:
        return line.entry.boards_played == 0
    recorded = [player.boards_played for player in line.players]
    return bool(recorded) and all(boards == 0 for boards in recorded)


def _minihold_rounds(preview: Preview, group: GroupLine) -> tuple[dbf_minihold.TeamRound, ...]:
    """Each team's VP in each round of a mini-team row, byes included, for the § 421B bye score (D-Q23).

    A match the file lists from both sides counts once per team (a round is told by its board range where
    the file gives one, as rounds may then count each team's own matches); a side without VP takes the VP
    the other listing gives."""
    keys = {line.entry.number: line.entry.key for line in group.entries}
    scores: dict[tuple, Fraction | None] = {}
    labels: dict[tuple, str] = {}
    for match in preview.event.matches:
        when = match.round if match.start_board is None else (match.start_board, match.end_board)
        sides = [(match.team, match.opponent, match.vp)]
        if match.opponent is not None:
            sides.append((match.opponent, match.team, match.opponent_vp))
        for team, opponent, vp in sides:
            key = (team, opponent, match.session, when)
            if team in keys and scores.get(key) is None:
                scores[key] = None if vp is None else Fraction(vp)
                labels[key] = match.round
    return tuple(
        dbf_minihold.TeamRound(keys[key[0]], labels[key], vp, bye=key[1] is None) for key, vp in scores.items()
    )


def _dbf_teams(preview: Preview, rules) -> ScoringResult:
    """A team event: MP per player per match from the file's VP (§ 406A, § 411B) and, for BP, the bonus for
    the final placing (§ 412B).

    Files give each player's boards for the whole event, not per match: a player with all of the team's
    boards played every match in full; one with fewer is taken to have played that share of every match
    (§ 405A1's share, spread evenly), which the preview flags (TEAM_SHARE_ESTIMATED).

    Rows split by strength (§ 405A2 "uddeles MP gradueret efter styrken således, at den højest gældende række
    får flest MP"; § 412A2, § 412B2, § 413A2–4): with the upload's "rows split by strength" the file's ranking
    groups are the rows, top row first, and every match pays its row's value and every row's bonus its
    fraction of the A row's (TEAM_ROWS_BY_STRENGTH names each row's value). Where not every team met every
    other (§ 405A5, :func:`team_format`), the bonus is as for K + 1 teams (TEAM_SWISS_BONUS).
    """
    facts, event = preview.upload.facts, preview.event
    table = DBF_TEAM_TABLES.get(facts["category"])
    if table is None:
        raise RequestError(
            "category",
            "GP team events pay by their own table (§ 414): the secretariat enters them under My office → "
            "Awards entered by the office (/office/awards/new/, § 451A)",
        )
    result = ScoringResult()
    rows = len(preview.groups)
    split = "strength" if facts.get("split_by_strength") and rows > 1 else "random"
    row_of = {line.entry.number: group.row_number for group in preview.groups for line in group.entries}
    lines_of = {line.entry.number: line for group in preview.groups for line in group.entries}
    matches = []
    seen = set()
    for match in event.matches:
        if match.opponent is None or (match.opponent, match.team, match.round) in seen:
            continue
        seen.add((match.team, match.opponent, match.round))
        if match.boards == 0:  # § 411B4: a walkover counts as won but pays no MP
            result.issues.append(_walkover_issue(match))
            continue
        home, away = _outcomes(match)
        matches.append(
            dbf_teams.Match(
                key=f"{match.round}:{match.team}-{match.opponent}",
                boards=match.boards,
                home=dbf_teams.TeamSide(match.team, _match_players(lines_of[match.team], match.boards), **home),
                away=dbf_teams.TeamSide(match.opponent, _match_players(lines_of[match.opponent], match.boards), **away),
                row=row_of.get(match.team, 1) if split == "strength" else 1,
            )
        )
    if split == "strength":
        result.issues.append(_rows_issue(preview, table, rows, rules))
    standings = _bp_standings(preview, matches, split, result) if facts["category"] == "BP" else []
    team_event = dbf_teams.TeamEvent(
        category=facts["category"],
        table=table,
        matches=tuple(matches),
        standings=tuple(standings),
        rows=rows if split == "strength" else 1,
        split=split,
        sanction=preview.sanction,  # § 403B2: a half-MP sanction halves every match
    )
    result.awards = dbf_teams.team_event_awards(team_event, rules)
    return result


def _bp_standings(preview: Preview, matches, split: str, result: ScoringResult) -> list:
    """Each group's final placing for the BP bonus (§ 412B): its row when split by strength, K and boards of
    the A row for the rows below (§ 412B2, D-Q20), and the Swiss fact of § 405A5 (named in the preview)."""
    standings = []
    top: tuple[int, int] | None = None
    for group in preview.groups:
        per_team, boards = _matches_per_team(preview, group, matches)
        top = top or (per_team, boards)
        form = team_format(preview, group)
        if form == "monrad":
            result.issues.append(_swiss_issue(group, per_team))
        standings.append(
            dbf_teams.Standing(
                key=group.group.key,
                teams=group.group.field_size,
                matches=per_team,
                boards=boards,
                entries=tuple(standing_entry(line, per_team * boards) for line in group.entries),
                row=group.row_number if split == "strength" else 1,
                format=form,
                top_row_matches=top[0] if split == "strength" else None,
                top_row_boards=top[1] if split == "strength" else None,
            )
        )
    return standings


def _matches_per_team(preview: Preview, group: GroupLine, matches) -> tuple[int, int]:
    """K (the matches each team of the group played, byes and walkovers included as matches the bonus counts,
    D-Q20) and the boards per match."""
    numbers = {line.entry.number for line in group.entries}
    listed = {
        (min(m.team, m.opponent), max(m.team, m.opponent), m.round)
        for m in preview.event.matches
        if m.opponent is not None and m.team in numbers
    }
    per_team = max(2 * len(listed) // max(group.group.field_size, 1), 1)  # each match counted for both teams
    played = [m.boards for m in matches if m.home.entry in numbers]
    boards = played[0] if played else (matches[0].boards if matches else event_boards(preview))
    return per_team, boards


def team_format(preview: Preview, group: GroupLine) -> str:
    """§ 405A5 "Hvis der spilles efter Monrads system eller tilsvarende således, at ikke alle hold møder
    hinanden": ``"monrad"`` when the file's matches show a team of the group that did not meet every other
    team of it, else ``"round_robin"`` (a group with no matches in the file is taken as a round robin)."""
    numbers = {line.entry.number for line in group.entries}
    met: dict[str, set[str]] = {number: set() for number in numbers}
    listed = False
    for match in preview.event.matches:
        if match.opponent is None:
            continue
        for team, opponent in ((match.team, match.opponent), (match.opponent, match.team)):
            if team in met:
                met[team].add(opponent)
                listed = True
    if not listed:
        return "round_robin"
    return "monrad" if any(len(others & numbers) < len(numbers) - 1 for others in met.values()) else "round_robin"


def _rows_issue(preview: Preview, table: str, rows: int, rules):
    values = []
    for group in preview.groups:
        value = team_row_value(table, rows, group.row_number, "strength", rules)
        values.append(f"{group_label(group)}: {fmt(value)} {preview.upload.facts['category']}")
    return CheckIssue("TEAM_ROWS_BY_STRENGTH", params={"rows": ", ".join(values)})


def _swiss_issue(group: GroupLine, per_team: int):
    teams = group.group.field_size
    params = {"group": group_label(group), "teams": teams, "matches": per_team, "effective": min(teams, per_team + 1)}
    return CheckIssue("TEAM_SWISS_BONUS", params=params)


def _walkover_issue(match):
    return CheckIssue(
        "TEAM_WALKOVER", match.where, {"round": match.round, "team": match.team, "opponent": match.opponent}
    )


def _outcomes(match) -> tuple[dict, dict]:
    """Each side's outcome for the engine: the VP of a match scored in IMPs and VP (§ 411B), or the board
    points of a point-a-board or board-a-match match as a score of 2 per board (§ 411C)."""
    if match.boards is None:
        raise RequestError("matches", f"round {match.round}: the file gives no boards for {match.team}")
    if match.vp is not None and match.opponent_vp is not None:
        return {"vp": Fraction(match.vp)}, {"vp": Fraction(match.opponent_vp)}
    if match.scoring == "BAM" and match.score is not None and match.opponent_score is not None:
        per_board = Fraction(match.points_per_board or 2)
        return (
            {"bam_score": Fraction(match.score) * 2 / per_board},
            {"bam_score": Fraction(match.opponent_score) * 2 / per_board},
        )
    raise RequestError("matches", f"round {match.round}: the file gives no VP or board points for {match.team}")


def standing_entry(line, planned: int):
    """A team in the final placing with the boards it played and each player's boards (§ 411D: half)."""
    team_boards = line.entry.boards_played or planned
    return dbf_events.Entry(
        entry=line.entry.key,
        first=line.entry.place_first,
        last=line.entry.place_last,
        planned_boards=team_boards,
        players=tuple(
            dbf_events.Player(player=p.key, boards=p.boards_played if p.boards_played is not None else team_boards)
            for p in line.players
        ),
    )


def _match_players(line, match_boards: int) -> tuple:
    """Each player's boards in one match: their share of the team's boards applied to the match."""
    team_boards = line.entry.boards_played
    players = []
    for player in line.players:
        boards = match_boards
        if player.boards_played is not None and team_boards and player.boards_played < team_boards:
            boards = match_boards * player.boards_played // team_boards
        players.append(dbf_events.Player(player=player.key, boards=boards))
    return tuple(players)


def note_groups_awarding_nothing(preview: Preview, result: ScoringResult) -> None:
    """Name each group whose every award is zero, with the engine's reason (a ``Reason``: code and parameters)
    from the awards' explanations, or ``None`` when none says why (every player ineligible, say)."""
    for group in preview.groups:
        keys = {player.key for line in group.entries for player in line.players}
        awards = [a for a in result.awards if a.player in keys]
        if awards and not any(a.units for a in awards):
            reason = next((a.explanation.reason for a in awards if a.explanation.reason is not None), None)
            result.nothing_awarded.append((group_label(group), reason))

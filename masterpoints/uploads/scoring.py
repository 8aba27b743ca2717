"""The bridge between an uploaded event and the points engine of the federation's scheme.

Each ranking group of the file is scored as its own field (a row, a section, one direction of a
two-winner Mitchell). Player keys handed to the engine are the preview's line keys
(``entry key#n``), so every award maps back to a line of the file.
"""

from __future__ import annotations

import dataclasses
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
    """The form the director declared, else the file's; a file's team event whose matches make a mini-team event
    by the rule book's definition is one (DBf § 421A, D-Q61: :func:`form_by_matches`)."""
    declared = preview.upload.facts.get("form")
    if declared:
        return declared
    if preview.event.form == "teams" and form_by_matches(preview) == "minihold":
        return "minihold"
    return preview.event.form


def form_by_matches(preview: Preview) -> str | None:
    """The team form the file's matches make, where the rule book defines mini-teams (DBf § 421A; the scheme's
    rule set has ``minihold_match_boards``): ``"minihold"`` when in every session some team plays more than two
    matches and every match has 2–11 boards, ``"teams"`` otherwise, ``None`` when the file lists no matches with
    their boards or the rule book has no such definition.

    D-Q61 (§ 421A "En miniholdturnering defineres ved, at den opfylder følgende betingelser: 1. Turneringen
    indeholder flere end to kampe pr. sektion (spilledag). 2. Hver kamp indeholder mindst 2 spil og maksimalt 11
    spil."): the definition is a fact of the matches, not a label. A form left to the file follows it (the preview
    says so: MINIHOLD_BY_MATCHES); a form the director declared stands, and a contradiction is a warning naming
    § 421A (FORM_CONTRADICTS_MATCHES), as the director may know what the file does not (a session's matches
    missing from it)."""
    rules = preview.scheme.current_rules
    bounds = getattr(rules, "minihold_match_boards", None)
    played = [match for match in preview.event.matches if match.opponent is not None]
    if bounds is None or not played or any(match.boards is None for match in played):
        return None
    per_session: dict[str | None, dict[str, set]] = {}
    for match in played:
        when = match.round if match.start_board is None else (match.start_board, match.end_board)
        teams = per_session.setdefault(match.session, {})
        for team in (match.team, match.opponent):
            teams.setdefault(team, set()).add(when)
    enough = all(
        max(len(rounds) for rounds in teams.values()) >= rules.minihold_min_matches for teams in per_session.values()
    )
    short = all(bounds[0] <= match.boards <= bounds[1] for match in played)
    return "minihold" if enough and short else "teams"


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
    (§ 405B7a). Each ranking group is a section; strength rows follow the groups' order (§ 405B5).

    D-Q8 (§ 405B4 "får alle rækker den samme MP-uddeling"): the same rule in every random row (M, r = 0), each
    on its own N, as § 405B1 computes MP "efter antallet af deltagere i rækken" (``random_rows_common_scale``)."""
    rules = rules_for(preview.upload.federation, preview.event.date)
    if event_form(preview) == "teams":
        return _dbf_teams(preview, rules)
    facts = preview.upload.facts
    boards, quota_issue = quota_boards(preview)
    split = "strength" if facts.get("split_by_strength") else "random"
    sections = []
    notes: list = []
    for group in preview.groups:
        rounds, bye_vp = (
            _minihold_byes(preview, group, rules, notes) if event_form(preview) == "minihold" else ((), None)
        )
        entries = tuple(
            dbf_events.Entry(
                entry=line.entry.key,
                first=line.entry.place_first,
                last=line.entry.place_last,
                players=_seated_players(preview, line, boards, notes),
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
                rounds=rounds,
                bye_vp=bye_vp,
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
    result = ScoringResult(awards=dbf_events.pair_event_awards(event, rules), issues=[*quota_issue, *notes])
    note_groups_awarding_nothing(preview, result)
    return result


#: The seats of an entry whose SP/GP a substitute may take instead of a player (§ 405B7b, D-Q62).
SEATS = {"pairs": 2, "individual": 1}


def _seated_players(preview: Preview, line, boards: int, notes: list) -> tuple[dbf_events.Player, ...]:
    """An entry's players for the engine, each with their boards, and who substituted for whom.

    D-Q62 (§ 405B7b "Kan spilleren således ikke få SP eller GP, uddeles disse i stedet dennes substitut, hvis
    vedkommende har spillet mindst halvdelen af spillene"): a substitute is paid *instead of* the player replaced,
    only when that player is not; a pair's SP/GP go to at most two players (an individual's to one). No results
    file says who replaced whom, so in an SP/GP pairs or individual event the players the file lists first fill
    the seats and each further one substitutes for the seated player with the fewest boards not yet replaced
    (the first of equals): the one who was away. The preview names each such assumption (SUBSTITUTE_ASSUMED);
    the director who knows otherwise lists the players in that order. BP go to whoever played (§ 405B6b)."""
    players = [
        dbf_events.Player(player=player.key, boards=_recorded(player.boards_played, line, boards))
        for player in line.players
    ]
    seats = SEATS.get(event_form(preview))
    if preview.upload.facts.get("category") == "BP" or seats is None or len(players) <= seats:
        return tuple(players)
    seated, replaced = players[:seats], set()
    out = list(seated)
    for index in range(seats, len(players)):
        free = [p for p in seated if p.player not in replaced] or seated
        away = min(free, key=lambda p: p.boards)
        replaced.add(away.player)
        out.append(dataclasses.replace(players[index], substitute_for=away.player))
        names = {p.key: p.name for p in line.players}
        params = {
            "substitute": names[players[index].player],
            "player": names[away.player],
            "substitute_boards": players[index].boards,
            "player_boards": away.boards,
        }
        notes.append(CheckIssue("SUBSTITUTE_ASSUMED", line.players[index].where, params))
    return tuple(out)


def quota_boards(preview: Preview) -> tuple[int, list]:
    """The boards that set a DBf pairs, individual or mini-team event's quota n1 (§ 405B6c, § 405B7c, § 405B7g)
    and each player's half (§ 405B7b), and the preview's line naming them when the file's two counts differ.

    D-Q63 (§ 405B7c "Hvis der spilles 42 eller flere spil i den samlede turnering, beregnes fuld kvote SP";
    § 405B6c "min. 18 spil pr. spilledag"; § 405B7b "det antal spil …, som turneringen er tilrettelagt med for
    denne spiller"): the boards counted are those the tournament has each participant play, which the file
    states (a PBN's NrBoards, the declared boards), not the boards its travellers hold: a movement with a
    sit-out or a relay puts more boards in play than any pair plays (27 travellers, 24 boards a pair). The
    director's figure on the form wins; else the declared boards; else the travellers' count. When the file's
    two counts differ, the preview says which was used, why, and that the director may enter the other
    (QUOTA_BOARDS)."""
    facts, event = preview.upload.facts, preview.event
    declared, counted = event.boards_declared, event.boards_played
    boards = int(facts.get("boards") or declared or counted or 0)
    issues = []
    if not facts.get("boards") and declared and counted and declared != counted:
        params = {"declared": declared, "counted": counted, "used": boards}
        issues.append(CheckIssue("QUOTA_BOARDS", params=params))
    return boards, issues


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


def _minihold_byes(preview: Preview, group: GroupLine, rules, notes: list) -> tuple[tuple, Fraction | None]:
    """The rounds and bye score a mini-team row is ranked on for MP (§ 421B), or none: the file's places stand.

    D-Q23 (revised; § 421B "Ved et ulige antal hold kan der af hensyn til MP-uddelingen gives en erstatningsscore
    (fx 13 KP ved 20/0-skalaen (§ 202A)) til oversidderhold"): "kan … gives" leaves the substitute score to the
    organiser, and 13 VP is the text's example. A row with byes keeps the file's places unless the upload states
    the organiser's bye score (the form's ``bye_vp``); with one, the row is ranked on VP with each bye counting the
    file's own bye score or else that one (equal totals share, § 405B3). The preview names the byes either way
    (MINIHOLD_BYES_FILE_PLACES) and every place the bye score changes (MINIHOLD_BYE_PLACE_CHANGED)."""
    rounds = _minihold_rounds(preview, group)
    if not any(item.bye for item in rounds):
        return (), None
    given = preview.upload.facts.get("bye_vp")
    if given in (None, ""):
        notes.append(CheckIssue("MINIHOLD_BYES_FILE_PLACES", params={"group": group_label(group)}))
        return (), None
    bye_vp = Fraction(str(given))
    keys = [line.entry.key for line in group.entries if not is_absent(line)]
    ranking = dbf_minihold.bye_ranking(keys, rounds, rules, bye_vp=bye_vp)
    for line in group.entries:
        if ranking is None or line.entry.key not in ranking.places:
            continue
        first, last = ranking.places[line.entry.key]
        if (first, last) != (line.entry.place_first, line.entry.place_last):
            params = {
                "entry": line.entry.name or line.entry.number,
                "file_place": line.entry.place_in_file or line.entry.place_first,
                "place": first if first == last else f"{first}-{last}",
                "vp": fmt(ranking.totals[line.entry.key]),
                "bye_vp": fmt(bye_vp),
            }
            notes.append(CheckIssue("MINIHOLD_BYE_PLACE_CHANGED", line.entry.where, params))
    return rounds, bye_vp


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

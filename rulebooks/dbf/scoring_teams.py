"""The DBf team events of an upload: MP per player per match from the file's VP (§ 406A, § 411B) and the BP bonus
for the final placing (§ 412B), with the facts the file's matches show (rows by strength, Swiss, walkovers).

Called by :func:`rulebooks.dbf.scoring.score_dbf` for a team event; it returns the awards and the preview's
issues, and imports nothing from ``scoring`` (the dispatch stays there).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from masterpoints.engine.common import PlayerAward, RequestError
from masterpoints.engine.dbf import events as dbf_events
from masterpoints.engine.dbf import team_events as dbf_teams
from masterpoints.engine.dbf.scale import fmt
from masterpoints.engine.dbf.teams import team_row_value
from masterpoints.uploads.lines import GroupLine, Preview, group_label
from tournaments.issues import Issue

#: The team table an upload uses by category when the director names none (§ 412A, § 413A; GP needs its own).
DBF_TEAM_TABLES = {"BP": "bp", "SP": "sp_outside_pyramid"}
#: The SP team events of § 413B–F the upload form offers (``facts["team_table"]``): DBf's pyramid and festival.
DBF_SP_EVENTS = ("sp_third_div_qual", "sp_district_promotion", "sp_women_school", "sp_junior_qual", "sp_festival")


def team_table(preview: Preview, rules, issues: list) -> str:
    """The team table an SP/BP team upload pays by, named in the preview.

    D-Q67 (§ 413 "SP i holdkampe udenfor holdpyramiden" (A) beside "SP i distrikternes oprykningsturneringer" (C),
    the 3rd-division qualification (B), DBf's women's, school and junior qualifications (D, E) and "festivalens
    åbne holdturnering" (F)): no results file says which of these an event is, so the upload asks
    (``team_table``, one of :data:`DBF_SP_EVENTS`). Unasked, SP pay by § 413A; from a district, circle or DBf,
    which hold the § 413B–F events, the preview says so as a warning (TEAM_TABLE_ASSUMED), instead of paying a
    promotion tournament as § 413A in silence. A club's team event is § 413A's (§ 403: the pyramid and the
    festival are DBf's and the districts'), so a club naming one of § 413B–F is refused. A chosen event is
    named with its paragraph (TEAM_TABLE)."""
    facts = preview.upload.facts
    category, chosen = facts["category"], facts.get("team_table") or ""
    if chosen and (category != "SP" or chosen not in DBF_SP_EVENTS):
        raise RequestError("team_table", f"{chosen} is an SP team event of § 413B–F, not {category}")
    if chosen and facts.get("organiser_kind", "club") == "club":
        raise RequestError("team_table", "a club's team event pays SP by § 413A; § 413B–F are DBf's and districts'")
    if chosen:
        issues.append(Issue("TEAM_TABLE", params={"rule": rules.team_table(chosen).source}))
        return chosen
    if category == "SP" and facts.get("organiser_kind", "club") != "club":
        issues.append(Issue("TEAM_TABLE_ASSUMED"))
    return DBF_TEAM_TABLES.get(category)


def dbf_team_awards(preview: Preview, rules, *, boards: int) -> tuple[list[PlayerAward], list]:
    """A team event: MP per player per match from the file's VP (§ 406A, § 411B) by the event's table
    (:func:`team_table`) and the bonus for the final placing its table pays (§ 412B, § 413B–D, § 413F).

    Files give each player's boards for the whole event, not per match: a player with all of the team's
    boards played every match in full; one with fewer is taken to have played that share of every match
    (§ 405A1's share, spread evenly), which the preview flags (TEAM_SHARE_ESTIMATED).

    Rows split by strength (§ 405A2 "uddeles MP gradueret efter styrken således, at den højest gældende række
    får flest MP"; § 412A2, § 412B2, § 413A2–4): with the upload's "rows split by strength" the file's ranking
    groups are the rows, top row first, and every match pays its row's value and every row's bonus its
    fraction of the A row's (TEAM_ROWS_BY_STRENGTH names each row's value). Where not every team met every
    other (§ 405A5, :func:`team_format`), the bonus is as for K + 1 teams (TEAM_SWISS_BONUS).

    ``boards`` is the event's (the director's figure, else the file's), for a group whose matches give none.
    Returns the awards and the preview's issues.
    """
    facts, event = preview.upload.facts, preview.event
    issues: list = []
    table = team_table(preview, rules, issues)
    if table is None:
        raise RequestError(
            "category",
            "GP team events pay by their own table (§ 414): the secretariat enters them under My office → "
            "Awards entered by the office (/office/awards/new/, § 451A)",
        )
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
            issues.append(_walkover_issue(match))
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
        issues.append(_rows_issue(preview, table, rows, rules))
    bonus = rules.team_table(table).bonus  # § 412B's formula, § 413B–D's tables, § 413F's festival bonus, or none
    standings = _bonus_standings(preview, matches, split, issues, boards, bonus) if bonus != "none" else []
    team_event = dbf_teams.TeamEvent(
        category=facts["category"],
        table=table,
        matches=tuple(matches),
        standings=tuple(standings),
        rows=rows if split == "strength" else 1,
        split=split,
        sanction=preview.sanction,  # § 403B2: a half-MP sanction halves every match
    )
    return dbf_teams.team_event_awards(team_event, rules), issues


def _bonus_standings(preview: Preview, matches, split: str, issues: list, event_boards: int, bonus: str) -> list:
    """Each group's final placing for the bonus (§ 412B, § 413B–D, § 413F): its row (or level) when split by
    strength, K and boards of the A row for the rows below (§ 412B2, D-Q20), the Swiss fact of § 405A5, and for
    BP a double round robin's two placings (§ 405A6, :func:`double_round_robin`; the engine pays the SP tables
    once, on the final placing), each named in the preview."""
    standings = []
    top: tuple[int, int] | None = None
    for group in preview.groups:
        per_team, boards = _matches_per_team(preview, group, matches, event_boards)
        rounds = double_round_robin(preview, group) if bonus == "formula" else None
        if rounds is not None:
            per_team //= 2  # § 405A6: each round's bonus for its own n - 1 matches
            issues.append(_double_issue(group, rounds))
        top = top or (per_team, boards)
        form = team_format(preview, group)
        if form == "monrad":
            issues.append(_swiss_issue(group, per_team))
        entries = tuple(standing_entry(line, per_team * boards) for line in group.entries)
        placings = [(group.group.key, entries)]
        if rounds is not None:
            placings = [
                (f"{group.group.key}#{index}", tuple(_placed(entry, places) for entry in entries))
                for index, places in enumerate(rounds, start=1)
            ]
        for key, placed in placings:
            standings.append(
                dbf_teams.Standing(
                    key=key,
                    teams=group.group.field_size,
                    matches=per_team,
                    boards=boards,
                    entries=placed,
                    row=group.row_number if split == "strength" else 1,
                    format=form,
                    top_row_matches=top[0] if split == "strength" else None,
                    top_row_boards=top[1] if split == "strength" else None,
                )
            )
    return standings


def double_round_robin(preview: Preview, group: GroupLine) -> list[dict[str, tuple[int, int]]] | None:
    """The placing of each of the two rounds of a double round robin, by entry key, or ``None`` when the group's
    matches are no double round robin (every two teams of it met exactly twice in the file).

    § 405A6 "Hvis der spilles en dobbelt serieturnering, således at alle hold møder hinanden i to fulde kampe,
    uddeles MP for de to omgange uafhængigt af hinanden, og der beregnes en eventuel bonus for hver af omgangene
    for sig." The matches already pay one by one; the bonus is paid per round, each for n - 1 matches.

    D-Q65 (§ 405A6 "der beregnes en eventuel bonus for hver af omgangene for sig"; a results file gives only the
    final placing): a round's placing is the ranking on the VP each team scored in that round's matches (board
    points for a board-a-match event); equal totals share the places they cover, as ties do (§ 405B3). The
    first meeting of two teams in the file is of the first round, the second of the second. The preview names
    both placings (TEAM_DOUBLE_ROUND_ROBIN); an organiser whose rounds were decided otherwise (a tie-break) files
    the rounds as two uploads."""
    keys = {line.entry.number: line.entry.key for line in group.entries}
    meetings: dict[tuple[str, str], list[tuple[str, Fraction, Fraction]]] = {}
    seen = set()
    for match in preview.event.matches:
        if match.opponent is None or match.team not in keys or match.opponent not in keys:
            continue
        pair = tuple(sorted((match.team, match.opponent)))
        if (pair, match.session, match.round) in seen:
            continue
        seen.add((pair, match.session, match.round))
        mine = match.vp if match.vp is not None else match.score
        theirs = match.opponent_vp if match.opponent_vp is not None else match.opponent_score
        meetings.setdefault(pair, []).append((match.team, Fraction(mine or 0), Fraction(theirs or 0)))
    teams = len(keys)
    if teams < 2 or len(meetings) != teams * (teams - 1) // 2 or any(len(m) != 2 for m in meetings.values()):
        return None
    rounds = []
    for index in (0, 1):
        totals = dict.fromkeys(keys, Fraction(0))
        for pair, listed in meetings.items():
            team, mine, theirs = listed[index]
            other = pair[1] if team == pair[0] else pair[0]
            totals[team] += mine
            totals[other] += theirs
        rounds.append({keys[number]: _tied_places(totals, number) for number in keys})
    return rounds


def _tied_places(totals: dict[str, Fraction], number: str) -> tuple[int, int]:
    better = sum(1 for value in totals.values() if value > totals[number])
    equal = sum(1 for value in totals.values() if value == totals[number])
    return better + 1, better + equal


def _placed(entry: dbf_events.Entry, places: dict[str, tuple[int, int]]) -> dbf_events.Entry:
    first, last = places[entry.entry]
    return dataclasses.replace(entry, first=first, last=last)


def _double_issue(group: GroupLine, rounds: list[dict[str, tuple[int, int]]]):
    names = {line.entry.key: line.entry.name or line.entry.number for line in group.entries}

    def placing(places: dict[str, tuple[int, int]]) -> str:
        ordered = sorted(places.items(), key=lambda item: (item[1], item[0]))
        shown = [(f"{first}" if first == last else f"{first}-{last}", names[key]) for key, (first, last) in ordered]
        return ", ".join(f"{place}. {name}" for place, name in shown)

    params = {"group": group_label(group), "first": placing(rounds[0]), "second": placing(rounds[1])}
    return Issue("TEAM_DOUBLE_ROUND_ROBIN", params=params)


def _matches_per_team(preview: Preview, group: GroupLine, matches, event_boards: int) -> tuple[int, int]:
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
    boards = played[0] if played else (matches[0].boards if matches else event_boards)
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
    return Issue("TEAM_ROWS_BY_STRENGTH", params={"rows": ", ".join(values)})


def _swiss_issue(group: GroupLine, per_team: int):
    teams = group.group.field_size
    params = {"group": group_label(group), "teams": teams, "matches": per_team, "effective": min(teams, per_team + 1)}
    return Issue("TEAM_SWISS_BONUS", params=params)


def _walkover_issue(match):
    return Issue("TEAM_WALKOVER", match.where, {"round": match.round, "team": match.team, "opponent": match.opponent})


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

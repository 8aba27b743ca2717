"""A whole team tournament to per-player awards (``dbf.md`` §§ 2.4, 2.10–2.12, 2.16).

MP per player per match by the share of the match played (§ 405A1, § 406A, § 411; rounded per match, D-Q13)
and the bonus for final placing (§ 411D: the § 406A3 formula for BP, the § 413–414 tables for SP and GP,
the festival bonus of § 413F). Player and entry keys are the caller's opaque strings; one
:class:`~masterpoints.engine.common.PlayerAward` per player per match and per bonus standing.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from masterpoints.engine.common import Explanation, PlayerAward, RequestError, parse_ranks
from masterpoints.engine.dbf.events import SANCTIONS, Entry, Player, place_inputs
from masterpoints.engine.dbf.rules import CATEGORIES, DBF_2023, DbfRuleSet
from masterpoints.engine.dbf.scale import Scale
from masterpoints.engine.dbf.teams import (
    TeamBonusRequest,
    TeamMatchRequest,
    cup_value,
    festival_bonus,
    fixed_team_bonus,
    team_bonus,
    team_match,
    team_row_value,
)

# --- team events --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamSide:
    """One team in a match: its players with the boards each played, and its outcome as ``result``
    (``win``/``draw``/``loss``/``walkover``: won without play), or ``vp`` (20-point scale after penalties), or
    ``bam_score`` (of 2 per board)."""

    entry: str
    players: tuple[Player, ...]
    result: str | None = None
    vp: Fraction | None = None
    bam_score: Fraction | None = None


@dataclass(frozen=True)
class Match:
    """One match: ``row`` (1 = top) picks the row value (§ 2.4); ``cup_round`` the § 414H round for cups;
    ``value`` overrides the table (per player, a won full match)."""

    key: str
    boards: int
    home: TeamSide
    away: TeamSide
    row: int = 1
    cup_round: str | None = None
    value: Fraction | None = None


@dataclass(frozen=True)
class Standing:
    """The final placing of one row, or of one round of a double round robin (§ 405A6), for the bonus.

    ``entries`` carry the places and, per player, the boards played for the team; ``planned_boards`` is
    the team's boards there (§ 411D). ``teams`` (T), ``matches`` (K, byes excluded), ``boards`` per match.
    ``parallel_rows``: equal rows without a play-off share the bonus (§ 411D2a).
    """

    key: str
    entries: tuple[Entry, ...]
    teams: int
    matches: int
    boards: int
    row: int = 1
    format: str = "round_robin"
    parallel_rows: int = 1
    top_row_matches: int | None = None
    top_row_boards: int | None = None


@dataclass(frozen=True)
class TeamEvent:
    """A team tournament of kind ``table`` (``rules.team_tables`` or ``rules.cup_tables`` keys).

    ``sanction``: a club's SP/GP sanction as for pairs (``events.SANCTIONS``); ``"half"`` halves every
    match's MP (§ 403B2). The bonus tables are DBf's own events' (§ 413–414), which no sanction touches.
    """

    category: str
    table: str
    matches: tuple[Match, ...] = ()
    standings: tuple[Standing, ...] = ()
    rows: int = 1
    split: str = "random"
    sanction: str = "none"


def team_event_awards(event: TeamEvent, rules: DbfRuleSet = DBF_2023) -> list[PlayerAward]:
    """Every player's MP per match (p-406a, § 406A, § 411; one award per player per match, rounded per
    match, D-Q13) and bonus for final placing (§ 406A3 for BP, the § 413–414 tables for SP/GP)."""
    if event.category not in CATEGORIES:
        raise RequestError("category", f"unknown category {event.category!r}: one of {', '.join(CATEGORIES)}")
    if event.sanction not in SANCTIONS:
        raise RequestError("sanction", f"unknown sanction {event.sanction!r}: one of {', '.join(SANCTIONS)}")
    cup = event.table in {name for name, _ in rules.cup_tables}
    table_category = "GP" if cup else _team_table_category(event.table, rules)
    if table_category != event.category:
        raise RequestError("table", f"{event.table} awards {table_category}, not {event.category}")
    awards: list[PlayerAward] = []
    for i, match in enumerate(event.matches):
        awards += _match_awards(event, match, cup, rules, f"matches[{i}]")
    seen_rows: set[int] = set()
    for i, standing in enumerate(event.standings):
        at = f"standings[{i}]"
        if cup:
            raise RequestError(f"{at}", "the cup pays no bonus for final placing (§ 414H)")
        kind = rules.team_table(event.table).bonus
        if kind != "formula" and standing.row in seen_rows:
            raise RequestError(
                at, "the SP/GP bonus tables pay once, on the final placing (§ 405A6 concerns BP): one standing per row"
            )
        seen_rows.add(standing.row)
        awards += _standing_awards(event, standing, kind, rules, at)
    return awards


def _team_table_category(table: str, rules: DbfRuleSet) -> str:
    try:
        return rules.team_table(table).category
    except KeyError:
        names = [name for name, _ in rules.team_tables] + [name for name, _ in rules.cup_tables]
        raise RequestError("table", f"unknown team table {table!r}: one of {', '.join(names)}") from None


def _match_awards(event: TeamEvent, match: Match, cup: bool, rules: DbfRuleSet, at: str) -> list[PlayerAward]:
    if match.boards < 1:
        raise RequestError(f"{at}.boards", f"a match has at least one board, not {match.boards}")
    if match.value is not None:
        value = match.value
    elif cup:
        if match.cup_round is None:
            raise RequestError(f"{at}.cup_round", "a cup match needs its round (§ 414H)")
        value = cup_value(event.table, match.cup_round, rules)
    else:
        try:
            value = team_row_value(event.table, event.rows, match.row, event.split, rules)
        except RequestError as exc:
            raise RequestError(f"{at}.{exc.field}", exc.message) from None
    walkover = any(side.result == "walkover" for side in (match.home, match.away))
    stated = (match.home.result, match.away.result)
    if not walkover and None not in stated and stated not in (("win", "loss"), ("loss", "win"), ("draw", "draw")):
        raise RequestError(f"{at}.result", f"the stated results {stated[0]} and {stated[1]} do not fit together")
    out = []
    for side_name, side in (("home", match.home), ("away", match.away)):
        where = f"{at}.{side_name}"
        result = "walkover" if walkover else side.result
        for player in side.players:
            if not 0 <= player.boards <= match.boards:
                raise RequestError(
                    f"{where}.players", f"{player.player} played {player.boards} of the match's {match.boards} boards"
                )
            request = TeamMatchRequest(
                category=event.category,
                value=value,
                boards=match.boards,
                result=result,
                vp=None if walkover else side.vp,
                bam_score=None if walkover else side.bam_score,
                share=Fraction(player.boards, match.boards),
                quota="half" if event.sanction == "half" else None,
            )
            try:
                award = team_match(request, rules)
            except RequestError as exc:
                raise RequestError(f"{where}.{exc.field}", exc.message) from None
            if cup and award.result == "draw":
                raise RequestError(f"{where}.result", "a cup match always has a winner (§ 411B3)")
            rule_ids = award.explanation.rules + (("§ 414H",) if cup else ())
            inputs = (*award.explanation.inputs, ("boards_played", f"{player.boards}/{match.boards}"))
            if cup:
                inputs += (("cup_round", match.cup_round or ""),)
            out.append(
                PlayerAward(
                    player.player,
                    side.entry,
                    event.category,
                    award.units,
                    Explanation(rule_ids, inputs, award.explanation.reason),
                    match.key,
                )
            )
    return out


def _standing_scale(event: TeamEvent, standing: Standing, kind: str, rules: DbfRuleSet) -> Scale | None:
    if kind == "formula":
        return team_bonus(
            TeamBonusRequest(
                matches=standing.matches,
                boards=standing.boards,
                teams=standing.teams,
                format=standing.format,
                rows=event.rows,
                row=standing.row,
                split=event.split,
                top_row_matches=standing.top_row_matches,
                top_row_boards=standing.top_row_boards,
            ),
            rules,
        )
    if kind == "table":
        return fixed_team_bonus(
            event.table,
            standing.row,
            rules,
            boards=standing.boards,
            parallel_rows=standing.parallel_rows,
            teams=standing.teams,
        )
    if kind == "festival":
        return festival_bonus(
            standing.teams,
            event.rows,
            standing.row,
            event.split,
            rules,
            format=standing.format,
            matches=standing.matches,
        )
    return None


def _standing_awards(event: TeamEvent, standing: Standing, kind: str, rules: DbfRuleSet, at: str) -> list[PlayerAward]:
    """Bonus for final placing: a player (or, except for GP, a substitute) who played at least half the team's
    boards gets the full bonus of the team's place (§ 411D, § 414A); ties share the sum (§ 2.9)."""
    try:
        bonus = _standing_scale(event, standing, kind, rules)
    except RequestError as exc:
        raise RequestError(f"{at}.{exc.field}", exc.message) from None
    if bonus is None:
        raise RequestError(at, f"{event.table} pays no bonus for final placing (§ 411D2, § 413A, § 413E)")
    ranks = parse_ranks([list(e.places) for e in standing.entries], field_size=standing.teams, name=f"{at}.entries")
    out = []
    for k, (entry, (first, last)) in enumerate(zip(standing.entries, ranks, strict=True)):
        units = bonus.share_units(first, last) if bonus.places_paid else 0
        if entry.planned_boards is None or entry.planned_boards < 1:
            raise RequestError(f"{at}.entries[{k}].planned_boards", "give the team's boards (§ 411D: half of them)")
        for player in entry.players:
            enough = player.boards >= entry.planned_boards * rules.bonus_min_share
            eligible, why = enough, ("played at least half the team's boards (§ 411D)" if enough else "less than half")
            if event.category == "GP" and (player.substitute_for is not None or not player.registered):
                eligible, why = False, "substitutes and unregistered players get no GP bonus (§ 414A)"
            rule_ids = (*bonus.explanation.rules, "§ 411D") + (("§ 405B3", "D-Q12") if first != last else ())
            inputs = (
                *bonus.explanation.inputs,
                *place_inputs(first, last),
                ("boards_played", f"{player.boards}/{entry.planned_boards}"),
                ("eligibility", why),
            )
            out.append(
                PlayerAward(
                    player.player,
                    entry.entry,
                    event.category,
                    units if eligible else 0,
                    Explanation(tuple(dict.fromkeys(rule_ids)), inputs, bonus.explanation.reason),
                    f"bonus/{standing.key}",
                )
            )
    return out

"""Team events: one match per player (p-406a), the BP bonus for final placing (p-406b) and the fixed
SP/GP bonuses (§ 405A, § 406A, §§ 411–414; ``dbf.md`` §§ 2.4, 2.10–2.12).

A match pays ``⌈M_row · n1 · S · w⌉_u`` to each player: ``w`` is 1 for a win, ½ for a draw (places 1 and 2
tied with Q = 0, § 411C) and 0 for a loss or a walkover (§ 411B4). ``n1 = min(1, b/N)`` with N = 24/32/40
boards (§ 405A3) and ``S`` the share of the match the player played (§ 405A1). Rounded per player per match
(§ 406C, D-Q13).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from masterpoints.engine.common import Explanation, Reason, RequestError, ceil_units, format_units
from masterpoints.engine.dbf.rules import CATEGORIES, DBF_2023, SPLITS, DbfRuleSet
from masterpoints.engine.dbf.scale import KIND_DECIMALS, Scale, fmt, places_paid

RESULTS: tuple[str, ...] = ("win", "draw", "loss", "walkover")
FORMATS: tuple[str, ...] = ("round_robin", "monrad")
#: § 411C: a won match gets all its MP, a draw shares them equally; § 411B4: a walkover pays nothing.
RESULT_WEIGHT = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0), "walkover": Fraction(0)}


# --- values per row (dbf.md § 2.4) --------------------------------------------------------------------------------


def team_row_value(table: str, rows: int, row: int, split: str, rules: DbfRuleSet = DBF_2023) -> Fraction:
    """Per-player MP for a won full match in ``row`` (1 = top) of a team event of kind ``table``.

    BP (§ 412A): 16 for rows split at random; strength rows A = 16 + R, B = 12 + R, C = 10 + R, each
    further row 2 less. SP/GP: the printed per-row values of §§ 413–414 (not "M = 5", D-Q16).
    """
    try:
        spec = rules.team_table(table)
    except KeyError:
        names = ", ".join(name for name, _ in rules.team_tables)
        raise RequestError("table", f"unknown team table {table!r}: one of {names}") from None
    if rows < 1:
        raise RequestError("rows", f"need at least 1 row, not {rows}")
    if not 1 <= row <= rows:
        raise RequestError("row", f"row must lie between 1 and rows = {rows}, not {row}")
    if split not in SPLITS:
        raise RequestError("split", f"unknown split {split!r}: one of {', '.join(SPLITS)}")
    if spec.levels:
        if row > len(spec.levels):
            raise RequestError("row", f"{table} has {len(spec.levels)} level(s) ({spec.source}), not {row}")
        return spec.levels[row - 1]
    if (split == "random" or rows == 1) and spec.random is not None:
        return spec.random
    if table == "bp":
        return bp_row_value(rows, row, rules)
    values = rules.team_table_values(spec, rows)
    if values is None:
        raise RequestError("rows", f"{table} has no values for {rows} rows ({spec.source})")
    return values[row - 1]


def bp_row_value(rows: int, row: int, rules: DbfRuleSet = DBF_2023) -> Fraction:
    """§ 412A2: A = 16 + R, B = 12 + R, C = 10 + R, every further row 2 BP less than the row above."""
    bases = rules.bp_team_row_bases
    if row <= len(bases):
        return bases[row - 1] + rows
    return bases[-1] + rows - rules.bp_team_row_step * (row - len(bases))


def cup_value(table: str, round_key: str, rules: DbfRuleSet = DBF_2023) -> Fraction:
    """§ 414H: GP per won cup match by round (main event or breadth event, ``dbf.md`` § 2.16)."""
    try:
        rounds = rules.lookup(rules.cup_tables, table)
    except KeyError:
        names = ", ".join(name for name, _ in rules.cup_tables)
        raise RequestError("table", f"unknown cup table {table!r}: one of {names}") from None
    try:
        return rules.lookup(rounds, round_key)
    except KeyError:
        names = ", ".join(name for name, _ in rounds)
        raise RequestError("cup_round", f"unknown cup round {round_key!r}: one of {names}") from None


# --- one match (p-406a) -------------------------------------------------------------------------------------------


def match_quota(category: str, boards: int, rules: DbfRuleSet = DBF_2023) -> Fraction:
    """n1 = min(1, b/N), N = 24 (BP), 32 (SP), 40 (GP) boards per match (§ 405A3)."""
    return min(Fraction(1), Fraction(boards, rules.board_reference(category)))


def classify_vp(vp: Fraction, rules: DbfRuleSet = DBF_2023) -> str:
    """§ 411B1 on the 20-point VP scale after penalties: win ≥ 14, draw 6.01 … < 14, loss < 6.01."""
    if vp < 0 or vp > rules.vp_scale_max or (vp * 100).denominator != 1:
        raise RequestError(
            "vp", f"VP must lie on the 0–{fmt(rules.vp_scale_max)} scale with at most two decimals, not {fmt(vp)}"
        )
    if vp >= rules.vp_win:
        return "win"
    if vp >= rules.vp_draw_min:
        return "draw"
    return "loss"


def classify_bam(score: Fraction, boards: int, rules: DbfRuleSet = DBF_2023) -> str:
    """§ 411B2: of the achievable 2 per board, win ≥ 62.5 %, draw > 37.5 % and < 62.5 %, loss ≤ 37.5 %."""
    if boards < 1:
        raise RequestError("boards", "a board-a-match result needs at least one board")
    achievable = 2 * boards
    if score < 0 or score > achievable:
        raise RequestError("bam_score", f"the BAM score must lie between 0 and {achievable}, not {fmt(score)}")
    share = Fraction(score) / achievable
    if share >= rules.bam_win_share:
        return "win"
    if share <= rules.bam_loss_share:
        return "loss"
    return "draw"


@dataclass(frozen=True)
class TeamMatchRequest:
    """One player's match (``engine-cli.md`` ``"kind": "team_match"``): the row's per-player ``value`` for a
    won full match, the boards in the match, the outcome (``result`` or ``vp`` or ``bam_score``), the
    ``share`` of the match this player played, and ``quota`` ``"half"`` for a club's tournament sanctioned
    "med halv MP-uddeling" (§ 403B2: n1 halved, as for pairs)."""

    category: str
    value: Fraction
    boards: int
    result: str | None = None
    vp: Fraction | None = None
    bam_score: Fraction | None = None
    share: Fraction = Fraction(1)
    quota: str | None = None


@dataclass(frozen=True)
class TeamMatchAward:
    result: str
    kind: str
    units: int
    explanation: Explanation

    @property
    def amount(self) -> str:
        return format_units(self.units, KIND_DECIMALS[self.kind])


def match_result(request: TeamMatchRequest, rules: DbfRuleSet = DBF_2023) -> tuple[str, str]:
    """The outcome and the rule that classified it (§ 411B1 VP, § 411B2 BAM, § 411B3 stated result)."""
    given = [name for name in ("result", "vp", "bam_score") if getattr(request, name) is not None]
    if len(given) != 1:
        raise RequestError("result", "give exactly one of 'result', 'vp' or 'bam_score'")
    if request.vp is not None:
        return classify_vp(request.vp, rules), "§ 411B1"
    if request.bam_score is not None:
        return classify_bam(request.bam_score, request.boards, rules), "§ 411B2"
    if request.result not in RESULTS:
        raise RequestError("result", f"result must be one of {', '.join(RESULTS)}, not {request.result!r}")
    return request.result, ("§ 411B4" if request.result == "walkover" else "§ 411B3")


def team_match(request: TeamMatchRequest, rules: DbfRuleSet = DBF_2023) -> TeamMatchAward:
    """MP of one player for one match: ``⌈value · n1 · S · w⌉_u`` (p-406a, § 406A1–2; ``dbf.md`` § 2.10).

    d = 1 and Q = 0 with 0^0 = 1 give w = 1 (win), ½ (draw: places 1–2 tied, § 411C), 0 (loss). A walkover
    counts as won but pays no MP (§ 411B4). Rounded per player per match (§ 406C, D-Q13).
    """
    if request.category not in CATEGORIES:
        raise RequestError("category", f"unknown category {request.category!r}: one of {', '.join(CATEGORIES)}")
    if request.value <= 0:
        raise RequestError("value", f"the match value must be positive, not {fmt(request.value)}")
    if request.boards < 0:
        raise RequestError("boards", f"the number of boards cannot be negative ({request.boards})")
    if not 0 <= request.share <= 1:
        raise RequestError("share", f"the share of the match played lies between 0 and 1, not {fmt(request.share)}")
    if request.quota not in (None, "full", "half"):
        raise RequestError("quota", f"quota must be full or half, not {request.quota!r}")
    result, result_rule = match_result(request, rules)
    unit = rules.unit(request.category)
    n1 = match_quota(request.category, request.boards, rules)
    quota: tuple[tuple[str, str], ...] = ()
    if request.quota == "half":
        n1 /= 2
        quota = (("quota", "half"),)
    weight = RESULT_WEIGHT[result]
    units = ceil_units(request.value * n1 * request.share * weight, unit)
    expl = Explanation(
        ("§ 406A1", "§ 406A2", result_rule, "§ 411C", "§ 405A3", "§ 405A1")
        + (("§ 403B2",) if quota else ())
        + ("§ 406C", "D-Q13"),
        (
            ("category", request.category),
            ("M", fmt(request.value)),
            ("boards", str(request.boards)),
            ("N_ref", str(rules.board_reference(request.category))),
            *quota,
            ("n1", fmt(n1)),
            ("result", result),
            ("w", fmt(weight)),
            ("share", fmt(request.share)),
        ),
    )
    return TeamMatchAward(result, request.category, units, expl)


# --- bonus for final placing --------------------------------------------------------------------------------------


def effective_teams(teams: int, matches: int, format: str) -> int:
    """T_eff: T for a round robin; min(T, K + 1) for Monrad/Swiss (§ 405A5)."""
    return teams if format == "round_robin" else min(teams, matches + 1)


@dataclass(frozen=True)
class TeamBonusRequest:
    """A BP team event's bonus (``engine-cli.md`` ``"kind": "team_bonus"``). ``matches`` is K, the matches
    each team of this row actually plays (byes are no match, D-Q20); ``boards`` per match. Rows below A
    take their fraction of the A row's bonus (§ 412B2, D-Q20): ``top_row_matches``/``top_row_boards`` give
    the A row's K and boards when they differ from this row's. A double round robin asks once per round
    (§ 405A6)."""

    matches: int
    boards: int
    teams: int
    format: str = "round_robin"
    rows: int = 1
    row: int = 1
    split: str = "random"
    top_row_matches: int | None = None
    top_row_boards: int | None = None


def bp_bonus_row_fraction(rows: int, row: int, split: str, rules: DbfRuleSet = DBF_2023) -> Fraction:
    """f_row (§ 412B): 1 for rows split at random; A 1, B 2/3, C 1/2 and every lower row as C."""
    if split == "random" or rows <= 1:
        return Fraction(1)
    fractions = rules.bp_bonus_row_fractions
    return fractions[min(row, len(fractions)) - 1]


def team_bonus(request: TeamBonusRequest, rules: DbfRuleSet = DBF_2023) -> Scale:
    """BP bonus for final placing (p-406b, § 406A3–4, § 411D1, § 412B; ``dbf.md`` § 2.11).

    ``Bonus(p) = ⌈B · K · n1 · f_row · 2/(p + 1)⌉_1`` for p ≤ ⌈T_eff/3⌉, B = 10, n1 = min(1, b/24)
    (§ 405A4), T_eff = min(T, K + 1) for Monrad (§ 405A5). K and n1 are the A row's for rows below A.
    """
    r = request
    for name in ("matches", "teams"):
        if getattr(r, name) < 1:
            raise RequestError(name, f"'{name}' must be at least 1, not {getattr(r, name)}")
    if r.boards < 0:
        raise RequestError("boards", f"the number of boards cannot be negative ({r.boards})")
    if r.format not in FORMATS:
        raise RequestError("format", f"format must be one of {', '.join(FORMATS)}, not {r.format!r}")
    if r.rows < 1:
        raise RequestError("rows", f"need at least 1 row, not {r.rows}")
    if not 1 <= r.row <= r.rows:
        raise RequestError("row", f"row must lie between 1 and rows = {r.rows}, not {r.row}")
    if r.split not in SPLITS:
        raise RequestError("split", f"unknown split {r.split!r}: one of {', '.join(SPLITS)}")
    for name in ("top_row_matches", "top_row_boards"):
        value = getattr(r, name)
        if value is not None and value < 0:
            raise RequestError(name, f"'{name}' cannot be negative ({value})")
    strength_lower = r.split == "strength" and r.row > 1
    k_top = r.top_row_matches if strength_lower and r.top_row_matches is not None else r.matches
    b_top = r.top_row_boards if strength_lower and r.top_row_boards is not None else r.boards
    n1 = match_quota("BP", b_top, rules)
    f_row = bp_bonus_row_fraction(r.rows, r.row, r.split, rules)
    t_eff = effective_teams(r.teams, r.matches, r.format)
    places = places_paid(t_eff, rules.team_bonus_paid_share)
    winner = rules.bp_bonus_per_match * k_top * n1 * f_row
    raw = tuple(winner * Fraction(2, p + 1) for p in range(1, places + 1))
    rule_ids = ["§ 406A3", "§ 412B", "§ 411D1", "§ 405A4", "§ 406C", "D-Q20"]
    if r.format == "monrad":
        rule_ids.append("§ 405A5")
    inputs = (
        ("B", fmt(rules.bp_bonus_per_match)),
        ("K", str(k_top)),
        ("boards", str(b_top)),
        ("n1", fmt(n1)),
        ("f_row", fmt(f_row)),
        ("T", str(r.teams)),
        ("T_eff", str(t_eff)),
        ("p_max", str(places)),
    )
    unit = rules.unit("BP")
    if winner <= 0:
        reason = Reason.of("NO_BOARDS_NO_BONUS")
        expl = Explanation(tuple(rule_ids), inputs).because(reason)
        return Scale("BP", unit, r.teams, t_eff, 0, None, (), (), reason, expl)
    awards = tuple(ceil_units(v, unit) for v in raw)
    return Scale("BP", unit, r.teams, t_eff, places, None, raw, awards, None, Explanation(tuple(rule_ids), inputs))


def fixed_team_bonus(
    table: str,
    level: int = 1,
    rules: DbfRuleSet = DBF_2023,
    *,
    boards: int | None = None,
    parallel_rows: int = 1,
    teams: int | None = None,
) -> Scale:
    """The printed SP/GP bonus tables (§ 413B–D, § 414B–G; ``dbf.md`` § 2.12), per player, by level.

    § 413B–D are prorated by min(1, b/32) with b = boards per match (§ 405A4, D-Q18, a flag); § 414 bonuses
    are fixed (§ 414 intro). Parallel rows without a play-off share each value equally (§ 411D2a; GP 3rd
    division East/West: 14 and 8 become 7 and 4). Values are used as printed (13.3, 6.7: D-Q16).
    """
    try:
        levels = rules.lookup(rules.team_bonus_tables, table)
    except KeyError:
        names = ", ".join(name for name, _ in rules.team_bonus_tables)
        raise RequestError("table", f"no bonus table {table!r}: one of {names}") from None
    try:
        values = rules.lookup(levels, str(level))
    except KeyError:
        raise RequestError("row", f"{table} pays no bonus at level {level}") from None
    if parallel_rows < 1:
        raise RequestError("parallel_rows", f"need at least 1 row, not {parallel_rows}")
    kind = rules.team_table(table).category
    unit = rules.unit(kind)
    factor = Fraction(1, parallel_rows)
    rule_ids = ["§ 413" if kind == "SP" else "§ 414", "§ 411D", "D-Q16"]
    inputs: list[tuple[str, str]] = [("table", table), ("level", str(level))]
    if table in rules.prorated_bonus_tables and rules.pyramid_bonus_prorated:
        if boards is None or boards < 0:
            raise RequestError("boards", "the pyramid bonus is prorated by boards per match (D-Q18): give 'boards'")
        n1 = match_quota(kind, boards, rules)
        factor *= n1
        rule_ids += ["§ 405A4", "D-Q18"]
        inputs += [("boards", str(boards)), ("n1", fmt(n1))]
    if parallel_rows > 1:
        rule_ids.append("§ 411D2a")
        inputs.append(("parallel_rows", str(parallel_rows)))
    raw = tuple(v * factor for v in values)
    awards = tuple(ceil_units(v, unit) for v in raw)
    expl = Explanation((*rule_ids, "§ 406C"), (*inputs, ("p_max", str(len(raw)))))
    field = teams if teams is not None else len(raw)
    return Scale(kind, unit, field, field, len(raw), None, raw, awards, None, expl)


def festival_bonus(
    teams: int,
    rows: int = 1,
    row: int = 1,
    split: str = "random",
    rules: DbfRuleSet = DBF_2023,
    *,
    format: str = "round_robin",
    matches: int | None = None,
) -> Scale:
    """The festival open teams bonus (§ 413F2–7; ``dbf.md`` § 2.12): no. 1 gets X SP per team in the row
    (T_eff for Monrad, § 405A5), no. 2 2/3 of it, no. 3 3/4 of no. 2, no. 4 4/5 of no. 3; best four in each
    row; not prorated by boards (§ 405A4 excluded); rounded up (§ 406C)."""
    if teams < 1:
        raise RequestError("teams", f"need at least 1 team, not {teams}")
    if not 1 <= row <= rows:
        raise RequestError("row", f"row must lie between 1 and rows = {rows}, not {row}")
    if format not in FORMATS:
        raise RequestError("format", f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    if format == "monrad" and (matches is None or matches < 1):
        raise RequestError("matches", "a Monrad bonus is computed for K + 1 teams (§ 405A5): give 'matches'")
    x = rules.festival_bonus_random if split == "random" or rows == 1 else rules.festival_factors(rows)[row - 1]
    t_eff = effective_teams(teams, matches or 0, format)
    raw = []
    value = x * t_eff
    for link in rules.festival_bonus_chain:
        value *= link
        raw.append(value)
    unit = rules.unit("SP")
    awards = tuple(ceil_units(v, unit) for v in raw)
    expl = Explanation(
        ("§ 413F2", "§ 413F3–7", "§ 405A5", "§ 406C"),
        (("X", fmt(x)), ("T", str(teams)), ("T_eff", str(t_eff)), ("p_max", str(len(raw)))),
    )
    return Scale("SP", unit, teams, t_eff, len(raw), None, tuple(raw), awards, None, expl)

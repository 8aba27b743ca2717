"""MP scales for pairs, individual and mini-teams (§ 405B, § 406B; ``dbf.md`` §§ 2.1–2.9, 2.13, 2.14).

``MP(p) = ⌈ M · D' · Q^(p−1) · n1 · (1 + r) · m_post ⌉_u`` for 1 ≤ p ≤ p_max (formula p-406c as rebuilt in
``dbf.md`` § 2.8). Each factor has one small function here, and every constant comes from the rule set.
Arithmetic is exact (``Fraction``) except Q above 2/3, which is irrational: it is computed in 60-digit
``Decimal`` and rounded up with the ε tolerance of § 2.0 (D-Q14). Unrounded values are kept so that ties
share unrounded sums (§ 405B3, D-Q12).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from masterpoints.engine.common import (
    Explanation,
    Reason,
    RequestError,
    ceil_units,
    format_units,
    parse_ranks,
    tie_share,
)
from masterpoints.engine.dbf.rules import (
    CATEGORIES,
    DBF_2023,
    FORMS,
    ORGANIZERS,
    SPLITS,
    DbfRuleSet,
    fraction_text,
)

#: Digits of the Decimal arithmetic used for Q above 2/3 (D-Q14); far more than the ε of § 2.0 needs.
PRECISION = 60

KIND_DECIMALS = {"BP": 0, "SP": 1, "GP": 2}


def fmt(value: Fraction | int) -> str:
    """An exact number as text for explanations: ``"0.5"``, ``"2/3"``, ``"36"``."""
    return fraction_text(Fraction(value))


def fmt_ratio(value: Fraction | None) -> str | None:
    """Q with six decimals (``engine-cli.md``), rounded to nearest for display only."""
    if value is None:
        return None
    with localcontext() as ctx:
        ctx.prec = PRECISION
        dec = Decimal(value.numerator) / Decimal(value.denominator)
        return str(dec.quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP))


# --- the request and the answer -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScaleRequest:
    """The facts of one row (section) that decide its scale (``engine-cli.md`` ``"kind": "scale"``).

    ``boards``: per playing day for BP, the whole tournament for SP/GP (§ 405B6c, B7c). ``met``: the
    tournament-level number of opponents each participant met with a common top (D-Q5); ``None`` means
    everybody met everybody. ``multiplier`` is m_post (D-Q19). ``quota`` (``"full"``/``"half"``) and
    ``surcharge`` override n1 and n2 (§ 403B2, § 433B2a, § 433D–E). ``field`` is a D before n2 entered by
    the director where the rules leave it open (§ 433B2 with a preceding qualification; § 451A).
    ``top16`` is the § 443B top-16 individual (the field counts as 16).
    """

    form: str
    category: str
    participants: int
    boards: int
    organizer: str = "club"
    met: int | None = None
    robots: bool = False
    top16: bool = False
    rows: int = 1
    row: int = 1
    split: str = "random"
    multiplier: Fraction = Fraction(1)
    quota: str | None = None
    surcharge: Fraction | None = None
    field: Fraction | None = None


@dataclass(frozen=True)
class Scale:
    """A finished scale: unrounded values and rounded awards (integer units of ``unit``) per place.

    ``effective_field`` is D' (the field the award is computed for), ``places_paid`` p_max, ``ratio`` Q
    (``None`` for fixed tables and team bonuses). ``reason`` says why nothing is awarded, if so (its code and
    parameters; ``reason.text`` is the English sentence).
    """

    kind: str
    unit: Fraction
    participants: int
    effective_field: int
    places_paid: int
    ratio: Fraction | None
    raw: tuple[Fraction, ...]
    awards: tuple[int, ...]
    reason: Reason | None
    explanation: Explanation

    def raw_at(self, place: int) -> Fraction:
        """The unrounded value of ``place``; 0 beyond the paid places (§ 2.9)."""
        return self.raw[place - 1] if 1 <= place <= len(self.raw) else Fraction(0)

    def share_units(self, first: int, last: int) -> int:
        """Units for each entry tied on ``first…last``: the unrounded sum shared, then rounded up
        (§ 405B3, § 406C, D-Q12). A single place gives its own award."""
        if first == last:
            return self.awards[first - 1] if first <= len(self.awards) else 0
        return ceil_units(tie_share(self.raw_at, first, last), self.unit)

    def amounts(self) -> list[str]:
        return [format_units(units, KIND_DECIMALS[self.kind]) for units in self.awards]


def entry_awards(scale: Scale, ranks: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Units per entry for place ranges ``(first, last)`` (ties span several places), same order.

    Ties share the sum of their places' unrounded values, rounded up (§ 405B3, D-Q12). The ranks must be
    consistent (``common.parse_ranks``) and lie within the row's participants.
    """
    checked = parse_ranks([list(r) for r in ranks], field_size=scale.participants)
    return tuple(scale.share_units(first, last) for first, last in checked)


# --- the factors, one function each -------------------------------------------------------------------------------


def field_raw(request: ScaleRequest, rules: DbfRuleSet = DBF_2023) -> tuple[Fraction, str]:
    """D before rounding and n2 (``dbf.md`` § 2.5), with the rule that set it.

    * everybody met everybody (``met`` absent or N − 1), or no common top: N (§ 405B1);
    * BP, common top, not all met: min(N, 40) + max(0, N − 40)/5: the number met only switches the rule
      on (§ 405B6d; the footnote's 88 pairs give 1 + 39 + 48/5 = 49.6);
    * BP against robots: N/5 (§ 405B6e);
    * SP/GP, common top, not all met: 1 + m + (N − 1 − m)/2 (§ 405B7d);
    * top-16: 16 however many play (§ 443B3); a director's ``field`` wins (§ 451A).
    """
    n = request.participants
    if request.field is not None:
        return Fraction(request.field), "§ 451A"
    if request.top16:
        return Fraction(rules.top16_field), "§ 443B3"
    if request.robots:
        return Fraction(n, rules.robots_divisor), "§ 405B6e"
    met = request.met
    if met is None or met >= n - 1:
        return Fraction(n), "§ 405B1"
    if request.category == "BP":
        cap = rules.bp_common_top_cap
        return Fraction(min(n, cap)) + Fraction(max(0, n - cap), rules.bp_common_top_divisor), "§ 405B6d"
    return 1 + met + (n - 1 - met) * rules.sp_gp_unmet_weight, "§ 405B7d"


def quota_n1(
    category: str, organizer: str, boards: int, rules: DbfRuleSet = DBF_2023, quota: str | None = None
) -> tuple[Fraction, str]:
    """n1 for pairs, individual and mini-teams (``dbf.md`` § 2.2), with the rule that set it.

    BP per playing day: 1 from 18 boards, ½ from 12, else 0 (§ 405B6c). SP on the whole tournament: 1 from
    42, ½ from 27, else 0 (§ 405B7c). GP from a club with a sanction: 1 from 54, else 0 (§ 405B7g); GP
    from DBf: 1 (D-Q7, a setting). ``quota`` ``"full"``/``"half"`` overrides (§ 403B2, § 433D2, § 433E2).
    """
    if quota == "full":
        return Fraction(1), "quota: full"
    if quota == "half":
        return rules.half_quota, "quota: half (§ 403B2, § 433D2a, § 433E2)"
    if quota == "half_of_rule":  # D-Q64: a half-MP sanction halves what the board rule gives (§ 403B2)
        n1, rule = quota_n1(category, organizer, boards, rules)
        return n1 * rules.half_quota, f"{rule}; half MP (§ 403B2, D-Q64)"
    if category == "BP":
        full, half, rule = rules.bp_boards_full, rules.bp_boards_half, "§ 405B6c"
    elif category == "SP":
        full, half, rule = rules.sp_boards_full, rules.sp_boards_half, "§ 405B7c"
    elif organizer == "club" or rules.gp_federation_board_rule == "club":
        return (Fraction(1) if boards >= rules.gp_club_boards_full else Fraction(0)), "§ 405B7g"
    else:
        return Fraction(1), "D-Q7"
    if boards >= full:
        return Fraction(1), rule
    if boards >= half:
        return rules.half_quota, rule
    return Fraction(0), rule


def surcharge_n2(category: str, organizer: str, boards: int, rules: DbfRuleSet = DBF_2023) -> Fraction:
    """n2: 0 / 0.2 / 0.4 from 100 / 150 boards, SP only, organiser a district, kreds or DBf (§ 405B7f)."""
    if category not in rules.n2_categories or organizer not in rules.n2_organizers:
        return Fraction(0)
    n2 = Fraction(0)
    for minimum, value in rules.n2_bands:
        if boards >= minimum:
            n2 = value
    return n2


def row_factor(rows: int, row: int, split: str, rules: DbfRuleSet = DBF_2023) -> Fraction:
    """r of ``row`` (1 = top) among ``rows`` (§ 405B4–5, ``dbf.md`` § 2.3): 0 for one row or a random split;
    ±10 %, ±15 %/0, …; beyond five rows the extra rows sit in the middle at 0."""
    if split == "random" or rows <= 1:
        return Fraction(0)
    return rules.strength_row_factors(rows)[row - 1]


def places_paid(field: int, share: Fraction = Fraction(1, 3)) -> int:
    """p_max = ⌈D'·share⌉ (§ 405B2, § 406B3): "about 1/3", rounded up. ⌈⌈x⌉/3⌉ = ⌈x/3⌉ (``dbf.md`` § 2.6),
    so taking a third of the rounded field agrees with the footnotes' unrounded thirds."""
    return math.ceil(field * share)


def ratio(mp_min: Fraction, mp_max: Fraction, places: int, rules: DbfRuleSet = DBF_2023) -> Fraction:
    """Q (``dbf.md`` § 2.7, D-Q1): ``max(2/3, (MPmin/MPmax)^(1/(p_max − 1)))``, 2/3 for p_max ≤ 1.

    The comparison with 2/3 is exact; a Q above 2/3 is irrational and is returned as the exact value of
    its 60-digit decimal approximation, never below 2/3. The rule set's ``ratio_rule`` selects the
    alternatives of ``dbf.md`` § 3 (exponent 1/p_max, or a fixed 2/3).
    """
    base = rules.ratio_base
    if rules.ratio_rule == "fixed" or places <= 1 or mp_max <= 0:
        return base
    k = places - 1 if rules.ratio_rule == "min_at_last_paid" else places
    x = Fraction(mp_min) / Fraction(mp_max)
    if x <= base**k:
        return base
    with localcontext() as ctx:
        ctx.prec = PRECISION
        q = ((Decimal(x.numerator) / Decimal(x.denominator)).ln() / k).exp()
    return max(base, Fraction(q))


def geometric_values(amount: Fraction, q: Fraction, places: int) -> tuple[Fraction, ...]:
    """``amount · Q^(p−1)`` for p = 1…places, exact when Q is rational with a small denominator (2/3),
    otherwise through 60-digit ``Decimal`` powers (D-Q14)."""
    if places <= 0:
        return ()
    if q.denominator < 10**6:
        out = []
        value = Fraction(amount)
        for _ in range(places):
            out.append(value)
            value *= q
        return tuple(out)
    out = [Fraction(amount)]
    with localcontext() as ctx:
        ctx.prec = PRECISION
        qd = Decimal(q.numerator) / Decimal(q.denominator)
        power = Decimal(1)
        for _ in range(places - 1):
            power *= qd
            out.append(amount * Fraction(power))
    return tuple(out)


# --- the scale ----------------------------------------------------------------------------------------------------


def validate(request: ScaleRequest, rules: DbfRuleSet = DBF_2023) -> None:
    """Refuse requests the rules cannot answer; the error names the field (``engine-cli.md``)."""
    r = request
    if r.form not in FORMS:
        raise RequestError("form", f"unknown form {r.form!r}: one of {', '.join(FORMS)}")
    if r.category not in CATEGORIES:
        raise RequestError("category", f"unknown category {r.category!r}: one of {', '.join(CATEGORIES)}")
    if r.organizer not in ORGANIZERS:
        raise RequestError("organizer", f"unknown organizer {r.organizer!r}: one of {', '.join(ORGANIZERS)}")
    if r.category == "GP" and r.organizer in ("district", "circle"):
        raise RequestError(
            "organizer", f"a {r.organizer} may not award GP: only DBf, or a club with a GP sanction (§ 403)"
        )
    if r.participants < 1:
        raise RequestError("participants", f"need at least 1 participant, not {r.participants}")
    if r.boards < 0:
        raise RequestError("boards", f"the number of boards cannot be negative ({r.boards})")
    if r.met is not None and not 0 <= r.met <= r.participants - 1:
        raise RequestError("met", f"opponents met must lie between 0 and N − 1 = {r.participants - 1}, not {r.met}")
    if r.robots and r.category != "BP":
        raise RequestError("robots", "robot tournaments are a BP rule (§ 405B6e): refused with SP and GP")
    if r.robots and r.met not in (None, 0):
        raise RequestError("met", "against robots nobody meets another participant (§ 405B6e): leave 'met' out")
    if r.rows < 1:
        raise RequestError("rows", f"need at least 1 row, not {r.rows}")
    if not 1 <= r.row <= r.rows:
        raise RequestError("row", f"row must lie between 1 and rows = {r.rows}, not {r.row}")
    if r.split not in SPLITS:
        raise RequestError("split", f"unknown split {r.split!r}: one of {', '.join(SPLITS)}")
    if r.multiplier <= 0:
        raise RequestError("multiplier", f"the multiplier must be positive, not {fmt(r.multiplier)}")
    if r.quota not in (None, "full", "half", "half_of_rule"):
        raise RequestError("quota", f"quota must be full or half, not {r.quota!r}")
    if r.surcharge is not None:
        if r.surcharge < 0:
            raise RequestError("surcharge", f"the surcharge n2 cannot be negative ({fmt(r.surcharge)})")
        if r.category not in rules.n2_categories:
            raise RequestError("surcharge", "n2 applies to SP only (§ 405B7f, § 423A, § 433A, § 443A)")
    if r.field is not None and r.field <= 0:
        raise RequestError("field", "the field entered must be positive")
    if r.top16:
        if r.form != "individual" or r.category != "SP":
            raise RequestError("top16", "top-16 is an SP individual tournament (§ 443B)")
        if r.participants < rules.top16_field:
            raise RequestError(
                "participants", f"a top-16 cannot be played with fewer than 16 players (§ 443B3), not {r.participants}"
            )


@dataclass(frozen=True)
class _Factors:
    field_raw: Fraction
    field_rule: str
    n1: Fraction
    n1_rule: str
    n2: Fraction
    field: int
    places: int
    mass: Fraction
    r: Fraction
    amount: Fraction
    base_max: Fraction


def _factors(request: ScaleRequest, rules: DbfRuleSet) -> _Factors:
    d_raw, field_rule = field_raw(request, rules)
    n1, n1_rule = quota_n1(request.category, request.organizer, request.boards, rules, request.quota)
    n2 = (
        request.surcharge
        if request.surcharge is not None
        else surcharge_n2(request.category, request.organizer, request.boards, rules)
    )
    mass = rules.mass_factor(request.form, request.category)
    r = row_factor(request.rows, request.row, request.split, rules)
    if rules.n2_enlarges_field:
        # D-Q3: "som for et deltagerantal svarende til … + 20 %": the field itself grows, one rounding.
        field = ceil_units(d_raw * (1 + n2))
        amount = mass * field * n1 * (1 + r) * request.multiplier
    else:
        field = ceil_units(d_raw)
        amount = mass * field * (1 + n2) * n1 * (1 + r) * request.multiplier
    places = places_paid(field, rules.paid_share)
    # D-Q2: MPmax in Q is the base scale's winner (n1 = 1, r = 0, m_post = 1; n2 only through the field).
    base_max = mass * field if rules.q_from_base_scale else amount
    return _Factors(d_raw, field_rule, n1, n1_rule, n2, field, places, mass, r, amount, base_max)


def scale(request: ScaleRequest, rules: DbfRuleSet = DBF_2023) -> Scale:
    """The scale of one row (formula p-406c, § 406B1; ``dbf.md`` § 2.8).

    ``MP(p) = ⌈M·D'·Q^(p−1)·n1·(1 + r)·m_post⌉_u`` for p ≤ p_max; nothing when n1 = 0 (``reason`` says
    why). Q comes from the base scale (D-Q2) and the field D' includes n2 (D-Q3).
    """
    validate(request, rules)
    f = _factors(request, rules)
    unit = rules.unit(request.category)
    inputs: list[tuple[str, str]] = [
        ("form", request.form),
        ("category", request.category),
        ("organizer", request.organizer),
        ("N", str(request.participants)),
        ("boards", str(request.boards)),
    ]
    if request.met is not None:
        inputs.append(("met", str(request.met)))
    if request.robots:
        inputs.append(("robots", "yes"))
    inputs += [
        ("D_raw", fmt(f.field_raw)),
        ("n2", fmt(f.n2)),
        ("D", str(f.field)),
        ("p_max", str(f.places if f.n1 else 0)),
        ("M", fmt(f.mass)),
        ("n1", fmt(f.n1)),
        ("r", fmt(f.r)),
        ("m_post", fmt(request.multiplier)),
    ]
    rules_used = ["§ 406B1", "§ 405B1", f.field_rule, f.n1_rule]
    if f.n2:
        rules_used += ["§ 405B7f", "D-Q3"]
    rules_used.append("§ 405B5" if f.r else "§ 405B4")
    if request.multiplier != 1:
        rules_used.append("D-Q19")
    if f.n1 == 0:
        reason = _no_award_reason(request, rules, f.n1_rule)
        expl = Explanation(tuple(dict.fromkeys(rules_used)), tuple(inputs)).because(reason)
        return Scale(request.category, unit, request.participants, f.field, 0, None, (), (), reason, expl)
    q = ratio(unit, f.base_max, f.places, rules)
    raw = geometric_values(f.amount, q, f.places)
    awards = tuple(ceil_units(v, unit) for v in raw)
    rules_used += ["§ 405B2", "§ 406B3", "D-Q1", "D-Q2", "§ 406C", "D-Q14"]
    inputs += [("MPmax", fmt(f.amount)), ("Q", fmt_ratio(q) or "")]
    expl = Explanation(tuple(dict.fromkeys(rules_used)), tuple(inputs))
    return Scale(request.category, unit, request.participants, f.field, f.places, q, raw, awards, None, expl)


def _no_award_reason(request: ScaleRequest, rules: DbfRuleSet, rule: str) -> Reason:
    """Why n1 = 0: too few boards per playing day for BP (§ 405B6c), in the tournament for SP (§ 405B7c)
    and for GP at a club (§ 405B7g); ``rule`` is the one that set n1."""
    if request.category == "BP":
        return Reason.of("BP_TOO_FEW_BOARDS", boards=request.boards, need=rules.bp_boards_half, rule=rule)
    need = rules.sp_boards_half if request.category == "SP" else rules.gp_club_boards_full
    return Reason.of("SPGP_TOO_FEW_BOARDS", boards=request.boards, need=need, kind=request.category, rule=rule)


# --- fixed tables (§ 434A) ----------------------------------------------------------------------------------------


def fixed_scale(
    values: Sequence[Fraction], kind: str, participants: int, rules: DbfRuleSet, rule_ids: Sequence[str], **inputs: str
) -> Scale:
    """A scale printed as a table: values per place, rounded up to the unit; ties share sums (§ 2.9)."""
    unit = rules.unit(kind)
    raw = tuple(Fraction(v) for v in values)
    awards = tuple(ceil_units(v, unit) for v in raw)
    expl = Explanation(
        (*rule_ids, "§ 405B3", "D-Q12"),
        (("N", str(participants)), *inputs.items(), ("p_max", str(len(raw)))),
    )
    return Scale(kind, unit, participants, participants, len(raw), None, raw, awards, None, expl)


def pair_table_scale(table: str, participants: int, rules: DbfRuleSet = DBF_2023) -> Scale:
    """The fixed GP tables of § 434A1a–b, A2–A4 (``dbf.md`` § 2.14). DM open pairs 1st division with
    fewer than 40 pairs pays only the first ⌈N/3⌉ entries (§ 434A1b, D-Q9)."""
    try:
        values = rules.lookup(rules.pair_tables, table)
    except KeyError:
        names = ", ".join(name for name, _ in rules.pair_tables)
        raise RequestError("table", f"unknown pair table {table!r}: one of {names}") from None
    if participants < 1:
        raise RequestError("participants", f"need at least 1 participant, not {participants}")
    rule_ids = ["§ 434A"]
    reduced = dict(rules.pair_table_reduced_below)
    if table in reduced and participants < reduced[table]:
        values = values[: places_paid(participants, rules.paid_share)]
        rule_ids.append("D-Q9")
    return fixed_scale(values, "GP", participants, rules, rule_ids, table=table)


def klubsolv_scale(pairs: int, rules: DbfRuleSet = DBF_2023) -> Scale:
    """The Klubsølv / Landsdækkende Handicap national-comparison GP table (§ 434A5–6), keyed on the pairs
    in the session (counted as the rule set's ``klubsolv_count`` says, D-Q10)."""
    if pairs < 1:
        raise RequestError("participants", f"need at least 1 pair, not {pairs}")
    for limit, values in rules.klubsolv_gp_bands:
        if limit is None or pairs <= limit:
            return fixed_scale(values, "GP", pairs, rules, ["§ 434A5", "D-Q10"], count=rules.klubsolv_count)
    raise RequestError("participants", "no Klubsølv band covers this many pairs")


# --- the pair bonus p-406d (§ 406B2, § 433B2b; dbf.md § 2.13, D-Q15) ----------------------------------------------


def pair_bonus_scale(request: ScaleRequest, rules: DbfRuleSet = DBF_2023) -> Scale:
    """The provisional § 406B2 pair bonus (``dbf.md`` § 2.13, low confidence, D-Q15).

    ``D_b = ⌈1.5·D'⌉``, ``p_max_b = ⌈D'/4⌉``, ``MPmax_b = M·D_b``, ``Q_b`` as § 2.7 on the bonus field, and
    ``Bonus(p) = ⌈MPmax_b·Q_b^(p−1)·n1·(1 + r)⌉_u``. With the rule set's ``pair_bonus_enabled`` off the
    scale is empty and ``reason`` asks for manual entry (§ 451A).
    """
    validate(request, rules)
    f = _factors(request, rules)
    unit = rules.unit(request.category)
    if not rules.pair_bonus_enabled:
        reason = Reason.of("PAIR_BONUS_BY_HAND")
        expl = Explanation(("§ 406B2", "D-Q15", "§ 451A")).because(reason)
        return Scale(request.category, unit, request.participants, f.field, 0, None, (), (), reason, expl)
    bonus_field = ceil_units(f.field * (1 + rules.pair_bonus_field_surcharge))
    places = places_paid(f.field, rules.pair_bonus_paid_share)
    base_max = f.mass * bonus_field
    amount = base_max * f.n1 * (1 + f.r)
    inputs = (
        ("D", str(f.field)),
        ("D_b", str(bonus_field)),
        ("p_max", str(places)),
        ("M", fmt(f.mass)),
        ("n1", fmt(f.n1)),
        ("r", fmt(f.r)),
    )
    if f.n1 == 0:
        reason = _no_award_reason(request, rules, f.n1_rule)
        expl = Explanation(("§ 406B2", "D-Q15", f.n1_rule), inputs).because(reason)
        return Scale(request.category, unit, request.participants, bonus_field, 0, None, (), (), reason, expl)
    q = ratio(unit, base_max if rules.q_from_base_scale else amount, places, rules)
    raw = geometric_values(amount, q, places)
    awards = tuple(ceil_units(v, unit) for v in raw)
    expl = Explanation(
        ("§ 406B2", "§ 433B2b", "D-Q15", "D-Q2", "§ 406C"),
        (*inputs, ("MPmax", fmt(amount)), ("Q", fmt_ratio(q) or "")),
    )
    return Scale(request.category, unit, request.participants, bonus_field, places, q, raw, awards, None, expl)

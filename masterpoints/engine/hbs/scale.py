"""The HBS scale: first-place points B, the number of paid units n, the logarithmic spread, rounding, ties.

HBS formula ("Način bodovanja" 3): ``B = (3 + N·T/5) · S · (1 + D/12) − 7``, exact from the decimal S.
Spread (item 4, H-3): ``P_k = B · s_k / s_1`` with ``s_k = ln((n + 1)/(k − 0.7))`` for k = 1…n, from the
unrounded B; n = ceil(N/2) units (item 5, H-3). Rounding (H-6): every place up to a natural number, at
least 1 even when B ≤ 0. Ties (H-7). Fixed B, optionally by bands of field size (H-8). Minimum field (H-10).
Every constant comes from the :class:`~masterpoints.engine.hbs.rules.HbsRuleSet` passed in.

The logarithms are irrational: they are computed in ``Decimal`` with 50 significant digits (60 in the
working context). Rounding up (Način 4: "prvi viši prirodni broj") is exact for every exact value (B itself,
a fixed B, a tie's share of them): 7.0000000001 is 8. A place from the spread is exact to far better than
:data:`SPREAD_TOLERANCE`, so only a spread value that far above a whole number (the logarithms' own error)
is taken as that number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

from masterpoints.engine.common import Explanation, Number, Reason, RequestError, ceil_units, parse_ranks, tie_share
from masterpoints.engine.hbs.rules import FORMS, HBS_DRAFT, HbsRuleSet, number_text

#: Significant digits of the logarithms (the design asks for at least 50).
LN_PRECISION = 50

UNIT_NOUNS = {"individual": "players", "pairs": "pairs", "teams": "teams"}
#: A spread place this close above a whole number is that number: the error of a 50-digit logarithm, never a
#: difference the formula makes (its exact inputs differ from a whole number by at least 1/60,000).
SPREAD_TOLERANCE = Fraction(1, 10**40)


@dataclass(frozen=True)
class ScaleRequest:
    """One scale to compute (the calculator's ``"kind": "scale"`` as a value).

    Either ``strength`` (S, with ``boards`` D) for the HBS formula, or ``first_place`` (a fixed B), or
    ``bands`` (``((N_min, B), …)``: the B of the band with the largest N_min ≤ N) for H-8.
    ``ranks`` are ``(first, last)`` place ranges, one per entry; a tie spans several places (H-7).
    """

    form: str
    participants: int
    boards: int | None = None
    strength: Decimal | Fraction | int | None = None
    first_place: Decimal | Fraction | int | None = None
    bands: tuple[tuple[int, Decimal | Fraction | int], ...] = ()
    ranks: tuple[tuple[int, int], ...] | None = None


@dataclass(frozen=True)
class EntryPoints:
    """What one entry (a unit on places ``first…last``) gets: the unrounded share and the rounded points."""

    first: int
    last: int
    share: Fraction
    units: int
    explanation: Explanation

    @property
    def place(self) -> str:
        return place_text(self.first, self.last)


@dataclass(frozen=True)
class Scale:
    """The answer for a :class:`ScaleRequest`.

    ``first_place`` is B unrounded (``None`` only when it cannot be known: no band for a field that is
    below the minimum anyway). ``values`` are the unrounded P_1…P_n, ``awards`` the rounded points of
    places 1…n (empty, with ``places_paid`` 0 and a ``reason``, when nothing is awarded: its code and
    parameters, ``reason.text`` the English sentence).
    """

    request: ScaleRequest
    form_factor: Fraction
    first_place: Fraction | None
    first_place_source: str
    places_paid: int
    weights: tuple[Decimal, ...]
    values: tuple[Fraction, ...]
    awards: tuple[int, ...]
    entries: tuple[EntryPoints, ...]
    reason: Reason | None
    explanation: Explanation

    def raw(self, place: int) -> Fraction:
        """Unrounded points of ``place``; 0 beyond the paid places (H-7 counts them as 0)."""
        return self.values[place - 1] if 1 <= place <= len(self.values) else Fraction(0)


# --- the pieces -------------------------------------------------------------------------------------------


def formula_first_place(
    participants: int, form_factor: Fraction, boards: int, strength: Number, rules: HbsRuleSet = HBS_DRAFT
) -> Fraction:
    """HBS formula: ``B = (3 + N·T/5) · S · (1 + D/12) − 7``, exact (``Fraction`` of the decimal S)."""
    s = Fraction(strength)
    return (rules.base + participants * form_factor / rules.field_divisor) * s * (
        1 + Fraction(boards) / rules.boards_divisor
    ) + rules.constant


def band_first_place(participants: int, bands: tuple[tuple[int, Number], ...]) -> Fraction | None:
    """H-8: the B of the band with the largest N_min ≤ N, or ``None`` when no band covers N."""
    chosen = None
    for n_min, b in sorted(bands, key=lambda band: band[0]):
        if n_min <= participants:
            chosen = Fraction(b)
    return chosen


def places_paid(participants: int, rules: HbsRuleSet = HBS_DRAFT) -> int:
    """H-3: n = 50 % of the units, rounded up (``paid_rounding`` "down" is the setting)."""
    exact = participants * rules.paid_share
    return math.ceil(exact) if rules.paid_rounding == "up" else math.floor(exact)


@lru_cache(maxsize=512)
def log_weights(n: int, place_offset: Fraction = Fraction(7, 10)) -> tuple[Decimal, ...]:
    """s_k = ln((n + 1)/(k − 0.7)) for k = 1…n, each to 50 significant digits (H-3, item 4)."""
    out = []
    with localcontext() as ctx:
        ctx.prec = LN_PRECISION + 10
        for k in range(1, n + 1):
            ratio = Fraction(n + 1) / (k - place_offset)
            out.append((Decimal(ratio.numerator) / Decimal(ratio.denominator)).ln())
    return tuple(out)


def spread(first_place: Fraction, n: int, rules: HbsRuleSet = HBS_DRAFT) -> tuple[Fraction, ...]:
    """Unrounded P_k = B · s_k / s_1 for k = 1…n from the unrounded B (H-3); P_1 = B exactly."""
    weights = log_weights(n, rules.place_offset)
    values = []
    with localcontext() as ctx:
        ctx.prec = LN_PRECISION + 10
        for k, s_k in enumerate(weights, start=1):
            values.append(first_place if k == 1 else first_place * Fraction(s_k / weights[0]))
    return tuple(values)


def round_points(value: Number, rules: HbsRuleSet = HBS_DRAFT) -> int:
    """H-6 and Način 4 ("prvi viši prirodni broj"): up to a natural number, exactly (a whole number stays,
    anything above it goes up, 7.0000000001 to 8) but for a spread place's logarithm error
    (:data:`SPREAD_TOLERANCE`), at least ``minimum_award`` (1), also when the value is 0 or negative (B ≤ 0)."""
    return max(rules.minimum_award, ceil_units(value, tolerance=SPREAD_TOLERANCE))


def minimum_field_reason(form: str, participants: int, rules: HbsRuleSet = HBS_DRAFT) -> Reason | None:
    """H-10 / rule 5: why a field is too small to score (FIELD_BELOW_MINIMUM), or ``None`` when it is large
    enough."""
    minimum = rules.minimum_field(form)
    if participants >= minimum:
        return None
    return Reason.of("FIELD_BELOW_MINIMUM", n=participants, noun=UNIT_NOUNS[form], form=form, minimum=minimum)


def b_not_positive_reason(b: Fraction | None, rules: HbsRuleSet = HBS_DRAFT) -> Reason | None:
    """H-6 (a setting): B ≤ 0 awards nothing when ``nothing_when_b_nonpositive`` is on (B_NOT_POSITIVE)."""
    if b is None or b > 0 or not rules.nothing_when_b_nonpositive:
        return None
    return Reason.of("B_NOT_POSITIVE", b=fixed(b, 4))


def _no_scale_reason(
    below: Reason | None, b: Fraction | None, n_units: int, n: int, rules: HbsRuleSet
) -> tuple[Reason | None, str]:
    """Why a field scores nothing, and the rule: H-10 (minimum field), H-6 (B ≤ 0, a setting), H-3 (no place
    paid); ``None`` when it scores."""
    if below is not None:
        return below, "H-10"
    not_positive = b_not_positive_reason(b, rules)
    if not_positive is not None:
        return not_positive, "H-6"
    if n < 1:
        share = number_text(rules.paid_share * 100)
        return Reason.of("NO_PLACE_PAID", share=share, n=n_units, rounding=rules.paid_rounding), "H-3"
    return None, ""


# --- the scale --------------------------------------------------------------------------------------------


def scale(request: ScaleRequest, rules: HbsRuleSet = HBS_DRAFT) -> Scale:
    """Compute B, n, the points of every paid place and, when ``ranks`` are given, of every entry.

    Raises :class:`RequestError` naming the field for an impossible request (no S for the formula, no
    band for N, ranks beyond the field, …).
    """
    form = request.form
    if form not in FORMS:
        raise RequestError("form", f"'form' must be one of {', '.join(FORMS)}, not {form!r}")
    n_units = request.participants
    if isinstance(n_units, bool) or not isinstance(n_units, int) or n_units < 1:
        raise RequestError("participants", "'participants' must be a whole number of at least 1")
    ranks = None
    if request.ranks is not None:
        ranks = parse_ranks([list(r) for r in request.ranks], field_size=n_units)
    t = rules.form_factor(form)
    below = minimum_field_reason(form, n_units, rules)
    b, source = _first_place(request, t, rules, need=below is None)

    inputs: list[tuple[str, str]] = [("form", form), ("N", str(n_units)), ("T", number_text(t))]
    rule_ids: list[str] = []
    if source == "formula":
        rule_ids.append("HBS formula")
        inputs += [("S", number_text(Fraction(request.strength))), ("D", str(request.boards))]
    elif source == "fixed":
        rule_ids.append("H-8")
        inputs.append(("B from", "fixed in advance"))
    else:
        rule_ids.append("H-8")
        inputs.append(("B from", f"bands by field size: {_band_text(request.bands, n_units)}"))
    if b is not None:
        inputs.append(("B", fixed(b, 4)))

    n = places_paid(n_units, rules)
    reason, rule = _no_scale_reason(below, b, n_units, n, rules)
    if reason is not None:
        explanation = Explanation(tuple(rule_ids), (*inputs, ("n", "0"))).because(reason, rule)
        entries = tuple(EntryPoints(first, last, Fraction(0), 0, explanation) for first, last in (ranks or ()))
        return Scale(request, t, b, source, 0, (), (), (), entries, reason, explanation)

    assert b is not None
    weights = log_weights(n, rules.place_offset)
    values = spread(b, n, rules)
    awards = tuple(round_points(v, rules) for v in values)
    rule_ids += ["H-3", "H-6"]
    inputs += [("n", str(n)), ("s_1", fixed(weights[0], 6))]
    explanation = Explanation(tuple(rule_ids), tuple(inputs))
    result = Scale(request, t, b, source, n, weights, values, awards, (), None, explanation)
    if ranks is not None:
        result = replace(result, entries=tuple(entry_points(result, first, last, rules) for first, last in ranks))
    return result


def entry_points(result: Scale, first: int, last: int, rules: HbsRuleSet = HBS_DRAFT) -> EntryPoints:
    """The points of one entry on places ``first…last`` of a computed scale.

    H-7: units tied on a place share the sum of the unrounded points of the places they cover in equal
    parts (places beyond n count 0), and each share is rounded up (H-6); a tie that straddles n pays every
    tied unit. An entry wholly beyond n gets 0 (H-3).
    """
    base = result.explanation
    if result.places_paid == 0:
        return EntryPoints(first, last, Fraction(0), 0, base)
    n = result.places_paid
    tied = last > first
    rule_ids = list(base.rules) + (["H-7"] if tied else [])
    inputs = [*base.inputs, ("place", place_text(first, last))]
    if first > n:
        reason = Reason.of("PLACE_NOT_PAID", place=place_text(first, last), n=n)
        return EntryPoints(first, last, Fraction(0), 0, Explanation(tuple(rule_ids), tuple(inputs)).because(reason))
    share = tie_share(result.raw, first, last)
    units = round_points(share, rules)
    covered = range(first, min(last, n) + 1)
    inputs.append(("s_k", ", ".join(f"s_{k} = {fixed(result.weights[k - 1], 6)}" for k in covered)))
    if tied:
        inputs.append(("P_k", ", ".join(f"P_{k} = {fixed(result.raw(k), 4)}" for k in range(first, last + 1))))
        inputs.append(("tie", f"{last - first + 1} entries share places {place_text(first, last)}"))
        inputs.append(("share", fixed(share, 4)))
    else:
        inputs.append(("P_k", fixed(share, 4)))
    inputs.append(("points", str(units)))
    return EntryPoints(first, last, share, units, Explanation(tuple(rule_ids), tuple(inputs)))


def _first_place(request: ScaleRequest, t: Fraction, rules: HbsRuleSet, *, need: bool) -> tuple[Fraction | None, str]:
    """B from the formula or fixed in advance (H-8); ``need`` False tolerates a missing band."""
    if request.first_place is not None:
        if request.bands:
            raise RequestError("bands", "give either a fixed 'first_place' or 'bands', not both (H-8)")
        return Fraction(request.first_place), "fixed"
    if request.bands:
        _check_bands(request.bands)
        b = band_first_place(request.participants, request.bands)
        if b is None and need:
            lowest = min(n_min for n_min, _ in request.bands)
            raise RequestError(
                "bands", f"no band covers a field of {request.participants}: the lowest band starts at {lowest}"
            )
        return b, "band"
    if request.strength is None:
        raise RequestError("strength", "'strength' (S) is required unless B is fixed in advance (H-4, H-8)")
    refused = rules.strength_refusal(Fraction(request.strength))
    if refused:
        raise RequestError("strength", refused)
    if request.boards is None:
        raise RequestError("boards", "'boards' (D) is required for the HBS formula")
    if isinstance(request.boards, bool) or not isinstance(request.boards, int) or request.boards < 0:
        raise RequestError("boards", "'boards' must be a whole number of at least 0")
    return formula_first_place(request.participants, t, request.boards, request.strength, rules), "formula"


def _check_bands(bands: tuple[tuple[int, Number], ...]) -> None:
    starts = [n_min for n_min, _ in bands]
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in starts):
        raise RequestError("bands", "each band starts at a whole number of units of at least 1")
    if len(set(starts)) != len(starts):
        raise RequestError("bands", "two bands start at the same field size")


def _band_text(bands: tuple[tuple[int, Number], ...], participants: int) -> str:
    text = "; ".join(f"N ≥ {n_min}: {fixed(Fraction(b), 4)}" for n_min, b in sorted(bands, key=lambda x: x[0]))
    return f"{text} (N = {participants})"


# --- formatting -------------------------------------------------------------------------------------------


def fixed(value: Number, places: int) -> str:
    """``value`` with exactly ``places`` decimals, half away from zero (display only; never fed back)."""
    x = Fraction(value)
    sign = "-" if x < 0 else ""
    scaled = abs(x) * 10**places
    whole = math.floor(scaled + Fraction(1, 2))
    if whole == 0:
        sign = ""
    text = str(whole).rjust(places + 1, "0")
    return f"{sign}{text[:-places]}.{text[-places:]}" if places else f"{sign}{text}"


def place_text(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"

"""The HBS scale: the formula, n (H-3), rounding up (H-6), ties (H-7), fixed B (H-8), minimum fields (H-10).

Expectations are derived by hand from the rules; the logarithms are written out to 6 decimals
(ln 23.333 = 3.149883 …), enough for the whole-number results, which lie far from a whole number.
For a field of 12 (n = 6) the weights s_k = ln(7 / (k − 0.7)) are
    s_1 = ln(7/0.3) = 3.149883, s_2 = ln(7/1.3) = 1.683546, s_3 = ln(7/2.3) = 1.113001,
    s_4 = ln(7/3.3) = 0.751988, s_5 = ln(7/4.3) = 0.487295, s_6 = ln(7/5.3) = 0.278203.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from masterpoints.engine.common import RequestError
from masterpoints.engine.hbs import HBS_DRAFT, ScaleRequest, scale
from masterpoints.engine.hbs.scale import formula_first_place, places_paid, round_points


def pairs12(**changes) -> ScaleRequest:
    """Pairs, N = 12, D = 24, S = 1: B = (3 + 12·1/5)·1·(1 + 24/12) − 7 = 5.4·3 − 7 = 9.2 (vector H-P12)."""
    return replace(ScaleRequest("pairs", 12, 24, Decimal("1")), **changes)


# --- HBS formula -------------------------------------------------------------------------------------------


def test_first_place_points_follow_the_hbs_formula_exactly_from_the_decimal_strength():
    # (3 + 12/5) · 1.1 · (1 + 24/12) − 7 = 5.4 · 1.1 · 3 − 7 = 17.82 − 7 = 10.82, exactly
    assert scale(pairs12(strength=Decimal("1.1"))).first_place == Fraction("10.82")
    # D = 25 makes 1 + 25/12 = 37/12 a repeating decimal: (3 + 10/5) · 37/12 − 7 = 185/12 − 84/12 = 101/12
    assert scale(ScaleRequest("pairs", 10, 25, Decimal("1"))).first_place == Fraction(101, 12)
    # individual T = 1/2: (3 + 10·½/5) · 1 · (1 + 6/12) − 7 = 4 · 1.5 − 7 = −1 (vector H-I10)
    assert scale(ScaleRequest("individual", 10, 6, Decimal("1"))).first_place == -1
    # teams T = 2: (3 + 8·2/5) · 1.5 · (1 + 56/12) − 7 = 6.2 · 1.5 · 17/3 − 7 = 52.7 − 7 = 45.7 (vector H-T8)
    assert scale(ScaleRequest("teams", 8, 56, Decimal("1.5"))).first_place == Fraction("45.7")


def test_every_constant_of_the_formula_comes_from_the_rule_set():
    rules = replace(HBS_DRAFT, base=Fraction(4))
    # (4 + 12/5) · 1 · 3 − 7 = 19.2 − 7 = 12.2; places: 12.2 · s_k/s_1 = 12.2, 6.52, 4.31, 2.91, 1.89, 1.08
    result = scale(pairs12(), rules)
    assert result.first_place == Fraction("12.2")
    assert result.awards == (13, 7, 5, 3, 2, 2)
    # the other constants: (3 + 12/4) · 1 · (1 + 24/8) − 5 = 6 · 4 − 5 = 19
    rules = replace(HBS_DRAFT, field_divisor=Fraction(4), boards_divisor=Fraction(8), constant=Fraction(-5))
    assert scale(pairs12(), rules).first_place == 19
    # T: pairs counted as 2 → (3 + 24/5) · 3 − 7 = 23.4 − 7 = 16.4
    rules = replace(HBS_DRAFT, form_factors=(("individual", Fraction(1, 2)), ("pairs", Fraction(2)), ("teams", 2)))
    assert scale(pairs12(), rules).first_place == Fraction("16.4")


# --- H-3: n and the spread ---------------------------------------------------------------------------------


def test_half_the_units_are_paid_rounded_up_and_counted_in_units_h_3():
    # n = ceil(N/2): 12 → 6, 13 → 7, 3 → 2; a field of 8 teams pays 4 teams, not 16 players
    assert places_paid(12) == 6
    assert places_paid(13) == 7
    assert places_paid(3) == 2
    assert scale(ScaleRequest("teams", 8, 56, Decimal("1.5"))).places_paid == 4
    # rounding down is the rule set's setting: 13 → 6
    assert places_paid(13, replace(HBS_DRAFT, paid_rounding="down")) == 6


def test_places_follow_the_logarithmic_spread_from_the_unrounded_first_place_h_3():
    # P_k = 9.2 · s_k / s_1 = 9.2, 4.9172, 3.2508, 2.1964, 1.4233, 0.8126 → up: 10, 5, 4, 3, 2, 1.
    # Spreading a rounded B = 10 would give place 2 10 · 0.534479 = 5.34 → 6 instead of 5.
    result = scale(pairs12())
    assert result.awards == (10, 5, 4, 3, 2, 1)
    ratio = Fraction(result.values[1] / result.first_place)
    assert abs(ratio - Fraction("0.534479")) < Fraction(1, 10**6)  # s_2/s_1 = 1.683546/3.149883


def test_the_spread_offset_is_a_rule_set_constant_h_3():
    # with 0.5 instead of 0.7: s_k = ln(7/(k − 0.5)); s_1 = ln 14 = 2.639057, s_2 = ln(7/1.5) = 1.540445
    # P_2 = 9.2 · 1.540445/2.639057 = 5.3701 → 6 (it is 5 with 0.7)
    result = scale(pairs12(), replace(HBS_DRAFT, place_offset=Fraction(1, 2)))
    assert result.awards[1] == 6


# --- H-6: rounding -----------------------------------------------------------------------------------------


def test_every_place_rounds_up_to_a_natural_number_and_a_whole_number_stays_h_6():
    # B = 9.2 → 10 (the first place is rounded up too)
    assert scale(pairs12()).awards[0] == 10
    # pairs N = 20, D = 24: B = (3 + 4) · 3 − 7 = 14 exactly → 14, not 15 (vector H-P20)
    assert scale(ScaleRequest("pairs", 20, 24, Decimal("1"))).awards[0] == 14
    assert round_points(Fraction(14)) == 14
    assert round_points(Fraction("14.0001")) == 15


def test_every_paid_place_gets_at_least_one_point_even_when_b_is_not_positive_h_6():
    # individual N = 10, D = 6: B = 4 · 1.5 − 7 = −1 → every one of the 5 paid places gets 1 (vector H-I10)
    assert scale(ScaleRequest("individual", 10, 6, Decimal("1"))).awards == (1, 1, 1, 1, 1)
    # B = 0: individual N = 10, D = 0, S = 1.75 → (3 + 1) · 1.75 · 1 − 7 = 0
    zero = scale(ScaleRequest("individual", 10, 0, Decimal("1.75")))
    assert zero.first_place == 0
    assert zero.awards == (1, 1, 1, 1, 1)


def test_awarding_nothing_when_b_is_not_positive_is_a_setting_off_by_default_h_6():
    rules = replace(HBS_DRAFT, nothing_when_b_nonpositive=True)
    result = scale(ScaleRequest("individual", 10, 6, Decimal("1")), rules)
    assert result.places_paid == 0
    assert result.awards == ()
    assert (result.reason.code, result.reason.values) == ("B_NOT_POSITIVE", {"b": "-1.0000"})
    assert result.reason.text == "B = -1.0000 is not positive and this rule set awards nothing then (H-6 setting)"
    assert "H-6" in result.explanation.rules


# --- H-7: ties ---------------------------------------------------------------------------------------------


def test_tied_pairs_share_the_unrounded_points_of_their_places_h_7():
    # places 3–4: (3.2508 + 2.1964)/2 = 2.7236 → 3 each; averaging the rounded 4 and 3 would give 4
    result = scale(pairs12(ranks=((1, 1), (2, 2), (3, 4), (3, 4))))
    assert [e.units for e in result.entries] == [10, 5, 3, 3]
    tie = result.entries[2]
    assert "H-7" in tie.explanation.rules
    assert dict(tie.explanation.inputs)["place"] == "3–4"


def test_a_tie_for_first_shares_b_with_second_place_h_7():
    # places 1–2: (9.2 + 4.9172)/2 = 7.0586 → 8 each
    result = scale(pairs12(ranks=((1, 2), (1, 2))))
    assert [e.units for e in result.entries] == [8, 8]


def test_a_tie_straddling_the_last_paid_place_pays_every_tied_unit_h_7():
    # n = 6; places 6–7: (0.8126 + 0)/2 = 0.4063 → 1 each; places 9–10 lie beyond n → 0
    result = scale(pairs12(ranks=((6, 7), (6, 7), (9, 10), (9, 10))))
    assert [e.units for e in result.entries] == [1, 1, 0, 0]


# --- H-8: fixed B ------------------------------------------------------------------------------------------


def test_a_first_place_fixed_in_advance_replaces_the_formula_h_8():
    # B = 20, n = 6: 20 · s_k/s_1 = 20, 10.6896, 7.0669, 4.7747, 3.0941, 1.7664 → 20, 11, 8, 5, 4, 2
    result = scale(ScaleRequest("pairs", 12, first_place=Decimal("20")))
    assert result.first_place == 20
    assert result.first_place_source == "fixed"
    assert result.awards == (20, 11, 8, 5, 4, 2)
    assert "H-8" in result.explanation.rules


def test_fixed_first_place_by_bands_of_field_size_h_8():
    bands = ((6, Decimal("10")), (16, Decimal("20")), (30, Decimal("40")))
    assert scale(ScaleRequest("pairs", 12, bands=bands)).first_place == 10
    assert scale(ScaleRequest("pairs", 16, bands=bands)).first_place == 20
    assert scale(ScaleRequest("pairs", 40, bands=bands)).first_place == 40
    # the spread applies as usual: N = 12 with B = 20 is the scale above
    bands = ((10, Decimal("20")),)
    assert scale(ScaleRequest("pairs", 12, bands=bands)).awards == (20, 11, 8, 5, 4, 2)


def test_a_field_no_band_covers_is_refused_naming_the_bands_h_8():
    with pytest.raises(RequestError) as caught:
        scale(ScaleRequest("pairs", 7, bands=((8, Decimal("10")),)))
    assert caught.value.field == "bands"


# --- H-10: minimum fields ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "too_small", "enough"),
    [("individual", 9, 10), ("pairs", 5, 6), ("teams", 2, 3)],
)
def test_fields_below_the_minimum_score_nothing_and_say_why_h_10(form, too_small, enough):
    small = scale(ScaleRequest(form, too_small, 24, Decimal("1")))
    assert small.places_paid == 0
    assert small.awards == ()
    assert "H-10" in small.explanation.rules
    assert small.reason.code == "FIELD_BELOW_MINIMUM"
    noun = {"individual": "players"}.get(form, form)
    assert small.reason.values == {"n": str(too_small), "noun": noun, "form": form, "minimum": str(enough)}
    assert small.explanation.reason == small.reason
    assert dict(small.explanation.inputs)["reason"] == small.reason.text
    article = "an" if form == "individual" else "a"
    assert (
        f"{too_small} {noun} took part, {article} {form} tournament needs at least {enough} {noun}" in small.reason.text
    )
    # the smallest allowed field pays ceil(N/2) places
    assert scale(ScaleRequest(form, enough, 24, Decimal("1"))).places_paid == (enough + 1) // 2


def test_minimum_fields_are_a_rule_set_setting_h_10():
    rules = replace(HBS_DRAFT, minimum_fields=(("individual", 10), ("pairs", 8), ("teams", 3)))
    assert scale(pairs12(participants=7), rules).places_paid == 0
    assert scale(pairs12(participants=8), rules).places_paid == 4


# --- request errors ----------------------------------------------------------------------------------------


def test_the_formula_needs_a_positive_strength_and_the_boards():
    with pytest.raises(RequestError) as caught:
        scale(pairs12(strength=None))
    assert caught.value.field == "strength"
    with pytest.raises(RequestError) as caught:
        scale(pairs12(strength=Decimal("0")))
    assert caught.value.field == "strength"
    with pytest.raises(RequestError) as caught:
        scale(pairs12(boards=None))
    assert caught.value.field == "boards"


def test_ranks_beyond_the_field_are_refused():
    with pytest.raises(RequestError) as caught:
        scale(pairs12(ranks=((13, 13),)))
    assert caught.value.field == "ranks[0]"


# --- properties --------------------------------------------------------------------------------------------

forms = st.sampled_from(["individual", "pairs", "teams"])
strengths = st.decimals(min_value=Decimal("0.05"), max_value=Decimal("5"), places=2)


@given(form=forms, participants=st.integers(10, 300), boards=st.integers(0, 120), strength=strengths)
def test_points_never_increase_with_place(form, participants, boards, strength):
    result = scale(ScaleRequest(form, participants, boards, strength))
    assert list(result.awards) == sorted(result.awards, reverse=True)


@given(form=forms, participants=st.integers(10, 300), boards=st.integers(0, 120), strength=strengths)
def test_every_paid_place_gets_at_least_one_point_h_6(form, participants, boards, strength):
    result = scale(ScaleRequest(form, participants, boards, strength))
    assert result.places_paid == (participants + 1) // 2
    assert len(result.awards) == result.places_paid
    assert all(units >= 1 for units in result.awards)
    if result.first_place > 0:
        # a positive B is paid in full, rounded up, at the top
        assert result.awards[0] >= result.first_place


@given(
    participants=st.integers(6, 80),
    boards=st.integers(0, 60),
    strength=strengths,
    data=st.data(),
)
def test_a_tie_inside_the_paid_places_gets_between_its_last_and_first_place_h_7(participants, boards, strength, data):
    n = (participants + 1) // 2
    first = data.draw(st.integers(1, n))
    last = data.draw(st.integers(first, n))
    ranks = tuple([(first, last)] * (last - first + 1))
    result = scale(ScaleRequest("pairs", participants, boards, strength, ranks=ranks))
    share = result.entries[0].units
    assert result.awards[last - 1] <= share <= result.awards[first - 1]


@given(b=st.fractions(min_value=-50, max_value=500, max_denominator=1000), n_units=st.integers(6, 200))
def test_fixed_first_place_spreads_never_increase_and_pay_at_least_one_h_8(b, n_units):
    result = scale(ScaleRequest("pairs", n_units, first_place=b))
    assert list(result.awards) == sorted(result.awards, reverse=True)
    assert all(units >= 1 for units in result.awards)


def test_formula_first_place_is_exact_for_any_decimal_strength():
    # (3 + 12/5) · 0.123 · 3 − 7 = 5.4 · 0.369 − 7 = 1.9926 − 7 = −5.0074
    assert formula_first_place(12, Fraction(1), 24, Decimal("0.123")) == Fraction("-5.0074")


def test_rounding_up_is_exact_a_whisker_above_a_whole_number_goes_up_nacin_4():
    """Način 4, "prvi viši prirodni broj": the engine is exact, so B = 7.0000000001 is 8, not 7 (the 1e-9
    tolerance that floating-point engines need took it for 7). Only a spread place's logarithm error, far
    below any difference the formula can make, is taken as the whole number."""
    assert round_points(Fraction(7) + Fraction(1, 10**10)) == 8
    assert round_points(Fraction(7) + Fraction(1, 10**30)) == 8
    fixed = scale(ScaleRequest("pairs", 12, 24, None, first_place=Fraction(7) + Fraction(1, 10**10)))
    assert fixed.awards[0] == 8

"""Scales of pairs, individual and mini-teams (``dbf.md`` §§ 2.0–2.9, 2.13, 2.14 and their D-Q readings).

Expected numbers are derived by hand from the rules in the comments; [R] marks those resting on the rebuilt
Q rule (``dbf.md`` § 2.7, D-Q1).
"""

from __future__ import annotations

import dataclasses
import math
import random
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

from masterpoints.engine.common import RequestError, ceil_units
from masterpoints.engine.dbf import DBF_2023, ScaleRequest, entry_awards, pair_bonus_scale, pair_table_scale, scale
from masterpoints.engine.dbf.scale import (
    field_raw,
    fmt_ratio,
    geometric_values,
    klubsolv_scale,
    places_paid,
    quota_n1,
    ratio,
    row_factor,
    surcharge_n2,
)


def pairs(category="BP", n=12, boards=24, **kw) -> ScaleRequest:
    return ScaleRequest(form="pairs", category=category, participants=n, boards=boards, **kw)


# --- § 2.0 units, storage, rounding -------------------------------------------------------------------------------


def test_awards_are_integer_units_of_1_bp_0_1_sp_0_01_gp_dbf_2_0():
    # 12 pairs, all met: BP 2·12 = 24 BP; SP (42 boards) 1·12 = 12.0 SP = 120 tenths; GP 0.1·12 = 1.20 = 120 hundredths.
    assert scale(pairs("BP")).awards[0] == 24
    assert scale(pairs("SP", boards=42)).awards[0] == 120
    assert scale(pairs("GP", boards=60, organizer="federation")).awards[0] == 120
    assert scale(pairs("SP", boards=42)).amounts()[0] == "12.0"
    assert scale(pairs("GP", boards=60, organizer="federation")).amounts()[0] == "1.20"


def test_every_value_is_rounded_up_never_to_nearest_dbf_2_0():
    # 2nd place of 12 SP pairs: 12·2/3 = 8.0 exactly; 3rd 12·4/9 = 5.333… → 5.4 (up, not 5.3).
    assert scale(pairs("SP", boards=42)).amounts()[:3] == ["12.0", "8.0", "5.4"]


def test_an_exact_whole_value_is_not_pushed_up_by_arithmetic_noise_d_q14():
    # 88 pairs met 15: D = 50, MPmax = 100, p_max = 17, Q = (1/100)^(1/16) = 10^(−1/8) [R].
    # Place 9: 100·Q^8 = 100·10^(−1) = 10 exactly (floats give 10.000000000000005 → 11); place 17: exactly 1.
    result = scale(pairs("BP", n=88, met=15))
    assert result.awards[8] == 10
    assert result.awards[16] == 1


def test_ceil_tolerance_counts_a_value_a_hair_above_a_unit_as_that_unit_d_q14():
    assert ceil_units(Fraction(10) + Fraction(1, 10**12), 1) == 10
    assert ceil_units(Fraction(10) + Fraction(1, 10**6), 1) == 11
    assert ceil_units(Fraction(0), 1) == 0


# --- § 2.1 mass factor M ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "category", "organizer", "boards", "winner"),
    [
        # N = 12, everyone met, full quota: the winner gets M·12 (§ 432–§ 444, § 422–§ 424).
        ("pairs", "BP", "club", 24, 24),  # 2 · 12
        ("individual", "BP", "club", 24, 18),  # 1.5 · 12
        ("minihold", "BP", "club", 24, 36),  # 3 · 12
        ("pairs", "SP", "club", 42, 120),  # 1 · 12 = 12.0 SP
        ("individual", "SP", "club", 42, 90),  # 0.75 · 12 = 9.0 SP
        ("minihold", "SP", "club", 42, 180),  # 1.5 · 12 = 18.0 SP
        ("pairs", "GP", "federation", 60, 120),  # 0.1 · 12 = 1.20 GP
        ("individual", "GP", "federation", 60, 90),  # 0.075 · 12 = 0.90 GP
        ("minihold", "GP", "federation", 60, 180),  # 0.15 · 12 = 1.80 GP
    ],
)
def test_the_winner_gets_the_mass_factor_per_participant_dbf_2_1(form, category, organizer, boards, winner):
    result = scale(ScaleRequest(form=form, category=category, participants=12, boards=boards, organizer=organizer))
    assert result.awards[0] == winner


# --- § 2.2 n1 and n2 ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "organizer", "boards", "n1"),
    [
        ("BP", "club", 11, Fraction(0)),
        ("BP", "club", 12, Fraction(1, 2)),
        ("BP", "club", 17, Fraction(1, 2)),
        ("BP", "club", 18, Fraction(1)),
        ("SP", "club", 26, Fraction(0)),
        ("SP", "district", 27, Fraction(1, 2)),
        ("SP", "district", 41, Fraction(1, 2)),
        ("SP", "district", 42, Fraction(1)),
        ("GP", "club", 53, Fraction(0)),
        ("GP", "club", 54, Fraction(1)),
    ],
)
def test_n1_follows_the_board_thresholds_of_each_category_dbf_2_2(category, organizer, boards, n1):
    assert quota_n1(category, organizer, boards)[0] == n1


@pytest.mark.parametrize(
    ("category", "organizer", "boards", "n2"),
    [
        ("SP", "district", 99, Fraction(0)),
        ("SP", "district", 100, Fraction(1, 5)),
        ("SP", "circle", 149, Fraction(1, 5)),
        ("SP", "federation", 150, Fraction(2, 5)),
        ("SP", "club", 150, Fraction(0)),  # § 405B7f: district, kreds or DBf only
        ("BP", "district", 150, Fraction(0)),  # SP only (§ 423A, § 433A, § 443A)
        ("GP", "federation", 150, Fraction(0)),
    ],
)
def test_n2_is_an_sp_surcharge_for_districts_circles_and_dbf_dbf_2_2(category, organizer, boards, n2):
    assert surcharge_n2(category, organizer, boards) == n2


def test_half_quota_pays_exactly_half_the_full_scale_dbf_2_2():
    # 12 BP pairs with 14 boards: 24/2 = 12, 16/2 = 8, 10.67/2 = 5.33 → 6, 7.11/2 = 3.56 → 4 (vector D-P1h).
    assert scale(pairs("BP", boards=14)).awards == (12, 8, 6, 4)


def test_quota_override_sets_n1_whatever_the_boards_dbf_2_2():
    # DM beginners' final (§ 433D2b): full quota even with 20 boards: 20 SP pairs → 20.0 for the winner.
    assert scale(pairs("SP", n=20, boards=20, quota="full")).amounts()[0] == "20.0"
    assert scale(pairs("SP", n=20, boards=60, quota="half")).amounts()[0] == "10.0"


def test_too_few_boards_award_nothing_and_say_why_dbf_2_2():
    result = scale(pairs("SP", n=20, boards=26))
    assert result.places_paid == 0
    assert result.awards == ()
    assert result.reason.code == "SPGP_TOO_FEW_BOARDS"
    assert result.reason.values == {"boards": "26", "need": "27", "kind": "SP", "rule": "§ 405B7c"}
    assert result.reason.text == "too few boards: 26 < 27 in the tournament, no SP (§ 405B7c)"
    assert result.explanation.reason == result.reason
    assert result.explanation.as_dict()["reason"] == {"code": "SPGP_TOO_FEW_BOARDS", "params": result.reason.values}
    assert dict(result.explanation.inputs)["reason"] == result.reason.text


def test_too_few_boards_for_bp_and_for_gp_at_a_club_give_their_codes_405b6c_405b7g():
    bp = scale(pairs("BP", n=20, boards=11))
    assert (bp.reason.code, bp.reason.values) == (
        "BP_TOO_FEW_BOARDS",
        {"boards": "11", "need": "12", "rule": "§ 405B6c"},
    )
    gp = scale(pairs("GP", n=20, boards=40))
    assert (gp.reason.code, gp.reason.values) == (
        "SPGP_TOO_FEW_BOARDS",
        {"boards": "40", "need": "54", "kind": "GP", "rule": "§ 405B7g"},
    )
    assert scale(pairs("BP", n=20, boards=18)).reason is None


# --- § 2.3 row factor r -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "factors"),
    [
        (1, ["0"]),
        (2, ["1/10", "-1/10"]),
        (3, ["3/20", "0", "-3/20"]),
        (4, ["3/20", "1/20", "-1/20", "-3/20"]),
        (5, ["1/5", "1/10", "0", "-1/10", "-1/5"]),
        (7, ["1/5", "1/10", "0", "0", "0", "-1/10", "-1/5"]),  # § 405B5e: extra rows in the middle at 0
    ],
)
def test_strength_rows_differ_by_the_printed_percentages_dbf_2_3(rows, factors):
    assert [row_factor(rows, row, "strength") for row in range(1, rows + 1)] == [Fraction(f) for f in factors]


def test_random_rows_get_no_differential_dbf_2_3():
    assert all(row_factor(4, row, "random") == 0 for row in range(1, 5))


def test_strength_row_scales_are_the_base_scale_times_one_plus_r_dbf_2_3():
    # 12 BP pairs, two strength rows: top 24·1.1 = 26.4 → 27, 16·1.1 = 17.6 → 18; bottom 24·0.9 = 21.6 → 22.
    top = scale(pairs(rows=2, row=1, split="strength"))
    bottom = scale(pairs(rows=2, row=2, split="strength"))
    assert top.awards[:2] == (27, 18)
    assert bottom.awards[0] == 22


# --- § 2.5 effective field D --------------------------------------------------------------------------------------


def test_bp_common_top_counts_forty_then_a_fifth_of_the_rest_dbf_2_5():
    # § 405B6d footnote: 88 pairs, met 15: 1 + 39 + 48/5 = 49.6 → 50 (the number met only switches the rule on).
    assert field_raw(pairs(n=88, met=15)) == (Fraction(248, 5), "§ 405B6d")
    assert scale(pairs(n=88, met=15)).effective_field == 50
    # 41 pairs, met 5: 40 + 1/5 → 41; 40 pairs, met 5: 40.
    assert scale(pairs(n=41, met=5)).effective_field == 41
    assert scale(pairs(n=40, met=5)).effective_field == 40


def test_robots_count_a_fifth_of_the_field_dbf_2_5():
    # § 405B6e footnote: 184 players → 36.8 → 37 and 13 paid places.
    result = scale(ScaleRequest(form="individual", category="BP", participants=184, boards=24, robots=True))
    assert (result.effective_field, result.places_paid) == (37, 13)


def test_sp_gp_common_top_counts_half_of_those_not_met_dbf_2_5():
    # § 405B7d footnote: 60 pairs, met 30: 1 + 30 + 29/2 = 45.5 → 46; 10 pairs met 3: 1 + 3 + 6/2 = 7.
    assert scale(pairs("SP", n=60, boards=48, met=30)).effective_field == 46
    assert scale(pairs("SP", n=10, boards=48, met=3)).effective_field == 7


def test_meeting_everybody_means_the_whole_field_dbf_2_5():
    assert scale(pairs("SP", n=60, boards=48, met=59)).effective_field == 60
    assert scale(pairs("BP", n=88, met=87)).effective_field == 88


def test_top16_counts_sixteen_even_when_more_play_dbf_2_5():
    top16 = ScaleRequest(form="individual", category="SP", participants=20, boards=30, top16=True)
    result = scale(top16)
    # D = 16, M = 0.75, 30 boards = half quota: 0.75·16·0.5 = 6.0 SP.
    assert result.effective_field == 16
    assert result.amounts()[0] == "6.0"


# --- § 2.6 paid places --------------------------------------------------------------------------------------------


def test_paid_places_are_a_third_of_the_field_rounded_up_dbf_2_6():
    # Footnotes: 49.6 → 17, 36.8 → 13, 45.5 → 16; § 434A1b: 40 pairs → 14.
    assert [places_paid(d) for d in (50, 37, 46, 40, 12, 1, 2, 3, 4)] == [17, 13, 16, 14, 4, 1, 1, 1, 2]


def test_a_third_of_the_rounded_field_equals_a_third_of_the_unrounded_one_dbf_2_6():
    rng = random.Random(406)
    for _ in range(20000):
        x = Fraction(rng.randint(1, 10**6), rng.randint(1, 1000))
        assert math.ceil(Fraction(math.ceil(x), 3)) == math.ceil(x / 3)


# --- § 2.7 the ratio Q --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "category", "field", "expected"),
    [
        # Appendix B [R], four decimals.
        ("pairs", "BP", 30, "0.6667"),
        ("pairs", "BP", 36, "0.6779"),
        ("pairs", "BP", 40, "0.7139"),
        ("pairs", "BP", 100, "0.8517"),
        ("pairs", "SP", 50, "0.6781"),
        ("pairs", "SP", 200, "0.8912"),
        ("individual", "BP", 36, "0.6958"),
        ("individual", "SP", 80, "0.7819"),
        ("minihold", "BP", 40, "0.6919"),
        ("minihold", "SP", 60, "0.6991"),
        ("minihold", "SP", 150, "0.8543"),
    ],
)
def test_q_matches_appendix_b_dbf_2_7(form, category, field, expected):
    result = scale(ScaleRequest(form=form, category=category, participants=field, boards=60))
    assert Decimal(fmt_ratio(result.ratio)).quantize(Decimal("0.0001"), ROUND_HALF_UP) == Decimal(expected)


@pytest.mark.parametrize(
    ("form", "category", "first"),
    [("pairs", "BP", 34), ("individual", "BP", 31), ("minihold", "BP", 37)]
    + [("pairs", c, 49) for c in ("SP", "GP")]
    + [("individual", c, 46) for c in ("SP", "GP")]
    + [("minihold", c, 52) for c in ("SP", "GP")],
)
def test_q_first_exceeds_two_thirds_at_the_documented_field_dbf_2_7(form, category, first):
    organizer = "federation" if category == "GP" else "club"

    def q(d):
        return scale(ScaleRequest(form=form, category=category, participants=d, boards=60, organizer=organizer)).ratio

    assert q(first - 1) == Fraction(2, 3)
    assert q(first) > Fraction(2, 3)


def test_q_puts_exactly_mpmin_on_the_last_paid_place_dbf_2_7():
    # BP pairs D = 40: MPmax 80, p_max 14, Q^13 = 1/80, so the unrounded last place is 80·Q^13 = 1 BP.
    result = scale(pairs(n=40))
    assert abs(result.raw[-1] - 1) < Fraction(1, 10**40)


def test_no_place_pays_less_in_a_larger_field_dbf_2_7():
    # dbf.md § 2.7 point 4: checked for D = 3…300 in every form and category.
    for form in ("pairs", "individual", "minihold"):
        for category, organizer in (("BP", "club"), ("SP", "club"), ("GP", "federation")):
            previous = None
            for d in range(3, 301):
                request = ScaleRequest(form=form, category=category, participants=d, boards=60, organizer=organizer)
                awards = scale(request).awards
                if previous is not None:
                    assert all(b >= a for a, b in zip(previous, awards, strict=False)), (form, category, d)
                previous = awards


def test_q_rule_is_pluggable_and_its_alternatives_reproduce_section_3_d_q1():
    # dbf.md § 3 gives the 88-pair field (D = 50, MPmax = 100) under each alternative.
    request = pairs(n=88, met=15)
    a1 = [100, 75, 57, 43, 32, 24, 18, 14, 10, 8, 6, 5, 4, 3, 2, 2, 1]
    a2 = [100, 77, 59, 45, 34, 26, 20, 16, 12, 9, 7, 6, 4, 3, 3, 2, 2]
    a4 = [100, 67, 45, 30, 20, 14, 9, 6, 4, 3, 2, 2, 1, 1, 1, 1, 1]
    assert list(scale(request).awards) == a1
    assert sum(a1) == 404
    assert list(scale(request, dataclasses.replace(DBF_2023, ratio_rule="min_after_last_paid")).awards) == a2
    assert list(scale(request, dataclasses.replace(DBF_2023, ratio_rule="fixed")).awards) == a4


def test_q_is_two_thirds_when_one_place_is_paid_d_q1():
    assert ratio(Fraction(1), Fraction(4), 1) == Fraction(2, 3)


def test_q_comes_from_the_base_scale_so_half_quota_is_exactly_half_d_q2():
    full = scale(pairs(n=40, boards=24))
    half = scale(pairs(n=40, boards=14))
    assert half.ratio == full.ratio
    assert all(h == f / 2 for h, f in zip(half.raw, full.raw, strict=True))


def test_q_from_the_award_would_pay_a_half_quota_evening_59_percent_of_a_full_one_d_q2():
    # dbf.md D-Q2: with Q taken from the final award, 40 BP pairs at half quota pay 59 % of a full evening.
    other = dataclasses.replace(DBF_2023, q_from_base_scale=False)
    full = scale(pairs(n=40, boards=24), other)
    half = scale(pairs(n=40, boards=14), other)
    assert half.ratio > full.ratio
    assert round(sum(half.awards) / sum(full.awards), 2) == 0.59


def test_strength_rows_differ_by_exactly_their_percentage_d_q2():
    top = scale(pairs(n=40, rows=2, row=1, split="strength"))
    base = scale(pairs(n=40))
    assert all(t == b * Fraction(11, 10) for t, b in zip(top.raw, base.raw, strict=True))


def test_n2_enlarges_the_field_and_the_paid_places_d_q3():
    # 30 SP pairs, district, 104 boards: n2 = 0.2, D' = ⌈30·1.2⌉ = 36, p_max = 12; 36.0 24.0 … 0.7 0.5.
    result = scale(pairs("SP", n=30, boards=104, organizer="district"))
    assert (result.effective_field, result.places_paid) == (36, 12)
    assert result.amounts()[-2:] == ["0.7", "0.5"]


def test_n2_as_an_amount_only_reading_keeps_ten_places_d_q3():
    # Flag off: D = 30, p_max = 10, the amount ×1.2: winner 1·30·1.2 = 36.0 SP.
    other = dataclasses.replace(DBF_2023, n2_enlarges_field=False)
    result = scale(pairs("SP", n=30, boards=104, organizer="district"), other)
    assert (result.effective_field, result.places_paid) == (30, 10)
    assert result.amounts()[0] == "36.0"


def test_n2_is_applied_to_the_unrounded_field_once_d_q3():
    # 60 SP pairs met 30 at a district with 150 boards: D_raw 45.5 · 1.4 = 63.7 → 64 (not ⌈46·1.4⌉ = 65).
    assert scale(pairs("SP", n=60, boards=150, met=30, organizer="district")).effective_field == 64


def test_robot_tournaments_take_m_from_the_form_named_d_q6():
    # 184 against robots: D = 37. Individual M = 1.5 → 55.5 → 56 BP; pairs M = 2 → 74 BP.
    individual = ScaleRequest(form="individual", category="BP", participants=184, boards=24, robots=True)
    assert scale(individual).awards[0] == 56
    assert scale(pairs(n=184, robots=True)).awards[0] == 74


def test_robots_are_refused_with_sp_and_gp_d_q6():
    with pytest.raises(RequestError) as caught:
        scale(pairs("SP", n=20, boards=48, robots=True))
    assert caught.value.field == "robots"


def test_gp_at_a_dbf_event_has_no_board_rule_by_default_d_q7():
    # 40 GP pairs run by DBf with 20 boards: n1 = 1 → 0.1·40 = 4.00 GP.
    assert scale(pairs("GP", n=40, boards=20, organizer="federation")).amounts()[0] == "4.00"
    club_rule = dataclasses.replace(DBF_2023, gp_federation_board_rule="club")
    assert scale(pairs("GP", n=40, boards=20, organizer="federation"), club_rule).awards == ()


def test_gp_from_a_district_or_circle_is_refused_d_q7():
    for organizer in ("district", "circle"):
        with pytest.raises(RequestError) as caught:
            scale(pairs("GP", n=40, boards=60, organizer=organizer))
        assert caught.value.field == "organizer"


def test_random_rows_use_their_own_field_size_d_q8():
    # Two random rows of 12 and 10 BP pairs: r = 0 and each its own N: winners 24 and 20.
    assert scale(pairs(n=12, rows=2, row=1, split="random")).awards[0] == 24
    assert scale(pairs(n=10, rows=2, row=2, split="random")).awards[0] == 20


# --- § 2.8 the formula p-406c -------------------------------------------------------------------------------------


def test_each_place_gets_two_thirds_of_the_one_above_in_small_fields_dbf_2_8():
    # 20 SP pairs, 36 boards (half quota): 10, 6.67→6.7, 4.44→4.5, 2.96→3.0, 1.98→2.0, 1.32→1.4, 0.88→0.9.
    result = scale(pairs("SP", n=20, boards=36))
    assert result.amounts() == ["10.0", "6.7", "4.5", "3.0", "2.0", "1.4", "0.9"]


def test_places_beyond_p_max_get_nothing_dbf_2_8():
    result = scale(pairs(n=12))
    assert result.raw_at(5) == 0
    assert entry_awards(result, [(5, 5), (12, 12)]) == (0, 0)


def test_geometric_values_are_exact_with_two_thirds_dbf_2_8():
    assert geometric_values(Fraction(24), Fraction(2, 3), 3) == (Fraction(24), Fraction(16), Fraction(32, 3))


def test_the_explanation_carries_every_input_of_the_formula_dbf_2_8():
    result = scale(pairs("SP", n=60, boards=48, met=30))
    inputs = dict(result.explanation.inputs)
    assert inputs["N"] == "60" and inputs["D"] == "46" and inputs["p_max"] == "16"
    assert inputs["M"] == "1" and inputs["n1"] == "1" and inputs["n2"] == "0" and inputs["r"] == "0"
    assert inputs["Q"] == "0.666667" and inputs["D_raw"] == "45.5"
    assert "§ 405B7d" in result.explanation.rules and "D-Q2" in result.explanation.rules


# --- § 2.9 ties ---------------------------------------------------------------------------------------------------


def test_tied_pairs_share_unrounded_points_d_q12():
    # 12 BP pairs, places 3–4 tied: (10.667 + 7.111)/2 = 8.89 → 9 each; averaging rounded values gives (11 + 8)/2 → 10.
    result = scale(pairs(n=12))
    assert entry_awards(result, [(3, 4), (3, 4)]) == (9, 9)


def test_a_tie_straddling_the_last_paid_place_shares_with_zeros_dbf_2_9():
    # Places 4–5 of 12 BP pairs: (7.11 + 0)/2 = 3.56 → 4 each (vector D-T3).
    assert entry_awards(scale(pairs(n=12)), [(4, 5), (4, 5)]) == (4, 4)


def test_a_tie_list_that_does_not_add_up_is_refused_dbf_2_9():
    with pytest.raises(RequestError):
        entry_awards(scale(pairs(n=12)), [(2, 3)])
    with pytest.raises(RequestError):
        entry_awards(scale(pairs(n=12)), [(13, 13)])


# --- § 2.13 pair bonus --------------------------------------------------------------------------------------------

ENABLED = dataclasses.replace(DBF_2023, pair_bonus_enabled=True)


def test_pair_bonus_uses_a_field_fifty_percent_larger_and_a_quarter_paid_dbf_2_13():
    # 24 SP pairs without n2: D_b = 36, p_max_b = 6, Q_b = 2/3: 36, 24, 16, 10.67→10.7, 7.11→7.2, 4.74→4.8.
    request = pairs("SP", n=24, boards=48, organizer="federation")
    result = pair_bonus_scale(request, ENABLED)
    assert result.amounts() == ["36.0", "24.0", "16.0", "10.7", "7.2", "4.8"]


def test_pair_bonus_of_the_junior_final_counts_n2_dbf_2_13():
    # With n2 = 0.2: D' = ⌈28.8⌉ = 29, D_b = ⌈43.5⌉ = 44, p_max_b = ⌈29/4⌉ = 8: 44.0, 29.33→29.4, …
    request = pairs("SP", n=24, boards=48, organizer="federation", surcharge=Fraction(1, 5))
    result = pair_bonus_scale(request, ENABLED)
    assert result.places_paid == 8
    assert result.amounts()[:2] == ["44.0", "29.4"]


def test_pair_bonus_is_off_by_default_and_asks_for_manual_entry_d_q15():
    result = pair_bonus_scale(pairs("SP", n=24, boards=48, organizer="federation"))
    assert result.awards == ()
    assert (result.reason.code, result.reason.values) == ("PAIR_BONUS_BY_HAND", {})
    assert "D-Q15" in result.explanation.rules and "§ 451A" in result.explanation.rules
    assert result.explanation.as_dict()["reason"] == {"code": "PAIR_BONUS_BY_HAND", "params": {}}


# --- § 2.14 fixed GP tables for pair events -----------------------------------------------------------------------


def test_dm_open_superliga_pays_its_printed_table_dbf_2_14():
    result = pair_table_scale("dm_open_superliga", 20)
    assert result.amounts() == [
        "40.00",
        "27.00",
        "18.00",
        "12.00",
        "8.00",
        "6.00",
        "4.00",
        "3.00",
        "2.00",
        "1.00",
        "1.00",
    ]


def test_dm_open_first_division_under_forty_pairs_pays_a_third_d_q9():
    # 30 pairs: ⌈30/3⌉ = 10 entries of the 14; 40 pairs: all 14 (§ 434A1b).
    assert pair_table_scale("dm_open_1st_division", 30).places_paid == 10
    assert pair_table_scale("dm_open_1st_division", 40).places_paid == 14


def test_fixed_table_ties_share_the_printed_sum_dbf_2_14():
    # DM women's pairs, places 1–2 tied: (12 + 10)/2 = 11.00 GP each.
    assert entry_awards(pair_table_scale("dm_women", 20), [(1, 2), (1, 2)]) == (1100, 1100)


def test_dm_open_second_division_doubles_the_normal_scale_after_q_d_q19():
    # 60 GP pairs: normal MPmax 6.00, p_max 20, Q = (1/600)^(1/19) ≈ 0.7141 [R]; doubled after Q, every place ≥ 0.02.
    normal = scale(pairs("GP", n=60, boards=60, organizer="federation"))
    doubled = scale(pairs("GP", n=60, boards=60, organizer="federation", multiplier=Fraction(2)))
    assert doubled.ratio == normal.ratio
    assert list(doubled.awards) == [ceil_units(2 * v, Fraction(1, 100)) for v in normal.raw]
    assert doubled.awards[-1] == 2
    # M = 0.2 in the formula would lower Q and pay the last place only MPmin: less than double.
    m_doubled = dataclasses.replace(
        DBF_2023, mass_factors=(("pairs", (("BP", Fraction(2)), ("SP", Fraction(1)), ("GP", Fraction(1, 5)))),)
    )
    wrong = scale(pairs("GP", n=60, boards=60, organizer="federation"), m_doubled)
    assert wrong.ratio < normal.ratio
    assert wrong.awards[-1] == 1


@pytest.mark.parametrize(
    ("pairs_in_session", "table"),
    [(1, [1]), (50, [1]), (51, [2, 1]), (200, [2, 1]), (201, [3, 2, 1]), (350, [3, 2, 1]), (351, [3, 2, 2, 1, 1])],
)
def test_klubsolv_gp_table_follows_the_pairs_in_the_session_d_q10(pairs_in_session, table):
    assert list(klubsolv_scale(pairs_in_session).awards) == [100 * v for v in table]


def test_mixed_and_senior_tables_are_data_of_the_rule_set_dbf_2_14():
    assert pair_table_scale("dm_mixed_a", 30).awards[:3] == (2400, 1800, 1200)
    assert pair_table_scale("dm_mixed_b", 30).places_paid == 10
    assert pair_table_scale("dm_senior", 30).awards[-1] == 100
    with pytest.raises(RequestError):
        pair_table_scale("dm_unknown", 30)

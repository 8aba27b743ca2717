"""Team matches, the BP bonus and the fixed SP/GP bonuses (``dbf.md`` §§ 2.4, 2.10–2.12; D-Q13, D-Q16, D-Q18,
D-Q20). Expected values are derived by hand in the comments."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from masterpoints.engine.cli import calculate
from masterpoints.engine.common import RequestError
from masterpoints.engine.dbf import (
    DBF_2023,
    TeamBonusRequest,
    TeamMatchRequest,
    cup_value,
    festival_bonus,
    fixed_team_bonus,
    team_bonus,
    team_match,
    team_row_value,
)
from masterpoints.engine.dbf.teams import classify_bam, classify_vp, match_quota

F = Fraction


def values(table, rows, split="strength"):
    return [team_row_value(table, rows, row, split) for row in range(1, rows + 1)]


# --- § 2.4 values per row -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (2, [18, 14]),
        (3, [19, 15, 13]),
        (4, [20, 16, 14, 12]),
        (5, [21, 17, 15, 13, 11]),
        (6, [22, 18, 16, 14, 12, 10]),
    ],
)
def test_bp_row_values_follow_sixteen_twelve_ten_plus_rows_dbf_2_4(rows, expected):
    assert values("bp", rows) == expected


def test_bp_random_rows_pay_sixteen_dbf_2_4():
    assert values("bp", 3, "random") == [16, 16, 16]


def test_sp_values_outside_the_pyramid_dbf_2_4():
    assert values("sp_outside_pyramid", 1, "random") == [5]
    assert values("sp_outside_pyramid", 2) == [5, 4]
    assert values("sp_outside_pyramid", 3) == [6, 5, 4]
    assert values("sp_outside_pyramid", 6) == [7, 6, 5, 4, 3, 3]  # § 413A4e: further rows 3


def test_sp_pyramid_and_festival_values_dbf_2_4():
    assert values("sp_third_div_qual", 1) == [6]
    assert values("sp_third_div_qual", 2) == [7, 6]
    assert values("sp_district_promotion", 3) == [5, 4, 3]
    assert values("sp_women_school", 1) == [4]
    assert values("sp_junior_qual", 1) == [4]
    assert values("sp_festival", 1, "random") == [8]
    assert values("sp_festival", 3) == [F("9.2"), F("8.0"), F("6.8")]
    assert values("sp_festival", 4) == [F("9.2"), F("8.4"), F("7.6"), F("6.8")]
    # § 413F7: five or more rows: 9.6, 8.8, 8.0 for every middle row, 7.2, 6.4.
    assert values("sp_festival", 6) == [F("9.6"), F("8.8"), F("8.0"), F("8.0"), F("7.2"), F("6.4")]


def test_gp_values_by_division_and_cup_round_dbf_2_4():
    assert values("gp_division", 3) == [5, 4, F("2.5")]
    assert values("gp_women_division", 2) == [F("1.25"), F("0.75")]
    assert values("gp_dm_senior", 2) == [F("1.25"), F("0.75")]
    assert values("gp_dm_mixed", 1) == [F("2.5")]
    assert values("gp_dm_club", 1) == [F("1.67")]
    main = ["final", "semifinal", "quarterfinal", "round_of_16", "up_to_128", "ordinary", "extraordinary"]
    assert [cup_value("gp_cup_main", r) for r in main] == [24, 12, 6, 4, 3, 2, 1]
    assert [cup_value("gp_cup_breadth", r) for r in main] == [
        10,
        5,
        F("2.5"),
        F("1.67"),
        F("1.25"),
        F("0.83"),
        F("0.42"),
    ]


def test_a_row_beyond_the_printed_levels_is_refused_dbf_2_4():
    with pytest.raises(RequestError) as caught:
        team_row_value("gp_dm_mixed", 2, 2, "strength")
    assert caught.value.field == "row"


# --- § 2.10 one match ---------------------------------------------------------------------------------------------


def match(category="BP", value="16", boards=24, **kw):
    return team_match(TeamMatchRequest(category=category, value=F(value), boards=boards, **kw))


def test_a_win_pays_the_row_value_a_draw_half_a_loss_nothing_dbf_2_10():
    assert match(result="win").units == 16
    assert match(result="draw").units == 8
    assert match(result="loss").units == 0


def test_a_half_mp_sanction_halves_n1_of_a_team_match_403b2():
    """SP 6 per won 32-board match: 6.0 SP; with a half-MP sanction n1 = ½: 3.0 SP; a draw 1.5 SP."""
    assert match("SP", "6", 32, result="win").units == 60
    half = match("SP", "6", 32, result="win", quota="half")
    assert half.units == 30 and "§ 403B2" in half.explanation.rules
    assert dict(half.explanation.inputs)["n1"] == "0.5"
    assert match("SP", "6", 32, result="draw", quota="half").units == 15
    request = {"scheme": "dbf", "kind": "team_match", "category": "SP", "value": "6", "boards": 32, "result": "win"}
    assert calculate({**request, "quota": "half"})["points"] == "3.0"  # the JSON interface takes it too
    with pytest.raises(RequestError) as caught:
        match(result="win", quota="third")
    assert caught.value.field == "quota"


def test_a_walkover_counts_as_won_but_pays_nothing_dbf_2_10():
    award = match(result="walkover")
    assert (award.result, award.units) == ("walkover", 0)
    assert "§ 411B4" in award.explanation.rules


def test_vp_thresholds_are_fourteen_and_six_point_zero_one_dbf_2_10():
    assert [classify_vp(F(v)) for v in ("20", "14", "13.99", "6.01", "6", "0")] == [
        "win",
        "win",
        "draw",
        "draw",
        "loss",
        "loss",
    ]
    for bad in ("20.01", "-1", "14.005"):
        with pytest.raises(RequestError):
            classify_vp(F(bad))


def test_bam_thresholds_are_five_eighths_and_three_eighths_dbf_2_10():
    # 24 boards: achievable 48. 30 = 62.5 % win; 29 draw; 18.5 draw (38.5 %); 18 = 37.5 % loss.
    assert [classify_bam(F(s), 24) for s in ("30", "29", "18.5", "18")] == ["win", "draw", "draw", "loss"]
    with pytest.raises(RequestError):
        classify_bam(F(49), 24)


def test_short_matches_are_prorated_by_boards_dbf_2_10():
    # N = 24/32/40 (§ 405A3): BP 16 boards 16·16/24 = 10.67 → 11; SP 6 at 24 boards draw 6·0.75/2 = 2.25 → 2.3;
    # GP 5 at 32 boards win 5·0.8 = 4.00; more boards than N never pay more.
    assert match(boards=16, result="win").units == 11
    assert match("SP", "6", 24, result="draw").units == 23
    assert match("GP", "5", 32, result="win").units == 400
    assert match(boards=40, result="win").units == 16
    assert match_quota("GP", 20) == F(1, 2)


def test_the_share_of_the_match_played_scales_the_award_dbf_2_10():
    # Half a match: 16·½ = 8 (§ 405A1); 16 of 24 boards: 16·2/3 = 10.67 → 11.
    assert match(result="win", share=F(1, 2)).units == 8
    assert match(result="win", share=F(2, 3)).units == 11


def test_printed_prorated_values_are_used_as_printed_d_q16():
    # DM club teams 1.67 GP at 24 of 40 boards: 1.67·0.6 = 1.002 → 1.01 (5/3 would give exactly 1.00).
    assert match("GP", "1.67", 24, result="win").units == 101


def test_exactly_one_outcome_must_be_given_dbf_2_10():
    with pytest.raises(RequestError) as caught:
        match(result="win", vp=F(15))
    assert caught.value.field == "result"


def test_team_mp_are_rounded_per_player_per_match_d_q13():
    # A BP draw at 16 boards: 16·(16/24)·½ = 5.33 → 6 per match; two such matches give 12, not ⌈10.67⌉ = 11.
    one = match(boards=16, result="draw").units
    assert one == 6
    assert 2 * one == 12


# --- § 2.11 BP bonus ----------------------------------------------------------------------------------------------


def bonus(**kw):
    return team_bonus(TeamBonusRequest(**kw))


def test_bp_bonus_is_harmonic_from_ten_per_match_dbf_2_11():
    # 8 teams, 7 matches of 24 boards: 70, 70·2/3 = 46.67 → 47, 70·1/2 = 35 (p_max = ⌈8/3⌉ = 3).
    assert bonus(matches=7, boards=24, teams=8).awards == (70, 47, 35)
    # Seven teams: each plays 6 matches (byes add nothing): 60, 40, 30.
    assert bonus(matches=6, boards=24, teams=7).awards == (60, 40, 30)


def test_bp_bonus_is_prorated_by_boards_per_match_dbf_2_11():
    # 16 boards: 70·2/3 = 46.67 → 47, 31.1 → 32, 23.3 → 24.
    assert bonus(matches=7, boards=16, teams=8).awards == (47, 32, 24)


def test_monrad_pays_as_for_k_plus_one_teams_d_q20():
    # 12 teams, 5 Monrad rounds: T_eff = 6, p_max = 2: 50 and 33.3 → 34.
    result = bonus(matches=5, boards=24, teams=12, format="monrad")
    assert (result.effective_field, result.awards) == (6, (50, 34))


def test_lower_rows_take_their_fraction_of_the_a_rows_bonus_d_q20():
    # Row B of 3 with 7 matches: 70·2/3 = 46.67 → 47; row D of 4 as C: 70·½ = 35, 23.3 → 24, 17.5 → 18.
    assert bonus(matches=7, boards=24, teams=8, rows=3, row=2, split="strength").awards[0] == 47
    assert bonus(matches=7, boards=24, teams=8, rows=4, row=4, split="strength").awards == (35, 24, 18)
    # The A row played 9 matches, B only 7: B's winner gets 2/3 of A's 90 = 60.
    result = bonus(matches=7, boards=24, teams=8, rows=2, row=2, split="strength", top_row_matches=9)
    assert result.awards[0] == 60


def test_bonus_request_errors_name_the_field_dbf_2_11():
    for kw, field in (
        (dict(matches=0, boards=24, teams=8), "matches"),
        (dict(matches=7, boards=24, teams=8, row=2), "row"),
    ):
        with pytest.raises(RequestError) as caught:
            bonus(**kw)
        assert caught.value.field == field


# --- § 2.12 fixed SP/GP bonuses -----------------------------------------------------------------------------------


def test_third_division_qualification_bonus_is_prorated_by_boards_d_q18():
    # dbf.md § 2.12: 24-board matches: 60·0.75 = 45.0, 30.0, 22.5, 18.0.
    assert fixed_team_bonus("sp_third_div_qual", 1, boards=24).amounts() == ["45.0", "30.0", "22.5", "18.0"]
    assert fixed_team_bonus("sp_third_div_qual", 1, boards=32).amounts() == ["60.0", "40.0", "30.0", "24.0"]


def test_pyramid_bonus_proration_is_a_flag_d_q18():
    fixed = dataclasses.replace(DBF_2023, pyramid_bonus_prorated=False)
    assert fixed_team_bonus("sp_third_div_qual", 1, fixed, boards=24).amounts() == ["60.0", "40.0", "30.0", "24.0"]


def test_printed_thirteen_point_three_is_used_not_rounded_up_d_q16():
    # § 413B3c prints 13.3 (20·2/3 rounded to nearest); rounding up would give 13.4.
    assert fixed_team_bonus("sp_third_div_qual", 2, boards=32).amounts() == ["20.0", "13.3", "10.0"]
    # Prorated at 24 boards: 13.3·0.75 = 9.975 → 10.0.
    assert fixed_team_bonus("sp_third_div_qual", 2, boards=24).amounts()[1] == "10.0"
    assert fixed_team_bonus("sp_district_promotion", 2, boards=32).amounts() == ["10.0", "6.7"]


def test_gp_bonuses_are_fixed_whatever_the_boards_dbf_2_12():
    # § 414 intro: no proration. 1st division: 28, 20 and 14 shared by 3rd and 4th (7 each).
    assert fixed_team_bonus("gp_division", 1, boards=16).amounts() == ["28.00", "20.00", "7.00", "7.00"]
    assert fixed_team_bonus("gp_dm_mixed", 1).amounts()[-1] == "1.00"


def test_third_division_east_and_west_share_the_bonus_dbf_2_12():
    # § 414B2d: 14 and 8 shared equally between 3rd East and 3rd West: 7 and 4 each (§ 411D2a).
    assert fixed_team_bonus("gp_division", 3, parallel_rows=2).amounts() == ["7.00", "4.00"]


def test_festival_bonus_is_computed_per_team_and_rounded_up_dbf_2_12():
    # 10 teams, random rows: no. 1 2·10 = 20.0; no. 2 13.33 → 13.4; no. 3 3/4 of it = 10.0; no. 4 4/5 = 8.0.
    assert festival_bonus(10).amounts() == ["20.0", "13.4", "10.0", "8.0"]
    # Two strength rows, A row X = 2.2: 22.0, 14.67 → 14.7, 11.0, 8.8.
    assert festival_bonus(10, rows=2, row=1, split="strength").amounts() == ["22.0", "14.7", "11.0", "8.8"]
    # Monrad: 30 teams, 7 rounds → as for 8 teams: 16.0.
    assert festival_bonus(30, format="monrad", matches=7).amounts()[0] == "16.0"


def test_junior_qualification_pays_no_bonus_dbf_2_12():
    with pytest.raises(RequestError):
        fixed_team_bonus("sp_junior_qual", 1, boards=32)

"""Whole tournaments to per-player awards (``dbf.md`` §§ 2.8, 2.10–2.13, 2.16; D-Q4, D-Q5, D-Q8, D-Q10,
D-Q13, D-Q15, D-Q17, D-Q20)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from masterpoints.engine.common import RequestError
from masterpoints.engine.dbf import (
    DBF_2023,
    Entry,
    Match,
    PairEvent,
    Part,
    Player,
    Section,
    Standing,
    TeamEvent,
    TeamSide,
    awards_total,
    event_warnings,
    foreign_award,
    pair_event_awards,
    team_event_awards,
)

REPO_ROOT = Path(__file__).resolve().parents[3]


def pair(key: str, place: int, boards: int, last: int | None = None, **players: int) -> Entry:
    names = players or {f"{key}a": boards, f"{key}b": boards}
    return Entry(key, place, tuple(Player(p, b) for p, b in names.items()), last=last)


def twelve_pairs(boards: int = 24, key: str = "day 1") -> Part:
    entries = tuple(pair(f"p{i}", i, boards) for i in range(1, 13))
    return Part(key, (Section("A", 12, boards, entries),))


def by_player(awards):
    return {(a.player, a.part): a for a in awards}


# --- § 2.8 per playing day, total, eligibility --------------------------------------------------------------------


def test_bp_are_awarded_per_playing_day_on_that_days_score_dbf_2_8():
    # Day 1: 12 pairs 24 boards, p1 wins (24 BP). Day 2: 14 boards (half quota), p1 second: 16/2 = 8 BP.
    day2 = tuple(pair(f"p{i}", (i % 12) + 1, 14) for i in range(1, 13))  # p12 wins day 2, p1 second
    event = PairEvent("pairs", "BP", (twelve_pairs(24, "day 1"), Part("day 2", (Section("A", 12, 14, day2),))))
    awards = by_player(pair_event_awards(event))
    assert awards[("p1a", "day 1")].units == 24
    assert awards[("p1a", "day 2")].units == 8
    assert awards[("p12a", "day 2")].units == 12
    assert awards_total(pair_event_awards(event))[("p1a", "BP")] == 32


def test_sp_are_awarded_once_on_the_total_dbf_2_8():
    event = PairEvent("pairs", "SP", (twelve_pairs(48, "day 1"), twelve_pairs(48, "day 2")), organizer="district")
    with pytest.raises(RequestError) as caught:
        pair_event_awards(event)
    assert caught.value.field == "parts" and "§ 405B7a" in caught.value.message


def test_the_substitute_not_the_absent_player_gets_the_bp_dbf_2_16():
    entries = (
        Entry("p1", 1, (Player("x", 24), Player("absent", 0), Player("sub", 24, substitute_for="absent"))),
        *(pair(f"p{i}", i, 24) for i in range(2, 13)),
    )
    awards = by_player(pair_event_awards(PairEvent("pairs", "BP", (Part("d", (Section("A", 12, 24, entries),)),))))
    assert awards[("sub", "d")].units == 24
    assert awards[("absent", "d")].units == 0


def test_sp_need_half_the_boards_else_the_substitute_gets_them_d_q4():
    # 48 boards planned: 24 played is half (eligible); 23 is not, and the substitute with 25 gets the full award.
    entries = (
        Entry("p1", 1, (Player("half", 24), Player("short", 23), Player("sub", 25, substitute_for="short"))),
        Entry("p2", 2, (Player("c", 48), Player("d", 10), Player("sub2", 20, substitute_for="d"))),
        *(pair(f"p{i}", i, 48) for i in range(3, 13)),
    )
    event = PairEvent("pairs", "SP", (Part("final", (Section("A", 12, 48, entries),)),), organizer="district")
    awards = by_player(pair_event_awards(event))
    assert awards[("half", "final")].units == 120  # 12.0 SP: all or nothing, never prorated
    assert awards[("short", "final")].units == 0
    assert awards[("sub", "final")].units == 120
    assert awards[("d", "final")].units == 0 and awards[("sub2", "final")].units == 0
    assert dict(awards[("short", "final")].explanation.inputs)["S"] == "0"


def test_a_substitute_gets_nothing_when_the_player_replaced_qualified_d_q4():
    entries = (
        Entry("p1", 1, (Player("a", 48), Player("b", 24), Player("sub", 24, substitute_for="b"))),
        *(pair(f"p{i}", i, 48) for i in range(2, 13)),
    )
    event = PairEvent("pairs", "SP", (Part("final", (Section("A", 12, 48, entries),)),), organizer="district")
    awards = by_player(pair_event_awards(event))
    assert awards[("b", "final")].units == 120 and awards[("sub", "final")].units == 0


def test_every_award_explains_its_inputs_and_rules_dbf_2_8():
    entries = (pair("p1", 1, 24), pair("p2", 2, 24, last=3), pair("p3", 2, 24, last=3), pair("p4", 4, 24))
    award = by_player(pair_event_awards(PairEvent("pairs", "BP", (Part("d", (Section("A", 12, 24, entries),)),))))
    tied = award[("p2a", "d")]
    inputs = dict(tied.explanation.inputs)
    for name in ("N", "D", "p_max", "M", "n1", "n2", "r", "Q", "tie", "S"):
        assert name in inputs
    assert inputs["tie"] == "2-3"
    assert {"§ 406B1", "§ 405B3", "D-Q12", "§ 405B6a"} <= set(tied.explanation.rules)
    # (16 + 10.67)/2 = 13.33 → 14 (vector D-T1).
    assert tied.units == 14 and tied.amount == "14"


def test_one_tournament_level_number_met_sets_one_field_for_the_section_d_q5():
    entries = tuple(pair(f"p{i}", i, 24) for i in range(1, 89))
    section = Section("A", 88, 24, entries, met=15)
    awards = pair_event_awards(PairEvent("pairs", "BP", (Part("d", (section,)),)))
    assert {dict(a.explanation.inputs)["D"] for a in awards} == {"50"}
    # The director may override the field (§ 451A): D = 60 instead.
    overridden = dataclasses.replace(section, field=Fraction(60))
    awards = pair_event_awards(PairEvent("pairs", "BP", (Part("d", (overridden,)),)))
    assert {dict(a.explanation.inputs)["D"] for a in awards} == {"60"}


def test_random_rows_can_share_one_common_scale_as_a_setting_d_q8():
    rows = (
        Section("A", 12, 24, tuple(pair(f"a{i}", i, 24) for i in range(1, 13))),
        Section("B", 8, 24, tuple(pair(f"b{i}", i, 24) for i in range(1, 9))),
    )
    event = PairEvent("pairs", "BP", (Part("d", rows, split="random"),))
    own = by_player(pair_event_awards(event))
    assert own[("a1a", "d/A")].units == 24 and own[("b1a", "d/B")].units == 16
    common = by_player(pair_event_awards(event, dataclasses.replace(DBF_2023, random_rows_common_scale=True)))
    # Average row size (12 + 8)/2 = 10: both winners 20 BP.
    assert common[("a1a", "d/A")].units == 20 and common[("b1a", "d/B")].units == 20


def test_strength_rows_in_an_event_use_the_row_factor_dbf_2_3():
    rows = (
        Section("A", 12, 24, tuple(pair(f"a{i}", i, 24) for i in range(1, 13)), row=1),
        Section("B", 12, 24, tuple(pair(f"b{i}", i, 24) for i in range(1, 13)), row=2),
    )
    awards = by_player(pair_event_awards(PairEvent("pairs", "BP", (Part("d", rows, split="strength"),))))
    assert awards[("a1a", "d/A")].units == 27 and awards[("b1a", "d/B")].units == 22


# --- § 2.16 who may award what and the special events -------------------------------------------------------------


def sp_event(**kw) -> PairEvent:
    return PairEvent("pairs", "SP", (twelve_pairs(48, "final"),), **kw)


def test_a_club_needs_a_sanction_for_sp_or_gp_dbf_2_16():
    with pytest.raises(RequestError) as caught:
        pair_event_awards(sp_event(organizer="club"))
    assert caught.value.field == "sanction"
    assert by_player(pair_event_awards(sp_event(organizer="club", sanction="full")))[("p1a", "final")].units == 120
    # § 403B2 half MP: n1 = ½ → 6.0 SP.
    assert by_player(pair_event_awards(sp_event(organizer="club", sanction="half")))[("p1a", "final")].units == 60


def test_gp_is_refused_from_districts_and_automatic_sanctions_dbf_2_16():
    for organizer, sanction, field in (("district", "none", "organizer"), ("club", "automatic", "sanction")):
        event = PairEvent("pairs", "GP", (twelve_pairs(60, "final"),), organizer=organizer, sanction=sanction)
        with pytest.raises(RequestError) as caught:
            pair_event_awards(event)
        assert caught.value.field == field


def test_beginners_qualifiers_are_half_quota_and_never_split_by_strength_dbf_2_16():
    # § 433D2a: half quota whatever the boards: 12 pairs 18 boards → 12·½ = 6.0 SP; the final full: 12.0.
    qualifier = PairEvent(
        "pairs", "SP", (twelve_pairs(18, "q"),), organizer="federation", special="beginners_qualifier"
    )
    assert by_player(pair_event_awards(qualifier))[("p1a", "q")].units == 60
    final = dataclasses.replace(qualifier, special="beginners_final")
    assert by_player(pair_event_awards(final))[("p1a", "q")].units == 120
    split = dataclasses.replace(qualifier, parts=(dataclasses.replace(twelve_pairs(18, "q"), split="strength"),))
    with pytest.raises(RequestError) as caught:
        pair_event_awards(split)
    assert caught.value.field == "parts[0].split"


def test_simultaneous_events_pay_half_quota_and_warn_on_strength_rows_dbf_2_16():
    event = PairEvent("pairs", "SP", (twelve_pairs(24, "s"),), special="simultaneous")
    assert by_player(pair_event_awards(event))[("p1a", "s")].units == 60  # automatic sanction, half quota
    split = dataclasses.replace(event, parts=(dataclasses.replace(twelve_pairs(24, "s"), split="strength"),))
    assert any("§ 433E1" in w for w in event_warnings(split))
    assert event_warnings(event) == []


def test_top16_needs_sixteen_players_and_counts_sixteen_dbf_2_16():
    players = tuple(Entry(f"e{i}", i, (Player(f"x{i}", 30),)) for i in range(1, 19))
    event = PairEvent("individual", "SP", (Part("t", (Section("A", 18, 30, players),)),), special="top16")
    first = by_player(pair_event_awards(event))[("x1", "t")]
    assert dict(first.explanation.inputs)["D"] == "16" and first.units == 60  # 0.75·16·½ = 6.0 SP
    small = PairEvent("individual", "SP", (Part("t", (Section("A", 15, 30, players[:15]),)),), special="top16")
    with pytest.raises(RequestError) as caught:
        pair_event_awards(small)
    assert "§ 443B3" in caught.value.message


def test_handicap_events_state_their_ranking_basis_d_q17():
    bp = PairEvent("pairs", "BP", (twelve_pairs(24),), handicap=True, ranking_basis="handicap")
    with pytest.raises(RequestError) as caught:
        pair_event_awards(bp)
    assert "§ 405B6f" in caught.value.message
    assert pair_event_awards(dataclasses.replace(bp, ranking_basis="nominal"))
    sp = PairEvent("pairs", "SP", (twelve_pairs(24),), special="simultaneous", handicap=True, ranking_basis="handicap")
    assert pair_event_awards(sp)
    nominal_rules = dataclasses.replace(DBF_2023, handicap_sp_gp_ranking="nominal")
    with pytest.raises(RequestError):
        pair_event_awards(sp, nominal_rules)


def test_klubsolv_national_table_counts_all_pairs_of_the_session_d_q10():
    ns = Section("NS", 120, 24, (pair("n1", 1, 24), pair("n2", 2, 24)))
    ew = Section("EW", 120, 24, (pair("e1", 1, 24), pair("e2", 2, 24)))
    event = PairEvent("pairs", "GP", (Part("s", (ns, ew)),), organizer="federation", special="simultaneous_national")
    awards = by_player(pair_event_awards(event))
    # 240 pairs in total: 201–350 → 3, 2, 1 GP.
    assert awards[("n1a", "s/NS")].units == 300 and awards[("e2a", "s/EW")].units == 200
    per_direction = dataclasses.replace(DBF_2023, klubsolv_count="per_direction")
    awards = by_player(pair_event_awards(event, per_direction))
    assert awards[("n1a", "s/NS")].units == 200  # 120 pairs: 51–200 → 2, 1


def test_junior_pairs_final_counts_n2_and_takes_a_manual_bonus_d_q15():
    event = PairEvent(
        "pairs",
        "SP",
        (Part("final", (Section("A", 24, 48, tuple(pair(f"p{i}", i, 48) for i in range(1, 25))),)),),
        organizer="federation",
        special="junior_pairs_final",
        pair_bonus=True,
        manual_bonus=(("p1", 250),),
    )
    awards = pair_event_awards(event)
    regular = by_player(awards)[("p1a", "final")]
    # n2 ≥ 0.2 (§ 433B2a): D' = ⌈24·1.2⌉ = 29 → 29.0 SP for the winner.
    assert regular.units == 290
    bonus = [a for a in awards if a.part == "final/bonus"]
    assert {(a.player, a.units) for a in bonus} == {("p1a", 250), ("p1b", 250)}
    assert "§ 451A" in bonus[0].explanation.rules
    # With the flag on, the provisional formula pays the best quarter: 44.0 for the winner (dbf.md § 2.13).
    enabled = dataclasses.replace(DBF_2023, pair_bonus_enabled=True)
    computed = [a for a in pair_event_awards(dataclasses.replace(event, manual_bonus=()), enabled) if "bonus" in a.part]
    assert max(a.units for a in computed) == 440
    assert any("D-Q15" in w for w in event_warnings(dataclasses.replace(event, manual_bonus=())))


def test_dm_open_second_division_event_doubles_the_gp_scale_d_q19():
    entries = tuple(pair(f"p{i}", i, 60) for i in range(1, 41))
    event = PairEvent(
        "pairs",
        "GP",
        (Part("f", (Section("A", 40, 60, entries),)),),
        organizer="federation",
        special="dm_open_2nd_division",
    )
    # Normal: 0.1·40 = 4.00 GP for the winner; doubled: 8.00.
    assert by_player(pair_event_awards(event))[("p1a", "f")].units == 800


def test_foreign_mp_from_the_faroes_and_iceland_are_registered_unconverted_dbf_2_16():
    assert foreign_award("FO", "SP", 57) == ("SP", 57)
    assert foreign_award("IS", "GP", 120) == ("GP", 120)
    with pytest.raises(RequestError) as caught:
        foreign_award("SE", "BP", 10)
    assert caught.value.field == "country"


# --- team events --------------------------------------------------------------------------------------------------


def side(entry, result=None, vp=None, boards=24, players=("1", "2", "3", "4")):
    return TeamSide(entry, tuple(Player(f"{entry}{p}", boards) for p in players), result=result, vp=vp)


def test_team_match_awards_go_to_each_player_by_share_dbf_2_10():
    home = TeamSide("H", (Player("h1", 24), Player("h2", 24), Player("h3", 12), Player("h5", 12)), vp=Fraction(16))
    event = TeamEvent("BP", "bp", matches=(Match("r1", 24, home, side("A", vp=Fraction(4))),))
    awards = by_player(team_event_awards(event))
    assert awards[("h1", "r1")].units == 16 and awards[("h3", "r1")].units == 8
    assert awards[("A1", "r1")].units == 0
    assert dict(awards[("h3", "r1")].explanation.inputs)["share"] == "0.5"


def test_a_walkover_gives_nobody_mp_dbf_2_10():
    event = TeamEvent("BP", "bp", matches=(Match("r1", 24, side("H", "walkover"), side("A", "loss")),))
    assert {a.units for a in team_event_awards(event)} == {0}


def test_team_mp_are_summed_from_rounded_matches_d_q13():
    matches = tuple(Match(f"r{i}", 16, side("H", "draw", boards=16), side("A", "draw", boards=16)) for i in (1, 2))
    assert awards_total(team_event_awards(TeamEvent("BP", "bp", matches=matches)))[("H1", "BP")] == 12


def test_cup_matches_use_the_round_value_and_never_draw_dbf_2_16():
    final = Match("final", 48, side("H", "win", boards=48), side("A", "loss", boards=48), cup_round="final")
    awards = by_player(team_event_awards(TeamEvent("GP", "gp_cup_main", matches=(final,))))
    assert awards[("H1", "final")].units == 2400
    drawn = dataclasses.replace(final, home=side("H", "draw", boards=48), away=side("A", "draw", boards=48))
    with pytest.raises(RequestError):
        team_event_awards(TeamEvent("GP", "gp_cup_main", matches=(drawn,)))


def standing_entries(n, team_boards=168, boards=168):
    return tuple(
        Entry(f"T{i}", i, (Player(f"T{i}a", boards), Player(f"T{i}b", boards // 3)), planned_boards=team_boards)
        for i in range(1, n + 1)
    )


def test_bp_bonus_goes_in_full_to_players_with_half_the_teams_boards_dbf_2_11():
    standing = Standing("final", standing_entries(8), teams=8, matches=7, boards=24)
    awards = by_player(team_event_awards(TeamEvent("BP", "bp", standings=(standing,))))
    # 70, 47, 35 for places 1–3 (vector D-B1); 56 of 168 boards is less than half: nothing.
    assert awards[("T1a", "bonus/final")].units == 70 and awards[("T3a", "bonus/final")].units == 35
    assert awards[("T1b", "bonus/final")].units == 0
    assert awards[("T4a", "bonus/final")].units == 0


def test_a_double_round_robin_pays_a_bp_bonus_for_each_round_dbf_2_11():
    rounds = tuple(Standing(k, standing_entries(8), teams=8, matches=7, boards=24) for k in ("round 1", "round 2"))
    assert awards_total(team_event_awards(TeamEvent("BP", "bp", standings=rounds)))[("T1a", "BP")] == 140


def test_fixed_bonus_tables_pay_once_on_the_final_placing_dbf_2_12():
    rounds = tuple(Standing(k, standing_entries(4), teams=10, matches=9, boards=32) for k in ("1", "2"))
    with pytest.raises(RequestError):
        team_event_awards(TeamEvent("GP", "gp_division", standings=rounds, rows=3, split="strength"))


def test_gp_bonus_excludes_substitutes_and_unregistered_players_dbf_2_12():
    entries = (
        Entry(
            "T1",
            1,
            (Player("reg", 100), Player("sub", 100, substitute_for="x"), Player("guest", 100, registered=False)),
        ),
        Entry("T2", 2, (Player("t2", 100),)),
    )
    entries = tuple(dataclasses.replace(e, planned_boards=160) for e in entries)
    standing = Standing("final", entries, teams=10, matches=9, boards=32)
    awards = by_player(team_event_awards(TeamEvent("GP", "gp_dm_mixed", standings=(standing,))))
    assert awards[("reg", "bonus/final")].units == 1000
    assert awards[("sub", "bonus/final")].units == 0 and awards[("guest", "bonus/final")].units == 0
    assert awards[("t2", "bonus/final")].units == 800


def test_tied_teams_share_the_bonus_of_their_places_dbf_2_12():
    entries = (
        Entry("T1", 1, (Player("a", 100),), planned_boards=160),
        Entry("T2", 2, (Player("b", 100),), last=3, planned_boards=160),
        Entry("T3", 2, (Player("c", 100),), last=3, planned_boards=160),
    )
    standing = Standing("final", entries, teams=10, matches=9, boards=32)
    awards = by_player(team_event_awards(TeamEvent("GP", "gp_dm_mixed", standings=(standing,))))
    assert awards[("b", "bonus/final")].units == 700 == awards[("c", "bonus/final")].units  # (8 + 6)/2


def test_teams_without_a_bonus_refuse_a_standing_dbf_2_12():
    standing = Standing("final", standing_entries(4), teams=8, matches=7, boards=32)
    with pytest.raises(RequestError):
        team_event_awards(TeamEvent("SP", "sp_outside_pyramid", standings=(standing,)))


def test_the_a_rows_matches_set_lower_rows_bonus_in_an_event_d_q20():
    standing = Standing("B", standing_entries(8), teams=8, matches=7, boards=24, row=2, top_row_matches=9)
    awards = by_player(team_event_awards(TeamEvent("BP", "bp", standings=(standing,), rows=2, split="strength")))
    assert awards[("T1a", "bonus/B")].units == 60  # 2/3 of the A row's 10·9


# --- purity -------------------------------------------------------------------------------------------------------


def test_the_engine_never_imports_django_dbf_2_0():
    code = (
        "import sys, masterpoints.engine.dbf, masterpoints.engine.dbf.calculator,"
        " masterpoints.engine.dbf.events, masterpoints.engine.dbf.team_events,"
        " masterpoints.engine.dbf.tables, masterpoints.engine.codec, masterpoints.engine.common;"
        "print('django' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, env=env, check=True
    )
    assert done.stdout.strip() == "False"


def test_a_half_mp_sanction_still_needs_the_board_criteria_dbf_2_16():
    # § 403B2 half MP: ½ with 48 boards (6.0 SP); with 20 boards the form fails § 403B5d (< 27 boards): nothing.
    assert by_player(pair_event_awards(sp_event(organizer="club", sanction="half")))[("p1a", "final")].units == 60
    short = PairEvent("pairs", "SP", (twelve_pairs(20, "final"),), organizer="club", sanction="half")
    assert by_player(pair_event_awards(short))[("p1a", "final")].units == 0


def test_stated_match_results_must_fit_together_dbf_2_10():
    event = TeamEvent("BP", "bp", matches=(Match("r1", 24, side("H", "win"), side("A", "win")),))
    with pytest.raises(RequestError) as caught:
        team_event_awards(event)
    assert caught.value.field == "matches[0].result"


def test_a_player_in_two_entries_of_one_section_is_refused_dbf_2_8():
    entries = (pair("p1", 1, 24, x=24, y=24), pair("p2", 2, 24, x=24, z=24))
    with pytest.raises(RequestError) as caught:
        pair_event_awards(PairEvent("pairs", "BP", (Part("d", (Section("A", 12, 24, entries),)),)))
    assert "x" in caught.value.message

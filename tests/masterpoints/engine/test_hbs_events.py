"""A whole HBS tournament to per-player awards: kinds (H-1), S as input (H-4), long team competitions (H-5),
the 33 % rule (H-9), minimum fields (H-10) and compound events (H-11).

Logarithms used below, written out by hand:
    n = 2:  s_1 = ln(3/0.3) = ln 10 = 2.302585, s_2 = ln(3/1.3) = 0.836248, s_2/s_1 = 0.363177
    n = 6:  s_2/s_1 = ln(7/1.3)/ln(7/0.3) = 1.683546/3.149883 = 0.534479
    n = 15: s_1 = ln(16/0.3) = 3.976562, s_12 = ln(16/11.3) = 0.347786, s_12/s_1 = 0.087459
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest

from masterpoints.engine.common import RequestError
from masterpoints.engine.hbs import (
    HBS_DRAFT,
    Event,
    EventEntry,
    KindAward,
    Match,
    MatchSide,
    Participant,
    Stage,
    event_awards,
)


def pair(key: str, place: int, last: int | None = None) -> EventEntry:
    return EventEntry(key, place, (Participant(f"{key}-1"), Participant(f"{key}-2")), last=last)


def pairs_field(size: int) -> tuple[EventEntry, ...]:
    return tuple(pair(f"p{place}", place) for place in range(1, size + 1))


def points(awards, player: str, kind: str = "black", part: str = "") -> int:
    (found,) = [a for a in awards if a.player == player and a.kind == kind and a.part == part]
    return found.units


def inputs(award) -> dict[str, str]:
    return dict(award.explanation.inputs)


def reason(award):
    """The award's reason for a zero (code and parameters), or ``None``."""
    return award.explanation.reason


# --- H-1: kinds --------------------------------------------------------------------------------------------


def test_each_kind_a_tournament_awards_uses_its_own_strength_h_1():
    # pairs N = 12, D = 24: black S = 1 → B = 5.4 · 3 − 7 = 9.2 → 10;
    # red S = 2 → B = 5.4 · 2 · 3 − 7 = 25.4 → 26, place 2: 25.4 · 0.534479 = 13.5758 → 14
    event = Event(
        "pairs",
        pairs_field(12),
        kinds=(KindAward("black", Decimal("1")), KindAward("red", Decimal("2"))),
        boards=24,
    )
    awards = event_awards(event)
    assert points(awards, "p1-1", "black") == 10
    assert points(awards, "p1-2", "black") == 10
    assert points(awards, "p1-1", "red") == 26
    assert points(awards, "p2-2", "red") == 14
    assert {a.kind for a in awards} == {"black", "red"}
    assert all("H-1" in a.explanation.rules for a in awards)


def test_an_unlisted_event_awards_the_rule_sets_default_kind_and_strength_h_1():
    # no kinds: black with the S set for unlisted events (1 in the draft) → 10 as above
    event = Event("pairs", pairs_field(12), boards=24)
    awards = event_awards(event)
    assert {a.kind for a in awards} == {"black"}
    assert points(awards, "p1-1") == 10
    assert inputs(awards[0])["kinds from"] == "unlisted event default"
    # the default is the federation's: red with S = 2 → 26
    rules = replace(HBS_DRAFT, unlisted_awards=(("red", Fraction(2)),))
    assert points(event_awards(event, rules), "p1-1", "red") == 26


def test_an_unknown_point_kind_is_refused_h_1():
    event = Event("pairs", pairs_field(12), kinds=(KindAward("gold", Decimal("1")),), boards=24)
    with pytest.raises(RequestError) as caught:
        event_awards(event)
    assert caught.value.field == "kinds[0].kind"


# --- H-4: strength -----------------------------------------------------------------------------------------


def test_strength_is_an_input_and_a_computed_strength_can_be_plugged_in_later_h_4():
    event = Event("pairs", pairs_field(12), kinds=(KindAward("red"),), boards=24)
    with pytest.raises(RequestError) as caught:
        event_awards(event)
    assert caught.value.field == "kinds[0].strength"
    # a strength source (the later computed S) is asked only when S is missing: S = 2 → 26 as above
    asked = []

    def computed(ev, kind):
        asked.append(kind.kind)
        return Decimal("2")

    assert points(event_awards(event, strength_for=computed), "p1-1", "red") == 26
    assert asked == ["red"]


# --- H-5: long-running team competitions -------------------------------------------------------------------


def league(**changes) -> Event:
    """Four teams, S = 1. Team boards: A 48, B 32 (it had byes), C 48, D 48."""
    a = EventEntry("A", 1, (Participant("a1", 48), Participant("a2", 40), Participant("a3", 20)), boards=48)
    b = EventEntry("B", 2, (Participant("b1", 32),), boards=32)
    c = EventEntry("C", 3, (Participant("c1", 48),), boards=48)
    d = EventEntry("D", 4, (Participant("d1", 48),), boards=48)
    matches = (
        # 16 boards, A wins; a2 played 6 (37.5 %), a3 5 (31.25 %)
        Match(
            "r1",
            16,
            MatchSide("A", (Participant("a1", 16), Participant("a2", 6), Participant("a3", 5))),
            MatchSide("B", (Participant("b1", 16),)),
            winner="A",
        ),
        Match("r2", 24, MatchSide("C", (Participant("c1", 24),)), MatchSide("D", (Participant("d1", 24),)), "C"),
        Match("r3", 12, MatchSide("C", (Participant("c1", 12),)), MatchSide("D", (Participant("d1", 12),)), "D"),
        Match("r4", 16, MatchSide("A", (Participant("a1", 16),)), MatchSide("C", (Participant("c1", 16),)), None),
    )
    event = Event(
        "teams",
        (a, b, c, d),
        kinds=(KindAward("black", Decimal("1")),),
        long_running=True,
        matches=matches,
    )
    return replace(event, **changes)


def test_every_won_match_of_sixteen_boards_or_more_scores_h_5():
    """With rule 6's 33 % judged match by match (the setting that keeps H-5's former reading; H-28 judges it over
    the competition, next test)."""
    awards = event_awards(league(), replace(HBS_DRAFT, team_share_basis="match"))
    # r1, 16 boards: B = (3 + 2·2/5) · 1 · (1 + 16/12) − 7 = 3.8 · 7/3 − 7 = 1.8667 → 2
    assert points(awards, "a1", part="match r1") == 2
    assert points(awards, "a2", part="match r1") == 2
    # a3 played 5 of the 16 boards: 31.25 % < 33 %
    assert points(awards, "a3", part="match r1") == 0
    (a3,) = [a for a in awards if a.player == "a3" and a.part == "match r1"]
    assert (reason(a3).code, reason(a3).values) == ("MATCH_SHARE_TOO_SMALL", {"share": "33 %"})
    assert inputs(a3)["reason"] == "played less than 33 % of the match (H-9)"
    # r2, 24 boards: 3.8 · 3 − 7 = 4.4 → 5
    assert points(awards, "c1", part="match r2") == 5
    # r3 has only 12 boards: not scored per win, and the reason is shown
    (short,) = [a for a in awards if a.part == "match r3"]
    assert short.units == 0
    assert (reason(short).code, reason(short).values) == ("MATCH_TOO_SHORT_FOR_WIN", {"boards": "12", "need": "16"})
    assert inputs(short)["reason"] == reason(short).text
    # the losers and the drawn match r4 get no award per match: only the winners' players are listed
    per_match = {(a.player, a.part) for a in awards if a.part.startswith("match")}
    assert per_match == {
        ("a1", "match r1"),
        ("a2", "match r1"),
        ("a3", "match r1"),
        ("c1", "match r2"),
        ("d1", "match r3"),
    }


def test_the_33_percent_is_judged_once_over_the_competition_rule_6_h_28():
    """H-28, rule 6: "Da bi ostvario pravo na bodovanje u timskim natjecanjima, igrač mora sudjelovati u barem 33%
    djeljenja." The right is earned over the competition's boards: a3, with 20 of A's 48 boards (41.7 %), scores
    A's win in r1 although it sat 5 of its 16 boards (31.25 %); a4, with 6 of 48 (12.5 %), scores no win, although
    6 of r1's 16 boards (37.5 %) would have been enough match by match, and no placing."""
    a = EventEntry(
        "A", 1, (Participant("a1", 48), Participant("a3", 20), Participant("a4", 6), Participant("a5", 0)), boards=48
    )
    r1 = replace(
        league().matches[0],
        home=MatchSide("A", (Participant("a1", 16), Participant("a3", 5), Participant("a4", 6))),
    )
    awards = event_awards(league(entries=(a, *league().entries[1:]), matches=(r1, *league().matches[1:])))
    assert [points(awards, p, part="match r1") for p in ("a1", "a3", "a4", "a5")] == [2, 2, 0, 0]
    (a4,) = [award for award in awards if award.player == "a4" and award.part == "match r1"]
    assert (reason(a4).code, reason(a4).values) == ("TEAM_SHARE_TOO_SMALL", {"share": "33 %"})
    assert inputs(a4)["boards played in the competition"] == "6 of 48 (12.50 %)"
    assert "H-28" in a4.explanation.rules
    assert points(awards, "a4", part="final placing") == 0 and points(awards, "a3", part="final placing") == 16


def test_the_33_percent_basis_is_a_rule_set_value_h_28():
    from masterpoints.engine.hbs.rules import HbsRuleSet

    assert HBS_DRAFT.team_share_basis == "competition"
    assert HbsRuleSet.from_dict({"team_share_basis": "match"}).team_share_basis == "match"
    with pytest.raises(ValueError, match="team_share_basis"):
        HbsRuleSet.from_dict({"team_share_basis": "season"})


def test_the_final_placing_is_one_b_for_first_place_and_the_others_proportional_h_23():
    """H-23 (Način 3–4: "Bodovi B za prvo mjesto …", "Ostali nagrađeni bodove dobivaju bodove proporcionalno"):
    one B, D = the winner's 48 boards (the event gives no D), and team B's second place is its share of it
    although B played only 32 boards (H-5 used to give it a B of its own from D = 32: 4)."""
    awards = event_awards(league())
    # n = 2. A: D = 48 → B = (3 + 4·2/5) · 1 · (1 + 48/12) − 7 = 4.6 · 5 − 7 = 16 → 16
    assert points(awards, "a1", part="final placing") == 16
    # B: place 2 of the same scale: 16 · 0.363177 = 5.8108 → 6
    assert points(awards, "b1", part="final placing") == 6
    # the competition's D, when given, is the D of the one B
    assert points(event_awards(league(boards=36)), "a1", part="final placing") == 12
    # C is third of four: beyond n = 2
    assert points(awards, "c1", part="final placing") == 0
    # a3 played 20 of A's 48 boards (41.7 %): scores the placing though not match r1
    assert points(awards, "a3", part="final placing") == 16


def test_a_drawn_match_scores_only_when_the_rule_set_says_so_h_5():
    rules = replace(HBS_DRAFT, draw_share=Fraction(1, 2))
    awards = event_awards(league(), rules)
    # r4, 16 boards drawn: half of 1.8667 = 0.9333 → 1 for both sides
    assert points(awards, "a1", part="match r4") == 1
    assert points(awards, "c1", part="match r4") == 1


def test_the_per_win_parameters_are_configuration_h_5():
    # N = 4 instead of 2 per win: (3 + 4·2/5) · 7/3 − 7 = 4.6 · 7/3 − 7 = 3.7333 → 4; and 12 boards suffice
    rules = replace(HBS_DRAFT, win_field=4, win_min_boards=12)
    awards = event_awards(league(), rules)
    assert points(awards, "a1", part="match r1") == 4
    # r3, 12 boards: 4.6 · 2 − 7 = 2.2 → 3
    assert points(awards, "d1", part="match r3") == 3


def test_a_share_of_a_match_estimated_from_the_team_boards_is_compared_exactly_h_18():
    """H-18: without a line-up a player with 16 of the team's 48 boards has a third of every match, 16/3 of its
    16 boards: at least 33 % (rule 6), so the win scores; 5 whole boards (31.25 %) would lose it. (Judged match by
    match, the setting of H-5's former reading; H-28 judges the team's boards of the competition.)"""
    match = Match(
        "r1",
        16,
        MatchSide("A", (Participant("a1", 16), Participant("a2", 6), Participant("a3", Fraction(16, 3)))),
        MatchSide("B", (Participant("b1", 16),)),
        winner="A",
    )
    awards = event_awards(league(matches=(match,)), replace(HBS_DRAFT, team_share_basis="match"))
    assert points(awards, "a3", part="match r1") == 2
    (a3,) = [a for a in awards if a.player == "a3" and a.part == "match r1"]
    assert inputs(a3)["boards played"] == "5.33 of 16 (33.33 %)"


def test_only_team_competitions_are_long_running_h_5():
    with pytest.raises(RequestError) as caught:
        event_awards(Event("pairs", pairs_field(12), boards=24, long_running=True))
    assert caught.value.field == "long_running"


# --- H-9: who in a unit scores -----------------------------------------------------------------------------


def teams3(players: tuple[Participant, ...], team_boards: int | None = None) -> Event:
    entries = (
        EventEntry("A", 1, players, boards=team_boards),
        EventEntry("B", 2, (Participant("b1", 24),)),
        EventEntry("C", 3, (Participant("c1", 24),)),
    )
    return Event("teams", entries, kinds=(KindAward("black", Decimal("1")),), boards=24)


def test_team_players_need_a_third_of_the_boards_to_score_h_9():
    # 3 teams, D = 24: B = (3 + 3·2/5) · 1 · 3 − 7 = 4.2 · 3 − 7 = 5.6 → 6 for every player of team A
    # who played at least 33 % of its 24 boards: 8/24 = 33.3 % scores, 7/24 = 29.2 % does not
    players = tuple(Participant(f"a{b}", b) for b in (24, 16, 8, 7))
    awards = event_awards(teams3(players))
    assert [points(awards, f"a{b}") for b in (24, 16, 8, 7)] == [6, 6, 6, 0]
    low = next(a for a in awards if a.player == "a7")
    assert "H-9" in low.explanation.rules
    assert (reason(low).code, reason(low).values) == ("TEAM_SHARE_TOO_SMALL", {"share": "33 %"})
    assert inputs(low)["reason"] == "played less than 33 % (rule 6, H-9)"
    assert reason(next(a for a in awards if a.player == "a8")) is None


def test_the_third_is_thirty_three_percent_compared_exactly_h_9():
    # team boards 100: 33 boards = 33 % exactly scores (≥), 32 does not
    players = (Participant("x33", 33), Participant("x32", 32))
    awards = event_awards(teams3(players, team_boards=100))
    assert points(awards, "x33") == 6
    assert points(awards, "x32") == 0
    # the share is a setting: at 40 % neither scores
    awards = event_awards(teams3(players, team_boards=100), replace(HBS_DRAFT, team_board_share=Fraction(2, 5)))
    assert points(awards, "x33") == 0


def test_every_player_of_a_scoring_pair_gets_the_pairs_points_h_9():
    awards = event_awards(Event("pairs", pairs_field(12), boards=24))
    # place 2: 9.2 · 0.534479 = 4.9172 → 5 for both players; no board counts needed for pairs
    assert points(awards, "p2-1") == points(awards, "p2-2") == 5


def test_a_team_player_without_a_board_count_is_refused_naming_the_place_h_9():
    with pytest.raises(RequestError) as caught:
        event_awards(teams3((Participant("a1", 24), Participant("a2"))))
    assert caught.value.field == "entries[0].players[1].boards"


# --- H-10: minimum field at the tournament level -----------------------------------------------------------


def test_a_tournament_below_the_minimum_field_records_zero_awards_with_the_reason_h_10():
    awards = event_awards(Event("pairs", pairs_field(5), boards=24))
    assert len(awards) == 10
    assert all(a.units == 0 for a in awards)
    assert all("H-10" in a.explanation.rules for a in awards)
    assert all(reason(a).code == "FIELD_BELOW_MINIMUM" for a in awards)
    assert reason(awards[0]).values == {"n": "5", "noun": "pairs", "form": "pairs", "minimum": "6"}
    assert awards[0].explanation.as_dict()["reason"]["code"] == "FIELD_BELOW_MINIMUM"
    assert inputs(awards[0])["reason"] == reason(awards[0]).text


def test_guests_count_in_the_field_h_10():
    # six pairs of which one is two guests: the field reaches 6 and scores.
    # N = 6, D = 24: B = (3 + 6/5) · 3 − 7 = 5.6 → 6
    entries = (*pairs_field(5), EventEntry("guests", 6, (Participant("guest-a"), Participant("guest-b"))))
    awards = event_awards(Event("pairs", entries, boards=24))
    assert points(awards, "p1-1") == 6
    # N may be given when not every unit is on the upload (only registered players were reported)
    awards = event_awards(Event("pairs", pairs_field(4), boards=24, participants=6))
    assert points(awards, "p1-1") == 6


# --- H-11: compound events ---------------------------------------------------------------------------------


def test_a_compound_event_is_one_tournament_over_the_whole_field_and_the_winners_path_h_11():
    # 30 pairs play a 52-board qualification; the top 10 a 26-board final; ranked by the final result.
    # N = 30 (whole starting field), D = 52 + 26 = 78 (the winner's path):
    # B = (3 + 30/5) · 1 · (1 + 78/12) − 7 = 9 · 7.5 − 7 = 60.5 → 61; n = 15
    entries = pairs_field(30)
    finalists = tuple(e.entry for e in entries[:10])
    event = Event(
        "pairs",
        entries,
        kinds=(KindAward("black", Decimal("1")),),
        stages=(Stage("qualification", 52), Stage("final", 26, finalists)),
    )
    awards = event_awards(event)
    assert points(awards, "p1-1") == 61
    # place 12 (out in the qualification) on the same scale: 60.5 · 0.087459 = 5.2913 → 6
    assert points(awards, "p12-1") == 6
    assert points(awards, "p16-1") == 0
    first = next(a for a in awards if a.player == "p1-1")
    assert "H-11" in first.explanation.rules
    assert inputs(first)["N"] == "30"
    assert inputs(first)["D"] == "78"


def test_a_team_in_a_compound_event_is_measured_against_its_own_path_h_11():
    # 3 teams; a 24-board stage for all, a 24-board final for A and B only. D = 48 (A's path).
    # C played 24 boards: its player with 8 boards has 33.3 % of C's path and would score if C were paid.
    # B = (3 + 3·2/5) · 1 · (1 + 48/12) − 7 = 4.2 · 5 − 7 = 14; n = 2; B's player with 16 of 48 boards
    # (33.3 %) scores place 2: 14 · 0.363177 = 5.0845 → 6.
    entries = (
        EventEntry("A", 1, (Participant("a1", 48),)),
        EventEntry("B", 2, (Participant("b1", 16), Participant("b2", 15))),
        EventEntry("C", 3, (Participant("c1", 8),)),
    )
    event = Event(
        "teams",
        entries,
        kinds=(KindAward("black", Decimal("1")),),
        stages=(Stage("round robin", 24), Stage("final", 24, ("A", "B"))),
    )
    awards = event_awards(event)
    assert points(awards, "a1") == 14
    assert points(awards, "b1") == 6
    assert points(awards, "b2") == 0  # 15 of 48 = 31.25 %
    assert inputs(next(a for a in awards if a.player == "c1"))["boards played"].startswith("8 of 24")


# --- explanations and input checks ------------------------------------------------------------------------


def test_every_award_explains_itself_with_rule_ids_and_inputs():
    awards = event_awards(
        Event("pairs", (pair("x", 1), pair("y", 2, 3), pair("z", 2, 3), *pairs_field(12)[3:]), boards=24)
    )
    tied = next(a for a in awards if a.player == "y-1")
    assert tied.explanation.rules[:2] == ("H-1", "HBS formula")
    assert {"H-3", "H-6", "H-7"} <= set(tied.explanation.rules)
    found = inputs(tied)
    assert (found["N"], found["T"], found["S"], found["D"], found["B"], found["n"]) == (
        "12",
        "1",
        "1",
        "24",
        "9.2000",
        "6",
    )
    assert found["place"] == "2–3"
    assert found["points"] == str(tied.units)
    # places 2–3: (4.9172 + 3.2508)/2 = 4.0840 → 5
    assert tied.units == 5
    assert tied.amount == "5"


def test_a_player_in_two_entries_is_refused():
    entries = (pair("p1", 1), EventEntry("p2", 2, (Participant("p1-1"), Participant("q"))), *pairs_field(12)[2:])
    with pytest.raises(RequestError) as caught:
        event_awards(Event("pairs", entries, boards=24))
    assert caught.value.field == "entries[1].players[0]"


def test_inconsistent_places_are_refused():
    # the tie 2–3 covers two places but only one entry has it
    entries = (pair("a", 1), pair("b", 2, 3), *pairs_field(12)[3:])
    with pytest.raises(RequestError) as caught:
        event_awards(Event("pairs", entries, boards=24, participants=12))
    assert caught.value.field == "entries"

"""The pasted ranking of an office entry (§ 451A, D-Q33): places with ties, bounded numbers, each problem
named with its line."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from masterpoints.engine.dbf.tables import CUP_ROUNDS
from masterpoints.office_entry.ranking import MAX_MATCHES, Expectation, parse_ranking

PAIRS = Expectation(entry="pairs", participants=12)
TEAMS = Expectation(entry="teams", participants=8, team_boards=112)


def test_repeated_places_tie_as_in_the_results_template_405b3():
    """Two lines saying 3 cover places 3 and 4 (competition ranking, formats.md § 1.5.1; shared, § 405B3);
    separators may be spaces, tabs or semicolons."""
    lines, errors = parse_ranking("1;1 2\n2\t3 4\n3 5 6\n3 7,8\n5 9 10", PAIRS)
    assert errors == []
    assert [(line.first, line.numbers) for line in lines][2:4] == [(3, ("5", "6")), (3, ("7", "8"))]


def test_team_lines_carry_matches_and_the_boards_a_player_played_d_q34():
    lines, errors = parse_ranking("1 1 2 3 4:56 won=6 drawn=1", TEAMS)
    assert errors == []
    assert (lines[0].won, lines[0].drawn, lines[0].boards) == (6, 1, (None, None, None, 56))


def test_team_numbers_are_bounded_and_boards_are_at_most_the_teams_d_q34():
    _lines, errors = parse_ranking(f"1 1 2 won={MAX_MATCHES + 1}\n2 3 4:113", TEAMS)
    assert errors == [
        f"Line 1: won= takes a number of matches from 0 to {MAX_MATCHES}, not “{MAX_MATCHES + 1}”.",
        "Line 2: a player played 113 boards, more than the team's 112.",
    ]
    _lines, errors = parse_ranking("1 1:20 2", PAIRS)
    assert errors == ["Line 1: “number:boards” is for the team events of § 414B–G only."]


def test_cup_rounds_must_be_rounds_of_414h():
    cup = Expectation(entry="cup", participants=32, rounds=CUP_ROUNDS)
    lines, errors = parse_ranking("1 1 2 3 4 rounds=final,semifinal", cup)
    assert errors == [] and lines[0].rounds == ("final", "semifinal")
    _lines, errors = parse_ranking("1 1 2 3 4 rounds=final,champions", cup)
    assert errors and errors[0].startswith("Line 1: rounds= lists at most")


def test_a_bonus_entered_by_hand_is_in_the_kinds_steps_433b2b():
    """§ 433B2b, § 451A: the bonus is whole units of the kind (SP: 0.1)."""
    junior = Expectation(entry="pairs", participants=20, bonus_unit=Fraction(1, 10))
    lines, errors = parse_ranking("1 1 2 bonus=4,5", junior)
    assert errors == [] and lines[0].bonus == Decimal("4.5")
    _lines, errors = parse_ranking("1 1 2 bonus=4.55\n2 3 4 bonus=NaN", junior)
    assert [error.split(":")[0] for error in errors] == ["Line 1", "Line 2"]
    assert "in steps of 0.1," in errors[0]


def test_ties_past_the_field_and_empty_rankings_are_refused():
    _lines, errors = parse_ranking("1 1 2\n2 3 4\n" + "".join(f"3 {n} {n + 50}\n" for n in range(5, 16)), PAIRS)
    assert errors == ["Line 3: 11 lines tied on place 3 reach beyond the field of 12."]
    assert parse_ranking("# nothing\n\n", PAIRS) == (
        [],
        ["The ranking is empty: give one line per pair or team, its place first."],
    )

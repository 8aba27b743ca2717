"""Issue 34, item 4: what a mini-team event is (§ 421A, D-Q61), checked on the file's matches through the real
path (team CSV → preview → confirm → ledger).

§ 421A: "En miniholdturnering defineres ved, at den opfylder følgende betingelser: 1. Turneringen indeholder
flere end to kampe pr. sektion (spilledag). 2. Hver kamp indeholder mindst 2 spil og maksimalt 11 spil."
D-Q61: a form left to the file follows the definition (MINIHOLD_BY_MATCHES); a declared form stands, and a
contradiction is a warning naming § 421A (FORM_CONTRADICTS_MATCHES).
"""

from __future__ import annotations

from tests.masterpoints.uploads.player_page import page_shows
from tests.masterpoints.uploads.team_files import preview_and_confirm, register, round_robin, team_csv, team_numbers

FOUR = [(1, team, team, 18) for team in (1, 2, 3, 4)]


def test_three_6_board_matches_filed_as_teams_are_a_mini_team_event_paid_on_the_placing_421a_422(world, personas):
    """Four teams, three 6-board matches in one session: a mini-team event. The winner gets 3 BP for each of the
    4 teams (§ 422), 12 BP, not 3 match wins and a bonus (20 BP as teams); no bonus (§ 421C)."""
    register(world, FOUR)
    data = team_csv(world.club_a.number, FOUR, round_robin([1, 2, 3, 4], 6))
    preview, paid = preview_and_confirm(world, personas, data, category="BP")
    assert {paid[n] for n in team_numbers(1, 1)} == {12}
    (named,) = [issue for issue in preview.issues if issue.code == "MINIHOLD_BY_MATCHES"]
    assert named.params["boards"] == "6"
    assert "TEAM_SHARE_ESTIMATED" not in {issue.code for issue in preview.issues}
    assert page_shows(world, team_numbers(1, 1)[0], "Holdturnering", "12 BP")


def test_two_16_board_matches_declared_mini_teams_are_named_as_a_contradiction_421a(world, personas):
    three = [(1, team, team, 32) for team in (1, 2, 3)]
    register(world, three)
    data = team_csv(world.club_a.number, three, round_robin([1, 2, 3], 16))
    preview, paid = preview_and_confirm(world, personas, data, category="BP", form="minihold")
    (warning,) = [issue for issue in preview.issues if issue.code == "FORM_CONTRADICTS_MATCHES"]
    assert warning.severity == "warning" and warning.params["declared"] == "minihold"
    assert paid  # the declared form stands once the director ticked the warning


def test_a_team_event_of_24_board_matches_stays_a_team_event(world, personas):
    register(world, FOUR)
    data = team_csv(world.club_a.number, [(1, t, t, 72) for t in (1, 2, 3, 4)], round_robin([1, 2, 3, 4], 24))
    preview, paid = preview_and_confirm(world, personas, data, category="BP")
    assert {paid[n] for n in team_numbers(1, 1)} == {3 * 16 + 30}
    assert not {"MINIHOLD_BY_MATCHES", "FORM_CONTRADICTS_MATCHES"} & {issue.code for issue in preview.issues}

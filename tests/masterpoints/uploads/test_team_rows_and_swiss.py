"""Issue 34, items 1 and 2 (and § 411B4 of item 8): the facts of a DBf team event reach the team scoring
through the real path (team CSV → preview → confirm → ledger).

* § 405A2 "Hvis turneringen er opdelt i flere rækker efter styrke, uddeles MP gradueret efter styrken";
  § 412A2 (A-rækken 16 + R, B-rækken 12 + R BP a won match), § 412B2 (B-rækken 2/3 of the A row's bonus).
* § 405A5 "Hvis der spilles efter Monrads system eller tilsvarende således, at ikke alle hold møder hinanden,
  uddeles en eventuel bonus som for et antal hold svarende til antal kampe + 1".
* § 411B4 "Walk-over … anses også som vundne kampe, men der uddeles ikke MP".
"""

from __future__ import annotations

from tests.masterpoints.uploads.player_page import page_shows
from tests.masterpoints.uploads.team_files import (
    preview_and_confirm,
    register,
    round_robin,
    team_csv,
    team_numbers,
)

ROWS = [(1, team, team, 72) for team in (1, 2, 3, 4)] + [(2, team, team - 4, 72) for team in (5, 6, 7, 8)]


def test_team_rows_split_by_strength_pay_each_row_its_value_and_bonus_405a2_412a2_412b2(world, personas):
    """Two rows of four, 24-board matches, winners win all three: row A 3 × 18 + 30 = 84 BP (not 78 as a
    random row), row B 3 × 14 + 2/3 × 30 = 62 BP."""
    register(world, ROWS)
    data = team_csv(world.club_a.number, ROWS, round_robin([1, 2, 3, 4], 24) + round_robin([5, 6, 7, 8], 24))
    preview, paid = preview_and_confirm(world, personas, data, category="BP", split_by_strength=True)
    assert {paid[n] for n in team_numbers(1, 1)} == {84}
    assert {paid[n] for n in team_numbers(2, 5)} == {62}
    (rows,) = [issue for issue in preview.issues if issue.code == "TEAM_ROWS_BY_STRENGTH"]
    assert "18 BP" in rows.params["rows"] and "14 BP" in rows.params["rows"]
    assert page_shows(world, team_numbers(2, 5)[0], "Holdturnering", "14 BP")


def test_team_rows_split_at_random_pay_16_a_match_in_every_row_412a1(world, personas):
    register(world, ROWS)
    data = team_csv(world.club_a.number, ROWS, round_robin([1, 2, 3, 4], 24) + round_robin([5, 6, 7, 8], 24))
    preview, paid = preview_and_confirm(world, personas, data, category="BP", split_by_strength=False)
    assert {paid[n] for n in team_numbers(1, 1) + team_numbers(2, 5)} == {78}
    assert "TEAM_ROWS_BY_STRENGTH" not in {issue.code for issue in preview.issues}
    assert page_shows(world, team_numbers(2, 5)[0], "Holdturnering", "16 BP")


#: Eight teams, three Swiss rounds, nobody meets a team twice; the lower number wins every match.
SWISS_MATCHES = [
    (str(rnd), a, b, "16", "4", 24)
    for rnd, pairs in (
        (1, ((1, 2), (3, 4), (5, 6), (7, 8))),
        (2, ((1, 3), (2, 4), (5, 7), (6, 8))),
        (3, ((1, 5), (2, 6), (3, 7), (4, 8))),
    )
    for a, b in pairs
]
SWISS = [(1, team, team, 72) for team in range(1, 9)]


def test_a_swiss_team_event_pays_the_bonus_as_for_matches_plus_one_teams_405a5(world, personas):
    """8 teams, 3 rounds: T_eff = 4, so 2 teams get a bonus; the third team gets its 2 × 16 BP only (47 with
    the round-robin bonus of 8 teams). The file's matches show the fact, and the preview names it."""
    register(world, SWISS)
    preview, paid = preview_and_confirm(
        world, personas, team_csv(world.club_a.number, SWISS, SWISS_MATCHES), category="BP"
    )
    assert {paid[n] for n in team_numbers(1, 3)} == {32}
    assert {paid[n] for n in team_numbers(1, 1)} == {3 * 16 + 30}
    (swiss,) = [issue for issue in preview.issues if issue.code == "TEAM_SWISS_BONUS"]
    assert (swiss.params["teams"], swiss.params["matches"], swiss.params["effective"]) == (8, 3, 4)
    assert page_shows(world, team_numbers(1, 1)[0], "Holdturnering", "30 BP")


def test_a_walkover_counts_as_a_match_but_pays_no_mp_411b4(world, personas):
    """Round robin of four; team 4 did not turn up against team 1 (0 boards): team 1 gets no MP for it, the
    bonus still counts three matches, and the preview names the walkover."""
    teams = [(1, team, team, 72 if team not in (1, 4) else 48) for team in (1, 2, 3, 4)]
    register(world, teams)
    matches = [m if (m[1], m[2]) != (1, 4) else (m[0], 1, 4, "", "", 0) for m in round_robin([1, 2, 3, 4], 24)]
    preview, paid = preview_and_confirm(world, personas, team_csv(world.club_a.number, teams, matches), category="BP")
    assert {paid[n] for n in team_numbers(1, 1)} == {2 * 16 + 30}
    (walkover,) = [issue for issue in preview.issues if issue.code == "TEAM_WALKOVER"]
    assert (walkover.params["team"], walkover.params["opponent"]) == ("1", "4")
    assert page_shows(world, team_numbers(1, 1)[0], "Holdturnering", "30 BP")

"""Issue 34, item 8, § 405A6: a double round robin pays the bonus for each round on its own, through the real path
(team CSV → preview → confirm → ledger → the player's public page).

§ 405A6 "Hvis der spilles en dobbelt serieturnering, således at alle hold møder hinanden i to fulde kampe,
uddeles MP for de to omgange uafhængigt af hinanden, og der beregnes en eventuel bonus for hver af omgangene for
sig." D-Q65: each round is placed on the VP its matches gave (the file has only the final placing).
"""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from tests.masterpoints.uploads.team_files import preview_and_confirm, register, team_csv, team_numbers

TEAMS = [(1, team, team, 144) for team in (1, 2, 3, 4)]


def double_round_robin() -> list[tuple[str, int, int, str, str, int]]:
    """Four teams, 24-board matches, rounds 1-3 then 4-6: the lower number wins, except that team 2 beats team 1
    in the second round. Both finish on 84 VP; the file places team 1 first."""
    first = [("1", 1, 2), ("1", 3, 4), ("2", 1, 3), ("2", 2, 4), ("3", 1, 4), ("3", 2, 3)]
    second = [("4", 2, 1), ("4", 3, 4), ("5", 1, 3), ("5", 2, 4), ("6", 1, 4), ("6", 2, 3)]
    return [(rnd, a, b, "16", "4", 24) for rnd, a, b in first + second]


def test_a_double_round_robin_pays_a_bonus_for_each_round_405a6_d_q65(world, personas):
    """Teams 1 and 2 each win five 24-board matches (5 × 16 BP) and are first in one round (30 BP) and second in
    the other (20 BP): 130 BP each, instead of one bonus on the final placing for six matches."""
    register(world, TEAMS)
    data = team_csv(world.club_a.number, TEAMS, double_round_robin())
    preview, paid = preview_and_confirm(world, personas, data, category="BP")
    assert {paid[n] for n in team_numbers(1, 1) + team_numbers(1, 2)} == {5 * 16 + 30 + 20}
    assert {paid[n] for n in team_numbers(1, 3)} == {2 * 16}
    (double,) = [issue for issue in preview.issues if issue.code == "TEAM_DOUBLE_ROUND_ROBIN"]
    assert double.params["first"].startswith("1. 1, 2. 2")
    assert double.params["second"].startswith("1. 2, 2. 1")
    page = Client().get(reverse("public:player", args=[world.dbf.code, team_numbers(1, 1)[0]])).content.decode()
    assert "Holdturnering" in page  # one bonus line for each round
    assert '<td class="num">30 BP</td>' in page and '<td class="num">20 BP</td>' in page

"""§ 421B: with an odd number of mini-teams the team sitting out may get a substitute score for the MP
award ("fx 13 KP ved 20/0-skalaen"); D-Q23: a row with byes is ranked on VP with each bye counted as the
file's score for it, or else the rule set's ``minihold_bye_vp`` (13)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from masterpoints.engine.common import RequestError
from masterpoints.engine.dbf import events
from masterpoints.engine.dbf.minihold import TeamRound, bye_ranking
from masterpoints.engine.dbf.rules import DBF_2023
from masterpoints.engine.dbf.scale import ScaleRequest, scale

F = Fraction

#: Five teams, four rounds of a round robin: teams 2-5 each sit out once, team 1 plays all four matches.
#: (round, team, opponent or None, VP of team, VP of opponent)
SCHEDULE = [
    ("1", "1", "2", 11, 9),
    ("1", "3", "4", 10, 10),
    ("1", "5", None, None, None),
    ("2", "1", "3", 11, 9),
    ("2", "2", "5", 15, 5),
    ("2", "4", None, None, None),
    ("3", "1", "5", 11, 9),
    ("3", "2", "4", 12, 8),
    ("3", "3", None, None, None),
    ("4", "1", "4", 11, 9),
    ("4", "3", "5", 16, 4),
    ("4", "2", None, None, None),
]
#: The played VP alone: 1: 44, 2: 36, 3: 35, 4: 27, 5: 18, so the file ranks 1, 2, 3, 4, 5.
FILE_ORDER = ["1", "2", "3", "4", "5"]


def rounds(bye_vp=None) -> tuple[TeamRound, ...]:
    out = []
    for number, team, opponent, vp, other in SCHEDULE:
        if opponent is None:
            out.append(TeamRound(team, number, None if bye_vp is None else F(bye_vp), bye=True))
        else:
            out.append(TeamRound(team, number, F(vp)))
            out.append(TeamRound(opponent, number, F(other)))
    return tuple(out)


def section(team_rounds=()) -> events.Section:
    entries = tuple(
        events.Entry(entry=team, first=place, players=(events.Player(f"p{team}a", 18), events.Player(f"p{team}b", 18)))
        for place, team in enumerate(FILE_ORDER, start=1)
    )
    return events.Section(key="A", participants=5, boards=24, entries=entries, rounds=team_rounds)


def awards(sec: events.Section, rules=DBF_2023) -> dict[str, int]:
    event = events.PairEvent(form="minihold", category="BP", parts=(events.Part(key="", sections=(sec,)),))
    return {a.player: a.units for a in events.pair_event_awards(event, rules)}


def test_each_bye_counts_13_vp_and_the_row_is_ranked_on_the_totals_421b_d_q23():
    """§ 421B: 13 VP for each bye: 2: 49, 3: 48, 1: 44, 4: 40, 5: 31 VP. Team 1, first on the played VP
    alone, had no bye and is third; teams 2 and 3 take the two paid places (⌈5/3⌉ = 2) of § 406B."""
    ranking = bye_ranking(FILE_ORDER, rounds(), DBF_2023)
    assert ranking.totals == {"1": 44, "2": 49, "3": 48, "4": 40, "5": 31}
    assert ranking.places == {"2": (1, 1), "3": (2, 2), "1": (3, 3), "4": (4, 4), "5": (5, 5)}
    units = awards(section(rounds()))
    paid = scale(ScaleRequest(form="minihold", category="BP", participants=5, boards=24), DBF_2023)
    assert units["p2a"] == units["p2b"] == paid.share_units(1, 1) > units["p3a"] == paid.share_units(2, 2) > 0
    assert units["p1a"] == 0
    # Without the rounds the file's places stand: team 1 wins.
    assert awards(section())["p1a"] == paid.share_units(1, 1)


def test_the_explanation_names_the_bye_score_and_the_vp_counted_421b_d_q23():
    event = events.PairEvent(
        form="minihold", category="BP", parts=(events.Part(key="", sections=(section(rounds()),)),)
    )
    award = next(a for a in events.pair_event_awards(event, DBF_2023) if a.player == "p4a")
    assert {"§ 421B", "D-Q23"} <= set(award.explanation.rules)
    inputs = dict(award.explanation.inputs)
    assert (inputs["VP"], inputs["byes"], inputs["bye_VP"], inputs["place"]) == ("40", "1", "13", "4")


def test_a_bye_the_file_scores_keeps_that_score_421b_d_q23():
    """§ 421B gives 13 VP as an example ("fx"): a bye the organiser scored keeps the organiser's score."""
    ranking = bye_ranking(FILE_ORDER, rounds(bye_vp=4), DBF_2023)
    assert ranking.totals == {"1": 44, "2": 40, "3": 39, "4": 31, "5": 22}
    assert ranking.places["1"] == (1, 1)


def test_equal_totals_share_their_places_405b3_d_q23():
    tied = (TeamRound("1", "1", F(10)), TeamRound("2", "1", F(10)), TeamRound("3", "1", None, bye=True))
    ranking = bye_ranking(["1", "2", "3"], tied, DBF_2023)
    assert ranking.places == {"3": (1, 1), "1": (2, 3), "2": (2, 3)}


def test_without_a_bye_or_a_bye_score_the_files_places_stand_d_q23():
    played = tuple(r for r in rounds() if not r.bye)
    assert bye_ranking(FILE_ORDER, played, DBF_2023) is None
    assert bye_ranking(FILE_ORDER, rounds(), dataclasses.replace(DBF_2023, minihold_bye_vp=None)) is None


def test_a_row_with_a_bye_needs_the_vp_of_every_match_and_vp_on_the_scale_421b():
    missing = (*rounds(), TeamRound("1", "5", None))
    with pytest.raises(RequestError, match=r"round 5: 1 has no VP.*13 VP for each bye \(§ 421B, D-Q23\)"):
        bye_ranking(FILE_ORDER, missing, DBF_2023)
    with pytest.raises(RequestError, match="21 VP lies outside the 0–20 scale"):
        bye_ranking(FILE_ORDER, (*rounds(), TeamRound("1", "5", F(21))), DBF_2023)
    with pytest.raises(RequestError, match="round 5: 9 is not a team of this row"):
        bye_ranking(FILE_ORDER, (*rounds(), TeamRound("9", "5", F(1))), DBF_2023)


def test_rounds_rank_only_a_mini_team_row_421b():
    event = events.PairEvent(form="pairs", category="BP", parts=(events.Part(key="", sections=(section(rounds()),)),))
    with pytest.raises(RequestError, match="mini-team row"):
        events.pair_event_awards(event, DBF_2023)

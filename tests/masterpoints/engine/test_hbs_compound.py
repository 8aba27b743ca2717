"""The final result of a compound pairs event from its stages' rankings (rule 7, H-11, H-16): pure engine."""

from __future__ import annotations

import pytest

from masterpoints.engine.common import RequestError
from masterpoints.engine.hbs.compound import StageEntry, StageRanking, compound_ranking


def stage(name: str, boards: int, units: list[str], places: list[int] | None = None) -> StageRanking:
    places = places or list(range(1, len(units) + 1))
    last = {p: max(i + 1 for i, q in enumerate(places) if q == p) for p in places}
    return StageRanking(
        name,
        boards,
        tuple(StageEntry(u, p, last[p], (f"{u}-a", f"{u}-b")) for u, p in zip(units, places, strict=True)),
    )


def test_the_final_ranks_its_pairs_first_then_the_others_by_their_qualification_place_h_16():
    """H-16: the units of the last stage by their place there, then those eliminated by their place in the
    stage they reached; the final's stage lists only its units, so D is the winner's path (H-11)."""
    ranking = compound_ranking(
        [stage("qualification", 24, ["A", "B", "C", "D", "E", "F"]), stage("final", 16, ["C", "A", "B"])]
    )
    assert ranking.order == ("C", "A", "B", "D", "E", "F")
    assert ranking.places["D"] == (4, 4)
    assert [(s.name, s.boards, s.entries) for s in ranking.stages] == [
        ("qualification", 24, None),
        ("final", 16, ("C", "A", "B")),
    ]
    assert ranking.eliminated == 3


def test_equal_places_of_parallel_groups_of_a_stage_are_tied_h_16():
    """Qualification sections A and B rank their pairs on their own: the two 3rd places that did not reach the
    final share places 5–6 of the final result (H-7 then shares their points)."""
    qualification = StageRanking(
        "qualification",
        24,
        stage("A", 24, ["a1", "a2", "a3"]).entries + stage("B", 24, ["b1", "b2", "b3"]).entries,
    )
    ranking = compound_ranking([qualification, stage("final", 16, ["b1", "a1", "a2", "b2"])])
    assert ranking.places["a3"] == ranking.places["b3"] == (5, 6)
    assert ranking.places["b1"] == (1, 1)


def test_a_player_who_changes_partner_between_stages_is_refused_rule_7_h_16():
    """Rule 7 makes the pairs the units of the whole event: a player in two pairs cannot be ranked once."""
    qualification = stage("qualification", 24, ["A", "B", "C"])
    final = StageRanking("final", 16, (StageEntry("X", 1, 1, ("A-a", "Z")), StageEntry("B", 2, 2, ("B-a", "B-b"))))
    with pytest.raises(RequestError) as caught:
        compound_ranking([qualification, final])
    assert "A-a" in caught.value.message and "rule 7" in caught.value.message


def test_a_compound_event_has_at_least_two_stages_h_11():
    with pytest.raises(RequestError):
        compound_ranking([stage("only", 24, ["A", "B"])])

"""Award explanations stored apart from the ledger row (issue 16): a group's scale once, each award's own part,
one accessor that rebuilds the engine's dict exactly, write-once rows, and pages without a query per award."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from masterpoints.explanation_store import join, split
from masterpoints.ledger import explanations_store
from masterpoints.models import Award, AwardExplanation, AwardScale
from tests.factories import make_player, make_tournament, post_award

RULES = ["§ 406B1", "§ 405B1", "§ 405B2", "D-Q1"]


def pairs_place(place: int, boards: str = "24/24", **extra) -> dict:
    """A DBf club evening's explanation of ``place`` (§ 406B1): the scale's inputs, then the entry's own."""
    inputs = {"N": "12", "boards": "24", "D": "12", "M": "2", "MPmax": "24", "Q": "0.666667"}
    return {"rules": RULES, "inputs": {**inputs, "place": str(place), "boards_played": boards, "S": "1"}, **extra}


#: Explanations of every shape the ledger holds: pairs places, a team member with a share, an HBS league
#: match with a reason code, a foreign registration (no inputs), an office entry's rule list.
SHAPES = [
    [pairs_place(1), pairs_place(1), pairs_place(2), pairs_place(3, "12/24")],
    [
        {"rules": ["§ 414B"], "inputs": {"team": "4", "share": "1/6", "boards played": "48 of 64"}},
        {"rules": ["§ 414B"], "inputs": {"boards played": "64 of 64", "team": "4", "share": "1/5"}},
    ],
    [
        {
            "rules": ["H-5"],
            "inputs": {"match": "3", "reason": "too short"},
            "reason": {"code": "MATCH_TOO_SHORT_FOR_WIN", "params": {"boards": 3}},
        },
        {"rules": ["H-5"], "inputs": {"match": "4"}},
    ],
    [{"rules": ["§ 401B"], "country": "Sverige", "foreign_kind": "SP", "foreign_units": 150, "result": "15"}],
    [{"rules": ["§ 434A1a", "§ 451A", "D-Q33"], "inputs": "by hand"}, {"inputs": {"a": "1"}, "rules": []}],
]


def ordered(value) -> str:
    """The JSON text of ``value`` in its own key order: equal only when keys and their order are."""
    return json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize("group", SHAPES)
def test_a_groups_explanations_are_rebuilt_exactly_keys_in_their_order_issue_16(group):
    scale, owns = split(group)
    assert [ordered(join(scale, own)) for own in owns] == [ordered(e) for e in group]


def test_the_scale_holds_what_the_group_shares_and_each_award_only_its_own_values_issue_16():
    scale, owns = split(SHAPES[0])
    assert scale["top"] == {"rules": RULES}
    assert set(scale["inputs"]) == {"N", "boards", "D", "M", "MPmax", "Q", "S"}
    assert owns[0] == owns[1] == {"inputs": {"place": "1", "boards_played": "24/24"}}
    assert owns[3] == {"inputs": {"place": "3", "boards_played": "12/24"}}


@pytest.mark.django_db
def test_a_scale_is_stored_once_for_its_group_and_for_another_tournament_with_the_same_scale_issue_16():
    first = explanations_store([("A", e) for e in SHAPES[0]] + [("empty", {})])
    again = explanations_store([("B", e) for e in SHAPES[0]])
    assert first[-1] is None  # an empty explanation is no row: the ledger's NULL
    assert first[:-1] == again and first[0] == first[1]  # a pair's two players share their place's row
    assert AwardScale.objects.count() == 1 and AwardExplanation.objects.count() == 3


@pytest.mark.django_db
def test_scale_and_explanation_rows_are_write_once_issue_16():
    (ref,) = explanations_store([(None, pairs_place(1))])
    stored = AwardExplanation.objects.select_related("scale").get(pk=ref)
    for row in (stored, stored.scale):
        with pytest.raises(TypeError, match="written once"):
            row.save()
        with pytest.raises(TypeError, match="written once"):
            row.delete()
    with pytest.raises(TypeError, match="written once"):
        AwardScale.objects.update(data={})
    with pytest.raises(TypeError, match="written once"):
        AwardExplanation.objects.all().delete()


@pytest.mark.django_db
def test_the_player_page_reads_every_awards_explanation_without_a_query_per_award_issue_16(client, world):
    player = make_player(world.dbf, "40001", first="Mette", last="Spiller")

    def queries_with(tournaments: int) -> int:
        for index in range(tournaments):
            tournament = make_tournament(world.dbf, world.club_a, key=f"q{tournaments}-{index}")
            explanation = pairs_place(index + 1, boards=f"{index}/24")
            post_award(player, "BP", 1 + index, source="result", tournament=tournament, explanation=explanation)
        with CaptureQueriesContext(connection) as queries:
            # A query of its own: the page is rendered, not served whole as kept for anonymous readers.
            address = reverse("public:player", args=["dbf", player.number])
            body = client.get(address, {"awards": tournaments}).content.decode()
        assert f"{tournaments - 1}/24" in body  # the last award's own boards played (§ 405B6b)
        return len(queries)

    client.get(reverse("public:player", args=["dbf", player.number]))  # the federation and version, now cached
    assert queries_with(1) == queries_with(6)
    assert Award.objects.filter(player=player, explanation_ref__isnull=False).count() == 7

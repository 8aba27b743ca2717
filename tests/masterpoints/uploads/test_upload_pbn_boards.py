"""A PBN ranking without score tables gives the event's boards from ``NrBoards`` (no Boards on the form), and
a pair that played fewer boards keeps its own count, which the scoring sees (§ 405A1; BP: § 405B6b)."""

from __future__ import annotations

import pytest

from federation.models import Player
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_create

NUMBERS = [str(52001 + i) for i in range(24)]


@pytest.fixture
def register(world):
    for number in NUMBERS:
        Player.objects.create(federation=world.dbf, number=number, first_name="Jens", last_name=number)


def pbn_upload(world, actor, boards):
    head = '% PBN 2.1\n[Event "Mandag"]\n[Date "2025.02.03"]\n[Competition "Pairs"]\n[Scoring "MP"]\n'
    columns = "Rank;PairId;Names;MemberID;NrBoards;TotalPercentage"
    rows = "".join(
        f'{i + 1} {i + 1} "Jens {a};Jens {b}" "{a};{b}" {boards[i]} {70 - i}\n'
        for i, (a, b) in enumerate(zip(NUMBERS[::2], NUMBERS[1::2], strict=True))
    )
    return results_upload_create(
        actor=actor,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=(head + f'[TotalScoreTable "{columns}"]\n' + rows).encode(),
        filename="mandag.pbn",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None},
    )


def test_nrboards_give_the_boards_and_each_pair_its_own_so_nothing_is_typed_405a1(world, personas, register):
    boards = [24] * 12
    boards[1] = 10  # pair 2 came late
    preview = build_preview(pbn_upload(world, personas.director_a, boards))
    assert "BOARDS_UNKNOWN" not in {issue.code for issue in preview.issues}
    played = {}
    for _line, award in preview.ledger_awards:
        inputs = dict(award.explanation.inputs)
        assert inputs["boards"] == "24"  # the event's boards: the most any pair played
        played[award.player] = inputs["boards_played"]
    assert played == {f"-/-/-/{n}#{k}": ("10/24" if n == 2 else "24/24") for n in range(1, 5) for k in (1, 2)}

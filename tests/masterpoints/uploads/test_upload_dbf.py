"""DBf uploads through the engine, by the rule set valid on the date: the scale reaches the ledger per player."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import pairs_from_numbers, usebio_pairs

NUMBERS = [str(50001 + i) for i in range(24)]


@pytest.fixture
def register(world):
    for number in NUMBERS:
        Player.objects.create(federation=world.dbf, number=number, first_name="Jens", last_name=number)


def dbf_upload(world, actor, *, boards=24, category="BP", places=None):
    data = usebio_pairs(
        club_number=world.club_a.number,
        date=datetime.date(2025, 2, 3),
        name="Mandagsturnering",
        sections=[pairs_from_numbers(NUMBERS, seed=11)],
        boards=boards,
        places=[places] if places else None,
    )
    return results_upload_create(
        actor=actor,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="monday.xml",
        facts={"organiser_kind": "club", "category": category, "form": "", "boards": None, "met": None},
    )


def units_by_player(world):
    totals = {}
    for award in Award.objects.filter(federation=world.dbf):
        totals[award.player.number] = totals.get(award.player.number, 0) + award.units
    return totals


def test_a_club_evening_of_12_pairs_pays_the_d_p1_scale_to_each_player(world, personas, register):
    # § 406B1 with M = 2, D = 12, n1 = 1 (24 boards): 24, 16, 11, 8 BP for places 1-4 (vector D-P1).
    upload = dbf_upload(world, personas.director_a)
    results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    expected = dict(zip(NUMBERS, [24, 24, 16, 16, 11, 11, 8, 8], strict=False))
    assert units_by_player(world) == expected
    award = Award.objects.filter(player__number="50001").get()
    assert "§ 406B1" in " ".join(award.explanation_data["rules"])


def test_tied_pairs_share_the_unrounded_sum_d_q12(world, personas, register):
    # Places 2-3 tied: (16 + 10.67)/2 = 13.33 → 14 BP each (vector D-T1).
    places = ["1", "2=", "2=", "4", "5", "6", "7", "8", "9", "10", "11", "12"]
    upload = dbf_upload(world, personas.director_a, places=places)
    results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    totals = units_by_player(world)
    assert [totals[n] for n in NUMBERS[:8]] == [24, 24, 14, 14, 14, 14, 8, 8]


def test_fewer_than_12_boards_award_nothing_and_say_why_405b6c(world, personas, register):
    preview = build_preview(dbf_upload(world, personas.director_a, boards=11))
    assert "NOTHING_AWARDED" in {issue.code for issue in preview.issues}
    assert preview.ledger_awards == []


def test_a_club_may_not_award_silver_points_without_a_sanction_403(world, personas, register):
    upload = dbf_upload(world, personas.director_a, category="SP")
    preview = build_preview(upload)
    refusal = next(issue for issue in preview.issues if issue.code == "CATEGORY_NOT_ALLOWED")
    assert "§ 403" in str(refusal.message)
    with pytest.raises(ValidationError):
        results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    assert not Award.objects.exists()

"""Issue 34, item 9: a direction or section is not a tournament of its own (Način 2: N is the units "koje
sudjeluju u natjecanju"; rule 5: the minimum is "za priznanje organiziranog turnira"). N and the minimum field are
the event's; the same place in each group is a tie over the places it covers (H-22). Upload page → preview →
confirm → ledger → player page."""

from __future__ import annotations

import datetime
import math

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import Player
from masterpoints.models import Award
from office.services import officer_assign
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import ResultUpload

NUMBERS = [str(5001 + i) for i in range(24)]


@pytest.fixture
def direktor(world, django_user_model):
    user = django_user_model.objects.create_user("direktor", "direktor@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Iva", last_name=number)
    return user


def upload_and_confirm(client, world, per_section: int, capture) -> str:
    """Two sections of ``per_section`` pairs each, 24 boards, S = 1; returns the preview page's text."""
    first, second = NUMBERS[: 2 * per_section], NUMBERS[12 : 12 + 2 * per_section]
    data = usebio_pairs(
        club_number="101",
        date=datetime.date(2025, 5, 6),
        name="Mitchell",
        sections=[pairs_from_numbers(first, seed=3), pairs_from_numbers(second, seed=4)],
        boards=24,
    )
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_hr.pk}",
            "category": "black",
            "strength": "1",
            "file": SimpleUploadedFile("m.xml", data, content_type="text/xml"),
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    upload = ResultUpload.objects.get()
    page = client.get(reverse("uploads:preview", args=[upload.pk])).content.decode()
    with capture(execute=True):
        done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302, page[:2000]
    return page


def black(number: str) -> int:
    return sum(Award.objects.filter(player__number=number, kind="black").values_list("units", flat=True))


def test_two_sections_of_five_pairs_are_one_field_of_ten_h_22(
    client, world, direktor, django_capture_on_commit_callbacks
):
    """5 + 5 pairs: each section alone is below rule 5's 6 pairs and awarded nothing. One tournament of 10:
    B = (3 + 10/5)·1·(1 + 24/12) − 7 = 8, n = 5; the two winners share places 1–2: (P_1 + P_2)/2 → 7."""
    client.force_login(direktor)
    page = upload_and_confirm(client, world, 5, django_capture_on_commit_callbacks)
    assert "PARALLEL_RANKINGS" in page and "NOTHING_AWARDED" not in page
    s = [math.log(6 / (k - 0.7)) for k in (1, 2)]
    expected = math.ceil((8 + 8 * s[1] / s[0]) / 2)
    assert expected == 7
    assert black(NUMBERS[0]) == black(NUMBERS[12]) == 7
    award = Award.objects.filter(player__number=NUMBERS[0]).get()
    assert "H-22" in award.explanation_data["rules"] and "H-7" in award.explanation_data["rules"]
    player_page = client.get(reverse("public:player", args=[world.hbs.code, NUMBERS[0]])).content.decode()
    assert "<dt>black</dt><dd>7</dd>" in player_page and "H-22" in player_page


def test_six_and_six_pairs_take_b_from_the_whole_field_of_twelve_h_22(
    client, world, direktor, django_capture_on_commit_callbacks
):
    """6 + 6 pairs: B from N = 12 is 9.2 (from N = 6 it was 5.6, paying 6); n = 6 over the whole field, so
    three pairs of each section are paid, and the winners share places 1–2: (9.2 + 9.2·s_2/s_1)/2 = 7.06 → 8."""
    client.force_login(direktor)
    upload_and_confirm(client, world, 6, django_capture_on_commit_callbacks)
    assert black(NUMBERS[0]) == black(NUMBERS[12]) == 8
    paid_pairs = {a.player.number for a in Award.objects.filter(kind="black", units__gt=0)}
    assert len(paid_pairs) == 12  # 6 pairs of 2 players: 50 % of the whole field (H-3)
    player_page = client.get(reverse("public:player", args=[world.hbs.code, NUMBERS[12]])).content.decode()
    assert "<dt>black</dt><dd>8</dd>" in player_page and "H-22" in player_page

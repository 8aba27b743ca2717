"""Issue 34, item 14 (rule 2, H-27): "Da bi se bodovao turistički turnir u Hrvatskoj, mora imati odobrenje HBS-a."
The upload asks whether the event is a tourist tournament; one not on the list (where HBS records its approval)
is refused before anything is stored, and an approved entry goes through to the ledger and the player page."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from federation.models import Player
from masterpoints.models import Award
from office.services import officer_assign
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import RecognisedTournament, ResultUpload
from tournaments.recognised import recognised_tournament_save, tourist_approval_decide, tourist_approval_request

NUMBERS = [str(7001 + i) for i in range(24)]


def event_day() -> datetime.date:
    return datetime.date(timezone.localdate().year, 1, 1)


@pytest.fixture
def tajnik(world, django_user_model):
    user = django_user_model.objects.create_user("tajnik", "tajnik@example.com", "pw")
    officer_assign(actor=None, user=user, role="secretariat", federation=world.hbs)
    return user


@pytest.fixture
def direktor(world, django_user_model):
    user = django_user_model.objects.create_user("direktor", "direktor@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Luka", last_name=number)
    return user


def post_upload(client, world, **changes):
    data = usebio_pairs(
        club_number="101", date=event_day(), name="Ljeto u Poreču", sections=[pairs_from_numbers(NUMBERS)], boards=24
    )
    values = {
        "organiser": f"club:{world.club_hr.pk}",
        "category": "black",
        "strength": "1",
        "tourist": "on",
        "file": SimpleUploadedFile("porec.xml", data, content_type="text/xml"),
    }
    return client.post(reverse("uploads:upload"), {**values, **changes})


def test_an_unlisted_tourist_tournament_is_refused_before_it_is_stored_rule_2_h_27(client, world, direktor):
    client.force_login(direktor)
    form = client.get(reverse("uploads:upload")).content.decode()
    assert "tourist tournament in Croatia" in form
    response = post_upload(client, world)
    assert response.status_code == 200
    assert "HBS&#x27;s approval (rule 2)" in response.content.decode()
    assert not ResultUpload.objects.exists() and not Award.objects.exists()


def test_an_approved_tourist_tournament_of_the_list_is_scored_rule_2_h_27(
    client, world, tajnik, direktor, django_capture_on_commit_callbacks
):
    listed = recognised_tournament_save(
        actor=tajnik,
        tournament=RecognisedTournament(
            federation=world.hbs, year=event_day().year, name="Ljeto u Poreču", tourist=True
        ),
        kinds={"black": Decimal("1")},
    )
    client.force_login(direktor)
    assert post_upload(client, world, recognised=listed.pk).status_code == 200  # not approved yet: refused
    assert not ResultUpload.objects.exists()
    approval = tourist_approval_request(
        actor=tajnik, tournament=listed, organiser="Agencija", place="Poreč", starts_on=event_day(), ends_on=event_day()
    )
    with django_capture_on_commit_callbacks(execute=True):
        tourist_approval_decide(actor=tajnik, approval=approval, approve=True)
    response = post_upload(client, world, recognised=listed.pk)
    assert response.status_code == 302, response.content.decode()[:2000]
    upload = ResultUpload.objects.get()
    assert "TOURIST_NOT_APPROVED" not in client.get(response.url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302
    assert Award.objects.filter(kind="black", units=10).count() == 2  # 12 pairs, 24 boards, S = 1 (H-P12)
    winner = Award.objects.filter(units=10).first().player
    page = client.get(reverse("public:player", args=[world.hbs.code, winner.number])).content.decode()
    assert "<dt>black</dt><dd>10</dd>" in page

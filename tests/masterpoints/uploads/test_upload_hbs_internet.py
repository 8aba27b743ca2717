"""Issue 34, item 14 (Lista 10, H-26): "Rezultati internet turnira priznaju se odobrenjem licence njihovom
voditelju. Te rezultate prijavljuje voditelj." A licensed internet director with no office role reports the
results: upload page → preview → confirm → ledger → player page (it was a 403)."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from federation.models import Player
from masterpoints.models import Award
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import DirectorLicence, ResultUpload

NUMBERS = [str(6001 + i) for i in range(24)]


def event_day() -> datetime.date:
    return datetime.date(timezone.localdate().year, 1, 1)


@pytest.fixture
def voditelj(world, django_user_model):
    """A director holding an HBS internet licence for this year, and no office role at all."""
    user = django_user_model.objects.create_user("voditelj", "voditelj@example.com", "pw")
    DirectorLicence.objects.create(
        federation=world.hbs,
        user=user,
        number="NET-1",
        valid_from=event_day(),
        valid_until=event_day().replace(month=12, day=31),
    )
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Eva", last_name=number)
    return user


def post_upload(client, world, **changes):
    data = usebio_pairs(
        club_number="", date=event_day(), name="BBO turnir", sections=[pairs_from_numbers(NUMBERS, seed=7)], boards=24
    )
    values = {
        "organiser": f"federation:{world.hbs.pk}",
        "category": "black",
        "strength": "1",
        "internet": "on",
        "file": SimpleUploadedFile("bbo.xml", data, content_type="text/xml"),
    }
    return client.post(reverse("uploads:upload") + f"?federation={world.hbs.pk}", {**values, **changes})


def test_a_licensed_internet_director_reports_results_without_an_office_role_rule_10_h_26(
    client, world, voditelj, django_capture_on_commit_callbacks
):
    """12 pairs, 24 boards, S = 1: the winners get 10 black points (vector H-P12), reported by the licence
    holder; an unlisted internet tournament awards black points (H-26, the rule set's organiser_awards)."""
    client.force_login(voditelj)
    form = client.get(reverse("uploads:upload"))
    assert form.status_code == 200 and "internet tournament under my licence" in form.content.decode()
    response = post_upload(client, world)
    assert response.status_code == 302, response.content.decode()[:3000]
    upload = ResultUpload.objects.get()
    assert upload.facts["organiser_kind"] == "internet"
    page = client.get(response.url).content.decode()
    assert "DIRECTOR_NOT_LICENSED" not in page and "CATEGORY_NOT_ALLOWED" not in page
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302, page[:3000]
    assert Award.objects.filter(kind="black", units=10).count() == 2
    winner = Award.objects.filter(units=10).first().player
    player_page = client.get(reverse("public:player", args=[world.hbs.code, winner.number])).content.decode()
    assert "<dt>black</dt><dd>10</dd>" in player_page


def test_a_licence_reports_internet_tournaments_only_rule_10_h_26(client, world, voditelj):
    """Without the internet tick the licence gives no right to report for the federation; red points (which the
    rule set gives the federation's own events) are not the licence's to award either."""
    client.force_login(voditelj)
    assert post_upload(client, world, internet="").status_code == 403
    response = post_upload(client, world, category="red")
    assert response.status_code == 302
    assert "CATEGORY_NOT_ALLOWED" in client.get(response.url).content.decode()
    assert not ResultUpload.objects.filter(facts__organiser_kind="federation").exists()


def test_without_a_licence_no_one_reports_for_the_federation(client, world, django_user_model):
    user = django_user_model.objects.create_user("netko", "netko@example.com", "pw")
    client.force_login(user)
    assert client.get(reverse("uploads:upload")).status_code == 403

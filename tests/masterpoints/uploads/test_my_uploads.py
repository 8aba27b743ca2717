"""Issue 19: "My uploads" (the user's uploads in every state, each linking to its preview or result), a club's
uploads for its directors and the secretariat, and the header's "Upload results"."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from federation.models import Player
from masterpoints.uploads.services import (
    results_upload_confirm,
    results_upload_create,
    results_upload_discard,
    results_upload_preview,
)
from tests.factories import pairs_from_numbers, usebio_pairs

NUMBERS = [str(70001 + i) for i in range(12)]
LIST = reverse("uploads:list")


@pytest.fixture
def register(world):
    for number in NUMBERS:
        Player.objects.create(federation=world.dbf, number=number, first_name="Jens", last_name=number)


def upload(world, actor, *, club=None, name="Mandagsturnering", seed=5):
    club = club or world.club_a
    data = usebio_pairs(
        club_number=club.number,
        date=datetime.date(2025, 2, 3),
        name=name,
        sections=[pairs_from_numbers(NUMBERS, seed=seed)],
        boards=24,
    )
    return results_upload_create(
        actor=actor,
        federation=world.dbf,
        club=club,
        region=None,
        data=data,
        filename=f"{name}.xml",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None},
    )


def rows(client, query="") -> dict[str, str]:
    response = client.get(LIST + query)
    assert response.status_code == 200
    return {record.original_name: record.state for record in response.context["table"].data}


def test_my_uploads_lists_pending_confirmed_superseded_and_discarded_issue_19(client, world, personas, register):
    first = upload(world, personas.director_a, name="Event")
    results_upload_confirm(actor=personas.director_a, upload=first, acknowledge_warnings=True)
    again = upload(world, personas.director_a, name="Event", seed=6)
    again.original_name = "Event-v2.xml"
    again.save(update_fields=["original_name"])
    results_upload_confirm(actor=personas.director_a, upload=again, acknowledge_warnings=True)
    dropped = upload(world, personas.director_a, name="Dropped")
    results_upload_discard(actor=personas.director_a, upload=dropped)
    pending = upload(world, personas.director_a, name="Pending")
    results_upload_preview(upload=pending)
    client.force_login(personas.director_a)
    assert rows(client) == {
        "Event.xml": "superseded",
        "Event-v2.xml": "confirmed",
        "Dropped.xml": "discarded",
        "Pending.xml": "pending",
    }
    page = client.get(LIST).content.decode()
    assert reverse("uploads:preview", args=[pending.pk]) in page
    assert again.tournament.get_absolute_url() in page
    assert "0 errors" in page
    assert rows(client, "?state=pending") == {"Pending.xml": "pending"}


def test_my_uploads_holds_only_the_users_own_uploads_issue_19(client, world, personas, register):
    upload(world, personas.director_a, name="Mine")
    upload(world, personas.secretariat, name="Office")
    client.force_login(personas.director_a)
    assert set(rows(client)) == {"Mine.xml"}


def test_a_clubs_list_shows_every_upload_of_the_club_to_its_director_and_secretariat_issue_19(
    client, world, personas, register
):
    upload(world, personas.director_a, name="Mine")
    upload(world, personas.secretariat, name="Office")
    upload(world, personas.director_b, club=world.club_b, name="Theirs")
    for user in (personas.director_a, personas.secretariat):
        client.force_login(user)
        assert set(rows(client, f"?club={world.club_a.pk}")) == {"Mine.xml", "Office.xml"}
    client.force_login(personas.secretariat)
    assert set(rows(client, f"?club={world.club_b.pk}")) == {"Theirs.xml"}


def test_another_clubs_list_is_refused_with_a_message_issue_19(client, world, personas, register):
    upload(world, personas.director_b, club=world.club_b, name="Theirs")
    client.force_login(personas.director_a)
    response = client.get(LIST + f"?club={world.club_b.pk}")
    assert response.status_code == 403
    assert "Bridgeklubben B is not one of them" in response.content.decode()
    assert client.get(LIST + "?club=999999").status_code == 404
    assert client.get(LIST + "?club=x").status_code == 404


def test_the_secretariat_of_another_federation_cannot_see_a_clubs_uploads_issue_19(client, world, personas):
    client.force_login(personas.secretariat)
    assert client.get(LIST + f"?club={world.club_hr.pk}").status_code == 403


def test_anonymous_visitors_are_sent_to_log_in_issue_19(client, world):
    response = client.get(LIST)
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_the_header_offers_upload_results_to_those_who_upload_only_issue_19(client, world, personas):
    link = f'href="{reverse("uploads:upload")}"'
    for user, shown in ((personas.director_a, True), (personas.secretariat, True), (personas.player, False)):
        client.force_login(user)
        assert (link in client.get(reverse("public:rankings")).content.decode()) is shown
    client.force_login(personas.commission)
    assert link not in client.get(reverse("public:rankings")).content.decode()


def test_my_office_links_upload_results_my_uploads_and_the_clubs_uploads_issue_19(client, world, personas):
    client.force_login(personas.director_a)
    page = client.get(reverse("office:home")).content.decode()
    assert reverse("uploads:upload") in page
    assert f'href="{LIST}"' in page
    assert f"{LIST}?club={world.club_a.pk}" in page

"""Issue 19 (D-Q40): the club ids recorded for clubs have an admin page: the secretariat lists those of its own
federation and removes a wrong one (audited); nobody adds or edits an id there; another federation's
secretariat neither sees nor removes them; a club director has no admin."""

from __future__ import annotations

import pytest
from django.urls import reverse

from federation.models import AuditEvent
from masterpoints.uploads.models import ClubAlias
from tests.office.admin_rows import hbs_secretariat

LIST = reverse("admin:masterpoints_clubalias_changelist")


@pytest.fixture
def aliases(world, personas):
    dbf = ClubAlias.objects.create(
        federation=world.dbf, club=world.club_a, file_club_id="777", recorded_by=personas.director_a
    )
    hbs = ClubAlias.objects.create(federation=world.hbs, club=world.club_hr, file_club_id="555")
    return dbf, hbs


def listed(client, **query) -> set[str]:
    response = client.get(LIST, query)
    assert response.status_code == 200
    return {alias.file_club_id for alias in response.context["cl"].result_list}


def test_the_secretariat_lists_its_own_federations_ids_with_club_and_recorder_and_finds_them(
    client, world, personas, aliases
):
    client.force_login(personas.secretariat)
    assert listed(client) == {"777"}
    page = client.get(LIST).content.decode()
    assert "Bridgeklubben A" in page and "director_a" in page
    assert listed(client, q="777") == {"777"}
    assert listed(client, q="Bridgeklubben") == {"777"}
    assert listed(client, q="555") == set()


def test_the_secretariat_removes_a_wrong_id_and_the_removal_is_audited(client, world, personas, aliases):
    dbf, _ = aliases
    client.force_login(personas.secretariat)
    response = client.post(reverse("admin:masterpoints_clubalias_delete", args=[dbf.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not ClubAlias.objects.filter(pk=dbf.pk).exists()
    event = AuditEvent.objects.get(action="admin.clubalias.delete")
    assert event.actor == personas.secretariat and event.target_id == str(dbf.pk)
    assert event.payload["fields"]["file_club_id"] == {"before": "777", "after": None}


def test_nobody_adds_or_edits_an_id_in_the_admin(client, world, personas, aliases):
    """A wrong id is removed, never edited into another one: the change page is view-only, a post changes
    nothing, and there is no add page."""
    dbf, _ = aliases
    client.force_login(personas.secretariat)
    change = reverse("admin:masterpoints_clubalias_change", args=[dbf.pk])
    assert client.get(change).context["has_change_permission"] is False
    client.post(change, {"file_club_id": "888", "club": world.club_a.pk, "federation": world.dbf.pk})
    assert ClubAlias.objects.get(pk=dbf.pk).file_club_id == "777"
    assert client.get(reverse("admin:masterpoints_clubalias_add")).status_code == 403


def test_another_federations_secretariat_neither_sees_nor_removes_an_id(client, world, personas, aliases):
    dbf, _ = aliases
    client.force_login(hbs_secretariat(world))
    assert listed(client) == {"555"}
    change = client.get(reverse("admin:masterpoints_clubalias_change", args=[dbf.pk]))
    assert change.status_code == 302 and change.url == reverse("admin:index")
    client.post(reverse("admin:masterpoints_clubalias_delete", args=[dbf.pk]), {"post": "yes"})
    assert ClubAlias.objects.filter(pk=dbf.pk).exists()
    assert not AuditEvent.objects.filter(action="admin.clubalias.delete").exists()


def test_a_club_director_gets_no_admin_of_the_ids(client, world, personas, aliases):
    """Even of the club's own id: the director records ids from an upload, the secretariat removes them."""
    dbf, _ = aliases
    client.force_login(personas.director_a)
    for url in (LIST, reverse("admin:masterpoints_clubalias_delete", args=[dbf.pk])):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("admin:login"))
    client.post(reverse("admin:masterpoints_clubalias_delete", args=[dbf.pk]), {"post": "yes"})
    assert ClubAlias.objects.filter(pk=dbf.pk).exists()

"""Issue 19, item 1: every admin form that takes a player chooses them by number or name (the admin's
autocomplete), among the players of the federations its user writes in (D-Q46)."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.urls import reverse

from masterpoints.models import Award, ForeignPoints
from tests.office import admin_rows

WON = datetime.date(2025, 7, 12)


def found(client, term: str, *, model: str = "foreignpoints", app: str = "masterpoints") -> set[str]:
    """The players the autocomplete of ``app.model``'s player field offers for ``term``, by their text."""
    params = {"term": term, "app_label": app, "model_name": model, "field_name": "player"}
    response = client.get(reverse("admin:autocomplete"), params)
    assert response.status_code == 200
    return {row["text"] for row in response.json()["results"]}


@pytest.fixture
def hbs_player(world):
    return admin_rows.player(world, "hbs")


@pytest.mark.parametrize("term", ["12345", "Jensen", "Karen Jensen", "karen"])
def test_the_foreign_points_form_finds_a_player_by_number_and_by_name_issue_19(client, world, personas, term):
    client.force_login(personas.secretariat)
    assert found(client, term) == {str(world.player)}


def test_a_name_is_found_folded_as_the_upload_compares_names_issue_19(client, world, personas):
    world.player.first_name = "Jørgen"
    world.player.save()
    client.force_login(personas.secretariat)
    assert found(client, "Jorgen") == {str(world.player)}


def test_the_dbf_secretariat_never_finds_an_hbs_player_nor_hbs_a_dbf_one_d_q46(client, world, personas, hbs_player):
    client.force_login(personas.secretariat)
    assert found(client, "501") == set() and found(client, "Horvat") == set()
    assert found(client, "Horvat", model="clubmembership", app="clubs") == set()
    client.force_login(admin_rows.hbs_secretariat(world))
    assert found(client, "Horvat", model="clubmembership", app="clubs") == {str(hbs_player)}
    assert found(client, "12345", model="clubmembership", app="clubs") == set()


def test_a_member_of_staff_who_only_views_a_federation_chooses_none_of_its_players_d_q46(
    client, world, personas, hbs_player
):
    """The commission views its federation's players but writes no membership: its form offers nobody."""
    client.force_login(personas.commission)
    assert found(client, "Jensen", model="clubmembership", app="clubs") == set()


def test_a_foreign_points_registration_takes_the_player_chosen_by_number_issue_19(client, world, personas):
    client.force_login(personas.secretariat)
    page = client.get(reverse("admin:masterpoints_foreignpoints_add")).content.decode()
    assert "admin-autocomplete" in page and "vForeignKeyRawIdAdminField" not in page
    chosen = client.get(
        reverse("admin:autocomplete"),
        {"term": "12345", "app_label": "masterpoints", "model_name": "foreignpoints", "field_name": "player"},
    ).json()["results"][0]["id"]
    fields = {
        "player": chosen,
        "country": "FO",
        "foreign_kind": "SP",
        "foreign_amount": "1.5",
        "earned_on": WON.isoformat(),
        "event": "Føroya meistaraskapur",
        "form_token": str(uuid.uuid4()),
    }
    assert client.post(reverse("admin:masterpoints_foreignpoints_add"), fields).status_code == 302
    assert ForeignPoints.objects.get().player == world.player
    assert Award.objects.get(source=Award.Source.FOREIGN).player == world.player

"""The header and the admin index show what a user can use (issue 38, part 4): a player has no office and no
sanctions; an HBS office sees neither DBf's sanctions nor cup series, in the menu or the admin index."""

from __future__ import annotations

import pytest
from django.urls import reverse

from office.services import officer_assign

pytestmark = pytest.mark.django_db


def _nav(client) -> str:
    body = client.get(reverse("public:calculator")).content.decode()
    return body[body.index('<ul class="nav">') : body.index("</ul>", body.index('<ul class="nav">'))]


def test_a_player_sees_neither_my_office_nor_sanctions(client, personas):
    client.force_login(personas.player)
    nav = _nav(client)
    assert "My page" in nav and "Corrections" in nav
    assert "My office" not in nav and "Sanctions" not in nav


def test_a_club_director_of_dbf_sees_office_sanctions_and_cups(client, personas):
    client.force_login(personas.director_a)
    nav = _nav(client)
    assert "My office" in nav and "Sanctions" in nav and "Cups" in nav


def test_an_hbs_secretary_sees_no_dbf_workflows_in_the_menu_or_the_admin_index(client, world, django_user_model):
    secretary = django_user_model.objects.create_user("tajnik", "t@example.com", "pw")
    officer_assign(actor=None, user=secretary, role="secretariat", federation=world.hbs)
    client.force_login(secretary)
    nav = _nav(client)
    assert "My office" in nav and "Admin" in nav
    assert "Sanctions" not in nav and "Cups" not in nav

    index = client.get(reverse("admin:index")).content.decode()
    assert "Recognised tournaments" in index or "recognised" in index.lower()
    assert "touristapproval/" in index and "directorlicence/" in index
    for dbf_only in (
        "sanctionapplication/",
        "/sanction/",
        "simultaneousevent/",
        "cupseries/",
        "cupwin/",
        "foreignpoints/",
    ):
        assert dbf_only not in index, dbf_only
    assert client.get(reverse("admin:tournaments_sanction_changelist")).status_code == 403


def test_a_dbf_secretary_keeps_sanctions_and_cups_and_not_the_hbs_list(client, personas):
    client.force_login(personas.secretariat)
    index = client.get(reverse("admin:index")).content.decode()
    assert "sanctionapplication/" in index and "cupseries/" in index
    assert "simultaneousevent/" in index
    for hbs_only in ("recognisedtournament/", "touristapproval/", "directorlicence/"):
        assert hbs_only not in index, hbs_only

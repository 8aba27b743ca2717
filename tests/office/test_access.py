"""Each persona sees what it may and is refused what it may not (design.md § Tests)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from office.access import can_act_for_club, can_act_for_region, clubs_for
from office.services import officer_assign


def test_a_club_director_is_refused_the_admin(client, personas):
    client.force_login(personas.director_a)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert reverse("admin:login") in response.url


def test_a_player_and_a_district_officer_are_refused_the_admin(client, personas):
    for user in (personas.player, personas.district_officer):
        client.force_login(user)
        assert client.get(reverse("admin:federation_player_changelist")).status_code == 302


def test_the_secretariat_manages_players_in_the_admin(client, personas):
    client.force_login(personas.secretariat)
    assert client.get(reverse("admin:federation_player_changelist")).status_code == 200
    assert client.get(reverse("admin:federation_player_add")).status_code == 200


def test_the_commission_may_view_but_not_add_players(client, personas):
    client.force_login(personas.commission)
    assert client.get(reverse("admin:federation_player_changelist")).status_code == 200
    assert client.get(reverse("admin:federation_player_add")).status_code == 403


def test_nobody_may_change_the_audit_log_in_the_admin(client, personas, world):
    client.force_login(personas.secretariat)
    assert client.get(reverse("admin:federation_auditevent_changelist")).status_code == 200
    assert client.get(reverse("admin:federation_auditevent_add")).status_code == 403


def test_a_club_director_acts_for_their_own_club_only(personas, world):
    assert can_act_for_club(personas.director_a, world.club_a)
    assert not can_act_for_club(personas.director_a, world.club_b)
    assert list(clubs_for(personas.director_a)) == [world.club_a]


def test_the_secretariat_acts_for_every_club_of_its_federation_only(personas, world):
    assert can_act_for_club(personas.secretariat, world.club_b)
    assert not can_act_for_club(personas.secretariat, world.club_hr)


def test_a_district_officer_acts_for_the_district_and_its_circles_only(personas, world):
    assert can_act_for_region(personas.district_officer, world.district)
    assert can_act_for_region(personas.district_officer, world.circle)
    assert not can_act_for_region(personas.district_officer, world.other_district)


@pytest.mark.parametrize("name", ["anonymous", "player"])
def test_the_office_page_needs_a_login_and_shows_only_own_offices(client, personas, name):
    if name == "player":
        client.force_login(personas.player)
    response = client.get(reverse("office:home"))
    if name == "anonymous":
        assert response.status_code == 302
    else:
        assert response.status_code == 200
        assert b"You hold no office" in response.content


def test_the_office_page_lists_a_directors_club(client, personas, world):
    client.force_login(personas.director_a)
    response = client.get(reverse("office:home"))
    assert world.club_a.name in response.content.decode()
    assert world.club_b.name not in response.content.decode()


def test_revoking_the_last_staff_office_removes_admin_access(personas, world):
    from office.models import Officer
    from office.services import officer_revoke

    officer_revoke(actor=None, officer=Officer.objects.get(user=personas.secretariat))
    personas.secretariat.refresh_from_db()
    assert not personas.secretariat.is_staff
    assert not personas.secretariat.groups.exists()


def test_login_and_logout_pages_work(client, personas):
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "director_a", "password": "pw-director_a"})
    assert response.status_code == 302
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_only_the_federations_own_secretariat_appoints_its_officers(world, personas, django_user_model):
    """Nobody grants an office in another federation, nor the commission any (office.access.may_appoint)."""
    newcomer = django_user_model.objects.create_user("newcomer", "n@example.com", "pw")
    for actor, federation in ((personas.secretariat, world.hbs), (personas.commission, world.dbf)):
        with pytest.raises(PermissionDenied):
            officer_assign(actor=actor, user=newcomer, role="secretariat", federation=federation)
    office = officer_assign(
        actor=personas.secretariat, user=newcomer, role="club_director", federation=world.dbf, club=world.club_a
    )
    assert office.club == world.club_a

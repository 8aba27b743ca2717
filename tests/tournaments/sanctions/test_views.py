"""Sanction pages and admin with the personas: each acts for their own club or district only (§ 403B)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from clubs.models import PlayingTime
from office.services import officer_assign
from tournaments.models import SanctionApplication
from tournaments.sanctions.services import sanction_apply, sanction_recommend


@pytest.fixture
def monday(world):
    return PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")


def later(days=100) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=days)


def form_data(world, monday, **changes) -> dict:
    day = later()
    data = {
        "club": world.club_a.pk,
        "name": "Sommerturnering",
        "category": "SP",
        "quota": "full",
        "basis": "quota",
        "playing_time": monday.pk,
        "date": day.isoformat(),
        "form": "pairs",
        "boards": "48",
        "entry_deadline": (day - datetime.timedelta(days=7)).isoformat(),
        "advertised_on": (day - datetime.timedelta(days=30)).isoformat(),
        "advertisement": "dansk_bridge_website",
        "open_to_all": "on",
    }
    data.update(changes)
    return data


def filed(world, personas, monday, *, club=None, category="SP", name="Sommerturnering") -> SanctionApplication:
    day = later()
    extra = {"national": True, "advertisement": "quarter_page", "boards": 60} if category == "GP" else {}
    return sanction_apply(
        actor=personas.secretariat,
        club=club or world.club_a,
        name=name,
        date=day,
        entry_deadline=day - datetime.timedelta(days=7),
        advertised_on=day - datetime.timedelta(days=30),
        advertisement=extra.pop("advertisement", "dansk_bridge_website"),
        form="pairs",
        boards=extra.pop("boards", 48),
        category=category,
        quota="full",
        playing_time=monday if club is None else None,
        basis="quota" if club is None else "extra",
        **extra,
    )


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    for name in ("sanctions:list", "sanctions:apply"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/accounts/login/" in response.url


def test_a_player_cannot_apply_for_a_sanction(client, personas):
    client.force_login(personas.player)
    response = client.get(reverse("sanctions:apply"))
    assert response.status_code == 403
    assert b"Only a club" in response.content


def test_a_director_files_an_application_for_their_club_403b(client, world, personas, monday):
    client.force_login(personas.director_a)
    page = client.get(reverse("sanctions:apply")).content.decode()
    assert world.club_a.name in page and world.club_b.name not in page
    response = client.post(reverse("sanctions:apply"), form_data(world, monday))
    application = SanctionApplication.objects.get()
    assert response.status_code == 302 and response.url == application.get_absolute_url()
    assert (application.club, application.filed_by) == (world.club_a, personas.director_a)


def test_a_director_cannot_apply_for_another_club(client, world, personas, monday):
    client.force_login(personas.director_b)
    response = client.post(reverse("sanctions:apply"), form_data(world, monday))
    assert response.status_code == 200
    assert "club" in response.context["form"].errors
    assert not SanctionApplication.objects.exists()


def test_an_unmet_condition_is_shown_at_its_field_403b7(client, world, personas, monday):
    client.force_login(personas.director_a)
    soon = (timezone.localdate() + datetime.timedelta(days=20)).isoformat()
    response = client.post(reverse("sanctions:apply"), form_data(world, monday, date=soon, entry_deadline=soon))
    assert response.status_code == 200
    assert "§ 403B7" in " ".join(response.context["form"].errors["date"])
    assert not SanctionApplication.objects.exists()


def test_another_clubs_director_gets_403_with_a_clear_message(client, world, personas, monday):
    application = filed(world, personas, monday)
    client.force_login(personas.director_b)
    response = client.get(application.get_absolute_url())
    assert response.status_code == 403
    assert b"another club or district" in response.content
    assert client.post(reverse("sanctions:decide", args=[application.pk]), {"approve": "yes"}).status_code == 403


def test_the_list_shows_each_persona_only_what_concerns_them(client, world, personas, monday):
    own = filed(world, personas, monday)
    other = filed(world, personas, None, club=world.club_b, name="Nordturnering")
    expectations = {
        personas.director_a: ({own}, {other}),
        personas.director_b: ({other}, {own}),
        personas.district_officer: ({own}, {other}),
        personas.secretariat: ({own, other}, set()),
    }
    for user, (shown, hidden) in expectations.items():
        client.force_login(user)
        page = client.get(reverse("sanctions:list")).content.decode()
        assert all(a.name in page for a in shown) and not any(a.name in page for a in hidden), user


def test_the_district_officer_grants_sp_within_the_quota_on_the_site_403b4(client, world, personas, monday):
    application = filed(world, personas, monday)
    client.force_login(personas.district_officer)
    assert client.get(application.get_absolute_url()).context["decide_form"] is not None
    response = client.post(reverse("sanctions:decide", args=[application.pk]), {"approve": "yes"})
    assert response.status_code == 302
    application.refresh_from_db()
    assert application.status == "approved" and application.sanction.quota == "full"


def test_an_officer_of_another_district_gets_403(client, world, personas, monday, django_user_model):
    other = django_user_model.objects.create_user("nord", "nord@example.com", "pw")
    officer_assign(actor=None, user=other, role="region_officer", federation=world.dbf, region=world.other_district)
    application = filed(world, personas, monday)
    client.force_login(other)
    assert client.get(application.get_absolute_url()).status_code == 403
    assert client.post(reverse("sanctions:recommend", args=[application.pk]), {"recommend": "yes"}).status_code == 403


def test_the_district_recommends_gp_to_the_secretariat_on_the_site_403b7(client, world, personas, monday):
    application = filed(world, personas, monday, category="GP")
    client.force_login(personas.district_officer)
    page = client.get(application.get_absolute_url())
    assert page.context["recommend_form"] is not None and page.context["decide_form"] is None
    client.post(reverse("sanctions:recommend", args=[application.pk]), {"recommend": "yes", "note": "Fin"})
    application.refresh_from_db()
    assert application.status == "recommended"


def test_a_director_sees_their_application_but_cannot_decide_it(client, world, personas, monday):
    application = filed(world, personas, monday)
    client.force_login(personas.director_a)
    page = client.get(application.get_absolute_url())
    assert page.status_code == 200 and page.context["decide_form"] is None
    client.post(reverse("sanctions:decide", args=[application.pk]), {"approve": "yes"})
    application.refresh_from_db()
    assert application.status == "filed"


# --- the admin ------------------------------------------------------------------------------------------


def changelist() -> str:
    return reverse("admin:tournaments_sanctionapplication_changelist")


def test_the_secretariat_approves_in_bulk_in_the_admin_403b7(client, world, personas, monday):
    first = filed(world, personas, monday, category="GP")
    second = filed(world, personas, None, club=world.club_b, name="Nordturnering")
    sanction_recommend(actor=personas.district_officer, application=first, recommend=True)
    sanction_recommend(actor=personas.secretariat, application=second, recommend=True)
    client.force_login(personas.secretariat)
    assert client.get(changelist()).status_code == 200
    selected = {"action": "approve", ACTION_CHECKBOX_NAME: [first.pk, second.pk]}
    confirm = client.post(changelist(), selected)
    assert confirm.status_code == 200 and b"Approve the selected applications" in confirm.content
    client.post(changelist(), {**selected, "apply": "1", "reason": ""})
    assert set(SanctionApplication.objects.values_list("status", flat=True)) == {"approved"}


def test_the_secretariat_refuses_with_a_reason_in_the_admin(client, world, personas, monday):
    application = filed(world, personas, monday)
    client.force_login(personas.secretariat)
    selected = {"action": "refuse", ACTION_CHECKBOX_NAME: [application.pk], "apply": "1"}
    page = client.post(changelist(), {**selected, "reason": ""})
    assert page.status_code == 200, "the reason is required"
    client.post(changelist(), {**selected, "reason": "Turneringen er ikke åben"})
    application.refresh_from_db()
    assert (application.status, application.decision_reason) == ("refused", "Turneringen er ikke åben")


def test_a_refused_row_in_a_bulk_action_is_reported_and_the_rest_go_through(client, world, personas, monday):
    waiting = filed(world, personas, monday, category="GP")  # not recommended yet: the secretariat must wait
    ready = filed(world, personas, None, club=world.club_b, name="Nordturnering")
    sanction_recommend(actor=personas.secretariat, application=ready, recommend=True)
    client.force_login(personas.secretariat)
    response = client.post(
        changelist(),
        {"action": "approve", ACTION_CHECKBOX_NAME: [waiting.pk, ready.pk], "apply": "1", "reason": ""},
        follow=True,
    )
    text = " ".join(str(message) for message in response.context["messages"])
    assert "§ 403B7" in text
    assert SanctionApplication.objects.get(pk=ready.pk).status == "approved"
    assert SanctionApplication.objects.get(pk=waiting.pk).status == "filed"


def test_the_commission_may_view_applications_but_not_decide_them(client, world, personas, monday):
    application = filed(world, personas, monday)
    client.force_login(personas.commission)
    response = client.get(changelist())
    assert response.status_code == 200
    assert response.context["action_form"] is None, "no decision actions without the change permission"
    client.post(changelist(), {"action": "approve", ACTION_CHECKBOX_NAME: [application.pk], "apply": "1"})
    application.refresh_from_db()
    assert application.status == "filed"

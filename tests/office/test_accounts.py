"""Password reset and a player's own login (issue 19): the site's own pages, mails through the outbox, the
same answer whether or not an address or a number matched, signed links that expire and work once, and the
secretariat's invitation scoped to its own federation."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.urls import reverse

from federation.models import AuditEvent, Player
from office.accounts import services
from office.services import officer_assign

LINK = re.compile(r"https?://\S+/accounts/player/[^/\s]+/")
RESET_LINK = re.compile(r"https?://\S+/accounts/reset/\S+/")


@pytest.fixture
def karen(world):
    world.player.email = "karen@example.com"
    world.player.save(update_fields=["email"])
    return world.player


def _post(client, captured, url, data):
    with captured(execute=True):
        return client.post(url, data)


# --- password reset -----------------------------------------------------------------------------------


def test_password_reset_mails_a_link_that_sets_a_new_password_issue_19(
    client, personas, mailoutbox, django_capture_on_commit_callbacks
):
    response = _post(
        client, django_capture_on_commit_callbacks, reverse("password_reset"), {"email": "player@example.com"}
    )
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    (mail,) = mailoutbox
    assert mail.to == ["player@example.com"]
    link = RESET_LINK.search(mail.body).group(0)
    page = client.get(link, follow=True)
    assert page.status_code == 200 and page.context["validlink"]
    done = client.post(page.redirect_chain[-1][0], {"new_password1": "Kl0ver-Es-9", "new_password2": "Kl0ver-Es-9"})
    assert done.url == reverse("password_reset_complete")
    client.logout()
    logged_in = client.post(reverse("login"), {"username": "player", "password": "Kl0ver-Es-9"})
    assert logged_in.status_code == 302 and "_auth_user_id" in client.session


def test_password_reset_answers_an_unknown_address_exactly_like_a_known_one_issue_19(
    client, personas, mailoutbox, django_capture_on_commit_callbacks
):
    known = _post(
        client, django_capture_on_commit_callbacks, reverse("password_reset"), {"email": "player@example.com"}
    )
    unknown = _post(
        client, django_capture_on_commit_callbacks, reverse("password_reset"), {"email": "nobody@example.com"}
    )
    assert (known.status_code, known.url) == (unknown.status_code, unknown.url)
    assert [mail.to for mail in mailoutbox] == [["player@example.com"]]
    done = client.get(unknown.url)
    assert "If a login has the address you gave" in done.content.decode()


def test_the_login_page_links_to_password_reset_and_the_player_login_issue_19(client, db):
    page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in page and reverse("accounts:player_login") in page


def test_password_reset_requests_are_rate_limited_per_address_issue_19(client, personas, rate_window):
    url = reverse("password_reset")
    answers = [client.post(url, {"email": f"x{n}@example.com"}).status_code for n in range(11)]
    assert answers == [302] * 10 + [429]
    assert "10/h" in client.post(url, {"email": "y@example.com"}).content.decode()


# --- a player asks for a login ----------------------------------------------------------------------------


def test_a_player_login_request_answers_the_same_whether_or_not_number_and_address_match_issue_19(
    client, karen, mailoutbox, django_capture_on_commit_callbacks
):
    url = reverse("accounts:player_login")
    wrong = _post(client, django_capture_on_commit_callbacks, url, {"number": "12345", "email": "other@example.com"})
    unknown = _post(client, django_capture_on_commit_callbacks, url, {"number": "99999", "email": "karen@example.com"})
    assert mailoutbox == []
    right = _post(client, django_capture_on_commit_callbacks, url, {"number": "12345", "email": "Karen@Example.com"})
    assert wrong.url == unknown.url == right.url == reverse("accounts:player_login_sent")
    (mail,) = mailoutbox
    assert mail.to == ["karen@example.com"] and LINK.search(mail.body)


def test_the_link_makes_a_login_linked_to_the_player_and_works_only_once_issue_19(
    client, karen, mailoutbox, django_capture_on_commit_callbacks
):
    _post(
        client,
        django_capture_on_commit_callbacks,
        reverse("accounts:player_login"),
        {"number": "12345", "email": "karen@example.com"},
    )
    link = LINK.search(mailoutbox[0].body).group(0)
    assert client.get(link).status_code == 200
    data = {"username": "karen", "password1": "Kl0ver-Es-9", "password2": "Kl0ver-Es-9"}
    response = client.post(link, data)
    assert response.url == reverse("notices:account")
    karen.refresh_from_db()
    assert karen.user.username == "karen" and karen.user.check_password("Kl0ver-Es-9")
    assert AuditEvent.objects.filter(action="player_login.created", target_id=str(karen.pk)).exists()
    client.logout()
    again = client.post(link, {**data, "username": "karen2"})
    assert again.status_code == 400 and "already used" in again.content.decode()
    assert not get_user_model().objects.filter(username="karen2").exists()


def test_a_used_link_stays_used_after_the_login_is_unlinked_issue_19(karen):
    """A link makes one login: unlinking that login later does not make the old mail a key to
    the player again (the next login needs a new link)."""
    token = services.player_login_token(karen)
    services.player_login_create(token=token, username="karen", password="Kl0ver-Es-9")
    karen.refresh_from_db()
    karen.user = None  # the secretariat unlinks the login in the admin
    karen.save(update_fields=["user"])
    with pytest.raises(Exception) as refused:
        services.player_for_token(token)
    assert refused.value.code == "LINK_USED"
    assert services.player_for_token(services.player_login_token(karen)) == karen


def test_an_expired_or_forged_link_is_refused_issue_19(client, karen):
    token = services.player_login_token(karen)
    with pytest.raises(Exception) as expired:
        services.player_for_token(token, max_age=datetime.timedelta(seconds=-1))
    assert expired.value.code == "LINK_EXPIRED"
    forged = client.get(reverse("accounts:player_login_set", args=[token[:-2] + "xx"]))
    assert forged.status_code == 400 and "not valid" in forged.content.decode()


def test_a_link_is_void_once_the_register_address_changes_issue_19(karen):
    token = services.player_login_token(karen)
    karen.email = "new@example.com"
    karen.save(update_fields=["email"])
    with pytest.raises(Exception) as refused:
        services.player_for_token(token)
    assert refused.value.code == "LINK_INVALID"


def test_a_player_with_a_login_is_told_by_mail_to_reset_the_password_issue_19(
    client, karen, personas, mailoutbox, django_capture_on_commit_callbacks
):
    response = _post(
        client,
        django_capture_on_commit_callbacks,
        reverse("accounts:player_login"),
        {"number": "12345", "email": "karen@example.com"},
    )
    assert response.url == reverse("accounts:player_login_sent")
    (mail,) = mailoutbox
    assert reverse("password_reset") in mail.body and not LINK.search(mail.body)


def test_player_login_requests_are_rate_limited_issue_19(client, karen, rate_window):
    url = reverse("accounts:player_login")
    answers = [client.post(url, {"number": "12345", "email": "karen@example.com"}).status_code for _ in range(4)]
    assert answers == [302, 302, 302, 429]


# --- the secretariat invites ------------------------------------------------------------------------------


def test_the_secretariat_invites_its_own_federations_players_only_issue_19(
    client, world, karen, personas, django_user_model, mailoutbox, django_capture_on_commit_callbacks
):
    croat = Player.objects.create(
        federation=world.hbs, number="7", first_name="Ana", last_name="Horvat", email="ana@example.hr"
    )
    url = reverse("admin:federation_player_changelist")
    client.force_login(personas.secretariat)
    data = {"action": "invite_to_log_in", ACTION_CHECKBOX_NAME: [karen.pk, croat.pk]}
    karen.user = None
    karen.save(update_fields=["user"])
    _post(client, django_capture_on_commit_callbacks, url, data)
    assert [mail.to for mail in mailoutbox] == [["karen@example.com"]]
    assert LINK.search(mailoutbox[0].body)
    assert AuditEvent.objects.filter(action="player_login.invited", target_id=str(karen.pk)).exists()
    tajnik = django_user_model.objects.create_user("tajnik", "t@example.hr", "pw")
    officer_assign(actor=None, user=tajnik, role="secretariat", federation=world.hbs)
    client.force_login(tajnik)
    mailoutbox.clear()
    _post(client, django_capture_on_commit_callbacks, url, data)
    assert [mail.to for mail in mailoutbox] == [["ana@example.hr"]]


def test_the_invitation_refuses_a_player_without_address_or_with_a_login_issue_19(world, karen, personas):
    with pytest.raises(Exception) as has_login:
        services.player_login_invite(actor=personas.secretariat, player=karen, site="http://x")
    assert has_login.value.code == "HAS_LOGIN"
    bare = Player.objects.create(federation=world.dbf, number="5", first_name="Bo", last_name="Bo")
    with pytest.raises(Exception) as no_address:
        services.player_login_invite(actor=personas.secretariat, player=bare, site="http://x")
    assert no_address.value.code == "NO_PLAYER_ADDRESS"

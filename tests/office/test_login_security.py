"""Logging in: django-axes locks out one username from one address after a few wrong passwords (with a looser
limit for the address as a whole), and with ADMIN_REQUIRE_OTP the admin also asks for a TOTP token."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from federation.client_address import client_address as client_ip_address

SITE_LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
HOME = "10.1.0.1"
ELSEWHERE = "10.2.0.2"


@pytest.fixture
def people(django_user_model):
    """A staff user (the secretariat's login) and an ordinary one, each with a known password."""
    staff = django_user_model.objects.create_user("sekretariat", password="right-horse-battery", is_staff=True)
    other = django_user_model.objects.create_user("klubleder", password="club-pass-word")
    return staff, other


def log_in(client, username, password, *, address=HOME, url=SITE_LOGIN, **extra):
    """POST the login form from ``address``; the response, and whether the client is now logged in."""
    response = client.post(url, {"username": username, "password": password, **extra}, REMOTE_ADDR=address)
    return response, "_auth_user_id" in client.session


def fail(client, username, times, *, address=HOME, url=SITE_LOGIN):
    for _ in range(times):
        log_in(client, username, "wrong", address=address, url=url)


# --- brute-force protection (django-axes) ----------------------------------------------------------------------


def test_a_right_password_logs_in(client, people):
    response, logged_in = log_in(client, "sekretariat", "right-horse-battery")
    assert logged_in
    assert response.status_code == 302


def test_after_fifty_wrong_passwords_the_right_one_does_not_log_in_from_that_address(client, people):
    fail(client, "sekretariat", 50)
    response, logged_in = log_in(client, "sekretariat", "right-horse-battery")
    assert not logged_in
    assert response.status_code == 429
    assert "registration/lockout.html" in [t.name for t in response.templates]
    assert "Too many failed logins" in response.content.decode()


def test_the_lockout_starts_at_the_fifth_wrong_password(client, people, settings):
    assert settings.LOGIN_FAILURE_LIMIT == 5
    fail(client, "sekretariat", 4)
    assert log_in(client, "sekretariat", "right-horse-battery")[1]
    client.logout()
    # A successful login clears that username's failures from that address: five more are needed.
    fail(client, "sekretariat", 5)
    assert not log_in(client, "sekretariat", "right-horse-battery")[1]


def test_a_locked_out_username_still_logs_in_from_another_address(client, people):
    fail(client, "sekretariat", 50)
    assert log_in(client, "sekretariat", "right-horse-battery", address=ELSEWHERE)[1], (
        "failing with a username from one address must not lock its owner out everywhere"
    )


def test_another_user_still_logs_in_from_the_address_that_failed(client, people):
    fail(client, "sekretariat", 50)
    assert log_in(client, "klubleder", "club-pass-word")[1]


def test_failing_with_many_usernames_from_one_address_blocks_that_address_only(client, people, settings):
    """The looser per-address limit: guessing a few passwords for each of many usernames (password spraying)
    blocks the address for everyone, but nowhere else."""
    assert settings.LOGIN_IP_FAILURE_LIMIT == 20
    for index in range(5):
        fail(client, f"guess-{index}", 4)  # 4 each: no single username is locked out
    response, logged_in = log_in(client, "klubleder", "club-pass-word")
    assert not logged_in
    assert response.status_code == 429
    assert log_in(client, "klubleder", "club-pass-word", address=ELSEWHERE)[1]


def test_failures_at_the_site_login_and_the_admin_login_count_together(client, people):
    fail(client, "sekretariat", 3, url=SITE_LOGIN)
    fail(client, "sekretariat", 2, url=ADMIN_LOGIN)
    assert not log_in(client, "sekretariat", "right-horse-battery", url=ADMIN_LOGIN)[1]
    assert not log_in(client, "sekretariat", "right-horse-battery", url=SITE_LOGIN)[1]


def test_the_admin_login_is_protected_too(client, people):
    fail(client, "sekretariat", 50, url=ADMIN_LOGIN)
    response, logged_in = log_in(client, "sekretariat", "right-horse-battery", url=ADMIN_LOGIN)
    assert not logged_in
    assert response.status_code == 429
    assert log_in(client, "sekretariat", "right-horse-battery", url=ADMIN_LOGIN, address=ELSEWHERE)[1]


def test_wrong_passwords_during_a_lockout_neither_count_nor_extend_it(client, people):
    fail(client, "sekretariat", 50)
    assert AccessAttempt.objects.get(username="sekretariat").failures_since_start == 5


def test_the_lockout_ends_after_the_cool_off(client, people, settings):
    fail(client, "sekretariat", 5)
    assert not log_in(client, "sekretariat", "right-horse-battery")[1]
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - datetime.timedelta(1))
    assert log_in(client, "sekretariat", "right-horse-battery")[1]


def test_the_lockout_page_is_the_sites_own_and_translated(client, people):
    fail(client, "sekretariat", 5)
    response = client.post(
        SITE_LOGIN, {"username": "sekretariat", "password": "x"}, REMOTE_ADDR=HOME, HTTP_ACCEPT_LANGUAGE="da"
    )
    assert response.status_code == 429
    assert "base.html" in [t.name for t in response.templates]
    assert response.context["cooloff_timedelta"] == datetime.timedelta(minutes=30)
    page = response.content.decode()
    assert "30" in page
    assert 'lang="da"' in page


def test_a_superuser_unlocks_a_locked_out_user_in_the_axes_admin(client, people, django_user_model):
    fail(client, "sekretariat", 5)
    attempt = AccessAttempt.objects.get(username="sekretariat")
    boss = django_user_model.objects.create_superuser("boss", "boss@example.com", "boss-password")
    admin_client = type(client)()
    admin_client.force_login(boss)
    changelist = admin_client.get(reverse("admin:axes_accessattempt_changelist"))
    assert changelist.status_code == 200
    assert "sekretariat" in changelist.content.decode()
    delete = admin_client.post(reverse("admin:axes_accessattempt_delete", args=[attempt.pk]), {"post": "yes"})
    assert delete.status_code == 302
    assert log_in(client, "sekretariat", "right-horse-battery")[1]


def test_behind_a_proxy_the_client_address_is_the_one_the_proxy_appended(rf, settings):
    request = rf.post(SITE_LOGIN, REMOTE_ADDR="192.0.2.10", HTTP_X_FORWARDED_FOR="203.0.113.66, 198.51.100.7")
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip_address(request) == "192.0.2.10"
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip_address(request) == "198.51.100.7", "the left entry is the client's own claim: forgeable"
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip_address(request) == "203.0.113.66"
    assert client_ip_address(rf.post(SITE_LOGIN, REMOTE_ADDR="192.0.2.10")) == "192.0.2.10"


# --- a second factor for the admin (django-otp) ----------------------------------------------------------------


@pytest.fixture
def otp_required(settings):
    settings.ADMIN_REQUIRE_OTP = True


def token_for(device: TOTPDevice) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


def test_without_the_setting_staff_use_the_admin_with_a_password(client, personas):
    client.force_login(personas.secretariat)
    assert client.get(reverse("admin:index")).status_code == 200


def test_with_the_setting_staff_without_a_verified_device_are_refused_the_admin(client, personas, otp_required):
    client.force_login(personas.secretariat)
    response = client.get(reverse("admin:federation_player_changelist"))
    assert response.status_code == 302
    assert reverse("admin:login") in response.url


def test_with_the_setting_the_admin_login_refuses_a_password_alone_and_offers_the_users_devices(
    client, personas, otp_required
):
    device = TOTPDevice.objects.create(user=personas.secretariat, name="phone")
    response, _ = log_in(client, "secretariat", "pw-secretariat", url=ADMIN_LOGIN)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="otp_token"' in page
    assert f'value="{device.persistent_id}"' in page, "the second step: choose the device, type its token"
    assert client.get(reverse("admin:index")).status_code == 302


def test_with_the_setting_a_wrong_token_is_refused(client, personas, otp_required):
    device = TOTPDevice.objects.create(user=personas.secretariat, name="phone")
    wrong = f"{(int(token_for(device)) + 1) % 10**6:06d}"
    log_in(client, "secretariat", "pw-secretariat", url=ADMIN_LOGIN, otp_device=device.persistent_id, otp_token=wrong)
    assert client.get(reverse("admin:index")).status_code == 302


def test_with_the_setting_staff_with_a_totp_token_use_the_admin(client, personas, otp_required):
    device = TOTPDevice.objects.create(user=personas.secretariat, name="phone")
    response, logged_in = log_in(
        client,
        "secretariat",
        "pw-secretariat",
        url=ADMIN_LOGIN,
        otp_device=device.persistent_id,
        otp_token=token_for(device),
    )
    assert logged_in
    assert response.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200
    assert client.get(reverse("admin:federation_player_changelist")).status_code == 200


def test_with_the_setting_an_unconfirmed_device_does_not_count(client, personas, otp_required):
    device = TOTPDevice.objects.create(user=personas.secretariat, name="phone", confirmed=False)
    token = token_for(device)
    log_in(client, "secretariat", "pw-secretariat", url=ADMIN_LOGIN, otp_device=device.persistent_id, otp_token=token)
    assert client.get(reverse("admin:index")).status_code == 302


def test_with_the_setting_a_token_does_not_make_a_club_director_staff(client, personas, otp_required):
    device = TOTPDevice.objects.create(user=personas.director_a, name="phone")
    token = token_for(device)
    log_in(client, "director_a", "pw-director_a", url=ADMIN_LOGIN, otp_device=device.persistent_id, otp_token=token)
    assert client.get(reverse("admin:index")).status_code == 302


def test_with_the_setting_the_site_login_still_needs_only_a_password(client, personas, otp_required):
    assert log_in(client, "director_a", "pw-director_a")[1]
    assert client.get(reverse("office:home")).status_code == 200


def test_a_superuser_enrols_a_totp_device_in_the_admin_and_sees_its_qr_code(client, personas, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", "boss@example.com", "boss-password")
    client.force_login(boss)
    response = client.post(
        reverse("admin:otp_totp_totpdevice_add"),
        {
            "user": personas.secretariat.pk,
            "name": "phone",
            "confirmed": "on",
            "key": "3132333435363738393031323334353637383930",
            "step": 30,
            "t0": 0,
            "digits": 6,
            "tolerance": 1,
            "drift": 0,
            "throttling_failure_count": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    device = TOTPDevice.objects.get(user=personas.secretariat)
    config = client.get(reverse("admin:otp_totp_totpdevice_config", args=[device.pk]))
    assert config.status_code == 200
    assert "otpauth://totp/" in config.content.decode()
    qr = client.get(reverse("admin:otp_totp_totpdevice_qrcode", args=[device.pk]))
    assert qr.status_code == 200
    assert qr["Content-Type"] == "image/svg+xml"


def test_with_the_setting_the_first_superuser_gets_in_with_a_one_time_static_token(client, otp_required, db):
    """README: ``manage.py addstatictoken`` gives the first superuser, who has no device yet, a way in."""
    get_user_model().objects.create_superuser("boss", "boss@example.com", "boss-password")
    out = StringIO()
    call_command("addstatictoken", "boss", stdout=out)
    token = out.getvalue().strip()
    device = StaticDevice.objects.get(user__username="boss")
    login = {"otp_device": device.persistent_id, "otp_token": token}
    assert log_in(client, "boss", "boss-password", url=ADMIN_LOGIN, **login)[1]
    assert client.get(reverse("admin:otp_totp_totpdevice_add")).status_code == 200
    client.logout()
    log_in(client, "boss", "boss-password", url=ADMIN_LOGIN, **login)
    assert client.get(reverse("admin:index")).status_code == 302, "the static token works once"

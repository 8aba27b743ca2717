"""Staff enrol their own TOTP authenticator (django-otp): the admin asks for it with ADMIN_REQUIRE_OTP."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from federation.models import AuditEvent
from office.models import Officer
from office.second_factor import second_factor_reset
from office.services import officer_assign


def token_of(device: TOTPDevice) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


def test_the_secretariat_enrols_an_authenticator_with_its_first_token(client, personas):
    client.force_login(personas.secretariat)
    page = client.get(reverse("office:second_factor"))
    assert page.status_code == 200 and "Key" in page.content.decode()
    qr = client.get(reverse("office:second_factor_qr"))
    assert qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    device = TOTPDevice.objects.get(user=personas.secretariat)
    assert not device.confirmed
    response = client.post(reverse("office:second_factor"), {"token": token_of(device)})
    assert response.status_code == 302
    device.refresh_from_db()
    assert device.confirmed


def test_a_wrong_token_confirms_nothing_and_says_so(client, personas):
    client.force_login(personas.commission)
    client.get(reverse("office:second_factor"))
    device = TOTPDevice.objects.get(user=personas.commission)
    wrong = "000000" if token_of(device) != "000000" else "111111"
    response = client.post(reverse("office:second_factor"), {"token": wrong})
    assert response.status_code == 200 and "not the one the app shows now" in response.content.decode()
    device.refresh_from_db()
    assert not device.confirmed


def test_a_club_director_or_a_player_cannot_enrol_and_nobody_anonymous(client, personas):
    for user in (personas.director_a, personas.player):
        client.force_login(user)
        assert client.get(reverse("office:second_factor")).status_code == 403
        assert client.get(reverse("office:second_factor_qr")).status_code == 403
    client.logout()
    assert client.get(reverse("office:second_factor")).status_code == 302
    assert not TOTPDevice.objects.exists()


def test_a_region_officer_may_enrol_too(client, personas):
    client.force_login(personas.district_officer)
    assert client.get(reverse("office:second_factor")).status_code == 200


# --- issue 33, hole 1: the second factor cannot be bypassed with the password alone ---------------------------


def next_token_of(device: TOTPDevice) -> str:
    """The token the app shows in the next 30-second step (a step's token is accepted once only)."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = totp.time + device.step
    return f"{totp.token():0{device.digits}d}"


@pytest.fixture
def otp_site(settings):
    """As production runs: DEBUG off and the admin asking for a second factor."""
    settings.DEBUG = False
    settings.ADMIN_REQUIRE_OTP = True


def password_login(client, username: str) -> None:
    response = client.post(reverse("login"), {"username": username, "password": f"pw-{username}"})
    assert response.status_code == 302, "the password is right: the site's login lets them in"


def test_a_password_alone_cannot_enrol_a_second_device_and_reach_the_admin(client, personas, otp_site):
    owner_device = TOTPDevice.objects.create(user=personas.secretariat, name="owner's phone", confirmed=True)
    password_login(client, "secretariat")
    page = client.get(reverse("office:second_factor"))
    assert page.status_code == 200
    assert "Your login has an enrolled authenticator" in page.content.decode()
    assert client.get(reverse("office:second_factor_qr")).status_code == 403
    assert list(TOTPDevice.objects.filter(user=personas.secretariat)) == [owner_device], "no device to enrol"
    for guess in ("000000", "123456", "999999"):
        client.post(reverse("office:second_factor"), {"token": guess})
    assert TOTPDevice.objects.filter(user=personas.secretariat).count() == 1
    assert client.get(reverse("admin:index")).status_code == 302
    assert client.get(reverse("admin:federation_player_changelist")).status_code == 302


def test_the_superuser_with_a_password_alone_is_refused_too(client, django_user_model, otp_site):
    django_user_model.objects.create_superuser("root", "root@example.com", "pw-root")
    TOTPDevice.objects.create(user=django_user_model.objects.get(username="root"), name="phone", confirmed=True)
    password_login(client, "root")
    client.post(reverse("office:second_factor"), {"token": "123456"})
    assert TOTPDevice.objects.count() == 1
    assert client.get(reverse("admin:index")).status_code == 302


def test_confirming_the_first_device_does_not_verify_the_session_that_enrolled_it(client, personas, otp_site):
    password_login(client, "secretariat")
    client.get(reverse("office:second_factor"))
    device = TOTPDevice.objects.get(user=personas.secretariat)
    client.post(reverse("office:second_factor"), {"token": token_of(device)})
    device.refresh_from_db()
    assert device.confirmed
    assert client.get(reverse("admin:index")).status_code == 302, "a device confirmed now is not a factor yet"
    response = client.post(reverse("office:second_factor"), {"token": next_token_of(device)})
    assert response.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200, "verified by a device confirmed before"


def test_a_verified_session_enrols_another_device(client, personas, otp_site):
    first = TOTPDevice.objects.create(user=personas.secretariat, name="phone", confirmed=True)
    password_login(client, "secretariat")
    client.post(reverse("office:second_factor"), {"token": token_of(first)})
    assert client.get(reverse("office:second_factor_qr")).status_code == 200
    second = TOTPDevice.objects.get(user=personas.secretariat, confirmed=False)
    client.post(reverse("office:second_factor"), {"token": token_of(second)})
    second.refresh_from_db()
    assert second.confirmed
    assert client.get(reverse("admin:index")).status_code == 200
    enrolled = AuditEvent.objects.get(action="second_factor.enrol")
    assert enrolled.actor == personas.secretariat and enrolled.payload == {"device": second.pk}


def test_a_pending_device_made_in_another_session_is_never_confirmed_here(client, personas, otp_site):
    """An attacker with the password makes a pending device (whose secret they saw) before the owner enrols:
    the owner's session gets a device of its own, and the attacker's token confirms nothing."""
    attacker = Client()
    password_login(attacker, "secretariat")
    attacker.get(reverse("office:second_factor"))
    planted = TOTPDevice.objects.get(user=personas.secretariat)
    password_login(client, "secretariat")
    client.get(reverse("office:second_factor"))
    own = TOTPDevice.objects.get(user=personas.secretariat)
    assert own.pk != planted.pk and own.key != planted.key
    attacker.post(reverse("office:second_factor"), {"token": token_of(planted)})
    assert not TOTPDevice.objects.filter(user=personas.secretariat, confirmed=True).exists()


def test_the_secretariat_resets_a_lost_factor_of_its_officer_audited(client, personas, world, otp_site):
    TOTPDevice.objects.create(user=personas.commission, name="lost phone", confirmed=True)
    secretariat_device = TOTPDevice.objects.create(user=personas.secretariat, name="phone", confirmed=True)
    client.post(
        reverse("admin:login"),
        {
            "username": "secretariat",
            "password": "pw-secretariat",
            "otp_device": secretariat_device.persistent_id,
            "otp_token": token_of(secretariat_device),
        },
    )
    officer = Officer.objects.get(user=personas.commission)
    response = client.post(
        reverse("admin:office_officer_changelist"),
        {"action": "reset_second_factor", "_selected_action": [officer.pk]},
    )
    assert response.status_code == 302
    assert not TOTPDevice.objects.filter(user=personas.commission).exists()
    reset = AuditEvent.objects.get(action="second_factor.reset")
    assert reset.actor == personas.secretariat and reset.target_id == str(personas.commission.pk)


def test_the_secretariat_cannot_reset_a_superusers_or_another_federations_officers_factor(personas, world):
    from django.contrib.auth import get_user_model

    root = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root")
    other = get_user_model().objects.create_user("tajnik")
    officer_assign(actor=None, user=other, role="secretariat", federation=world.hbs)
    for user in (root, other, personas.secretariat):
        TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
        with pytest.raises(PermissionDenied):
            second_factor_reset(actor=personas.secretariat, user=user)
    assert TOTPDevice.objects.count() == 3

"""Staff enrol their own TOTP authenticator (django-otp): the admin asks for it with ADMIN_REQUIRE_OTP."""

from __future__ import annotations

from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice


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

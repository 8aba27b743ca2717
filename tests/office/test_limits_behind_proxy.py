"""Issue 33, hole 2: behind a proxy every per-client limit counts the client the proxy names, as the login
lockout does (``federation.client_address``), never the proxy's own address shared by everyone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from api.public import READ_RATE
from office.accounts.views import RATE_PER_ADDRESS

PROXY = "10.0.0.5"
ALICE, BOB = "203.0.113.7", "198.51.100.23"


@pytest.fixture
def behind_one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1


def through_proxy(client_address: str) -> dict:
    """What the proxy sends: its own connection, and the client's address appended to X-Forwarded-For
    (a client may put anything before it)."""
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"1.2.3.4, {client_address}"}


def limit_of(rate: str) -> int:
    return int(rate.split("/")[0])


def test_the_api_read_limit_is_per_client_behind_the_proxy(client, world, rate_window, behind_one_proxy):
    address = f"/api/rankings?federation={world.dbf.code}"
    for _call in range(limit_of(READ_RATE)):
        assert client.get(address, **through_proxy(ALICE)).status_code == 200
    refused = client.get(address, **through_proxy(ALICE))
    assert refused.status_code == 429 and refused.json()["error"]["params"]["rate"] == READ_RATE
    assert client.get(address, **through_proxy(BOB)).status_code == 200, "Bob has his own count"


def test_the_password_reset_limit_is_per_client_behind_the_proxy(client, personas, rate_window, behind_one_proxy):
    address = reverse("password_reset")
    for number in range(limit_of(RATE_PER_ADDRESS)):
        data = {"email": f"someone{number}@example.com"}
        assert client.post(address, data, **through_proxy(ALICE)).status_code == 302
    assert client.post(address, {"email": "x@example.com"}, **through_proxy(ALICE)).status_code == 429
    response = client.post(address, {"email": "bob@example.com"}, **through_proxy(BOB))
    assert response.status_code == 302, "ten requests from one client do not switch reset off for everyone"


def test_a_forged_left_entry_does_not_give_a_client_a_new_count(client, world, rate_window, behind_one_proxy):
    address = f"/api/rankings?federation={world.dbf.code}"
    for number in range(limit_of(READ_RATE)):
        forged = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"192.0.2.{number % 250}, {ALICE}"}
        assert client.get(address, **forged).status_code == 200
    assert client.get(address, **through_proxy(ALICE)).status_code == 429


def test_a_proxy_entry_that_is_no_address_counts_the_connection(client, world, rate_window, behind_one_proxy):
    address = f"/api/rankings?federation={world.dbf.code}"
    response = client.get(address, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="unknown")
    assert response.status_code == 200

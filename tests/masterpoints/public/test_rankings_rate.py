"""The rankings pages rendered for one client are limited (issue 36: every address differs, so the cache does
not bound what a client can make the database do); a page served from the cache is not counted."""

from __future__ import annotations

import pytest
from django.urls import reverse

from masterpoints.public import views

PROXY, ALICE, BOB = "10.0.0.1", "198.51.100.7", "203.0.113.9"


@pytest.fixture
def behind_one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1


def through_proxy(address: str) -> dict:
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"1.2.3.4, {address}"}


def test_rendered_list_pages_are_limited_per_client_naming_the_limit(
    client, world, rate_window, behind_one_proxy, monkeypatch
):
    monkeypatch.setattr(views, "LISTS_RATE_PER_MINUTE", 3)
    address = reverse("public:rankings")
    for page in range(1, 4):
        response = client.get(address, {"federation": world.dbf.pk, "q": f"name{page}"}, **through_proxy(ALICE))
        assert response.status_code == 200
    refused = client.get(address, {"federation": world.dbf.pk, "q": "another"}, **through_proxy(ALICE))
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "at most 3 a minute" in refused.content.decode()
    other = client.get(address, {"federation": world.dbf.pk, "q": "another"}, **through_proxy(BOB))
    assert other.status_code == 200, "another client has a count of its own"

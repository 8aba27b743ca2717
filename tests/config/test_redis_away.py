"""Issue 33, hole 5: with the cache's Redis away, every public page answers 200 (rendered, not kept) and the
per-address limits do not refuse (``config.cache``, ``RATELIMIT_FAIL_OPEN``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_tournament, post_award


@pytest.fixture
def redis_away(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


def public_addresses(world, tournament) -> list[str]:
    player = world.player
    return [
        reverse("federation:home"),
        reverse("public:rankings"),
        f"{reverse('public:rankings')}?federation={world.dbf.pk}&page=1",
        f"{reverse('public:rankings')}?federation={world.dbf.pk}&format=csv",
        reverse("public:ranking_list"),
        f"{reverse('public:player_search')}?q=Jensen",
        reverse("public:player", args=[world.dbf.code, player.number]),
        reverse("public:tournament", args=[tournament.pk]),
        reverse("public:calculator"),
        reverse("clubs:detail", args=[world.club_a.pk]),
        f"/api/rankings?federation={world.dbf.code}",
        f"/api/players/{world.dbf.code}/{player.number}",
    ]


def test_with_redis_away_every_public_page_answers_200(client, world, redis_away):
    tournament = make_tournament(world.dbf, world.club_a)
    post_award(world.player, "BP", 16, tournament=tournament)
    standings_refresh_players(federation=world.dbf, player_ids=[world.player.pk])
    for address in public_addresses(world, tournament):
        for _twice in range(2):
            response = client.get(address)
            assert response.status_code == 200, (address, response.status_code)
    page = client.get(reverse("public:player", args=[world.dbf.code, world.player.number]))
    assert "16" in page.content.decode()


def test_with_redis_away_the_api_limit_does_not_refuse(client, world, rate_window, redis_away):
    for _call in range(70):
        assert client.get(f"/api/rankings?federation={world.dbf.code}").status_code == 200

"""The name search that forgives (issue 17): the rankings' and the home page's, both folded as the register's
stored search key is (federation.names: "Jorgen" finds "Jørgen", "SØREN" "Søren", "Dordevic" "Đorđević"), and
"hide my name" respected as the rankings respect it (found by number only, the secretariat sees all)."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse

from masterpoints.models import Award
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, post_award


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def names(world):
    """Danish and Croatian players with points, one who hides their name."""
    players = {
        "jorgen": make_player(world.dbf, "801", first="Jørgen", last="Ærbø"),
        "soren": make_player(world.dbf, "802", first="Søren", last="Kierkegaard"),
        "hidden": make_player(world.dbf, "803", first="Jørgen", last="Skjult", hide_name=True),
        "dordevic": make_player(
            world.hbs, "901", first="Đuro", last="Đorđević", dues_paid_until=datetime.date(2099, 1, 1)
        ),
    }
    for player in players.values():
        post_award(player, "BP" if player.federation == world.dbf else "black", 10, source=Award.Source.MANUAL)
        standings_refresh_players(federation=player.federation, player_ids=[player.pk])
    return players


def rankings_text(client, federation, q) -> str:
    body = client.get(reverse("public:rankings"), {"federation": federation.pk, "q": q}).content.decode()
    return body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]


@pytest.mark.parametrize(
    ("q", "found", "not_found"),
    [("Jorgen", "Ærbø", "Kierkegaard"), ("SØREN", "Kierkegaard", "Ærbø"), ("aerbo", "Ærbø", "Kierkegaard")],
)
def test_the_rankings_name_search_folds_case_accents_and_danish_letters(client, world, names, q, found, not_found):
    text = rankings_text(client, world.dbf, q)
    assert found in text and not_found not in text


def test_the_rankings_find_dordevic_as_dordevic_with_croatian_letters(client, world, names):
    assert "Đorđević" in rankings_text(client, world.hbs, "Dordevic")
    assert "Đorđević" in rankings_text(client, world.hbs, "djordjević")


def test_a_hidden_name_is_not_found_by_a_folded_name_on_the_rankings(client, world, names):
    assert "803" not in rankings_text(client, world.dbf, "Skjult")


def search(client, q):
    return client.get(reverse("public:player_search"), {"q": q})


def test_the_home_page_has_a_find_a_player_box_leading_to_the_search(client, world):
    body = client.get(reverse("federation:home")).content.decode()
    assert f'action="{reverse("public:player_search")}"' in body and 'name="q"' in body


def test_find_a_player_searches_both_federations_with_the_same_folding(client, world, names):
    body = search(client, "Dordevic").content.decode()
    assert "Đuro Đorđević" in body and "HBS" in body
    body = search(client, "jorgen").content.decode()
    assert "Jørgen Ærbø" in body and reverse("public:player", args=["dbf", "801"]) in body
    assert "Skjult" not in body  # hides their name: not found by name
    assert "Søren" in search(client, "SOEREN").content.decode()


def test_find_a_player_finds_a_hidden_name_by_number_and_shows_only_the_number(client, world, names):
    body = search(client, "803").content.decode()
    assert reverse("public:player", args=["dbf", "803"]) in body and "Skjult" not in body


def test_the_secretariat_finds_hidden_names_of_its_own_federation(client, world, names, personas):
    client.force_login(personas.secretariat)
    assert "Jørgen Skjult" in search(client, "Jorgen Skjult").content.decode()


def test_a_search_longer_than_its_bound_is_refused(client, world):
    assert search(client, "x" * 101).status_code == 400

"""Malformed public input gets a 400 or 404 that says what was refused, never a 500 (design.md § Invariants:
every number that enters from outside is bounded where it enters)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from federation.params import FIRST_SEASON, LAST_SEASON, MAX_PAGE

HUGE = "1" + "0" * 30


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("public:rankings", {"page": HUGE}),
        ("public:rankings", {"page": str(MAX_PAGE + 1)}),
        ("public:rankings", {"federation": HUGE}),
        ("public:rankings", {"export": "xlsx", "page": HUGE}),
        ("cups:list", {"season": "0"}),
        ("cups:list", {"season": "99999"}),
        ("cups:list", {"season": HUGE}),
    ],
)
def test_a_number_out_of_range_on_a_page_is_a_400_naming_the_bound(client, world, name, query):
    response = client.get(reverse(name), query)
    assert response.status_code == 400
    body = response.content.decode()
    assert "must be a whole number from" in body


def test_the_top16_and_the_cup_report_refuse_a_season_outside_the_years(client, world, personas):
    url = reverse("cups:top16", args=[world.club_a.pk])
    response = client.get(url, {"season": "0"})
    assert response.status_code == 400 and f"from {FIRST_SEASON} to {LAST_SEASON}" in response.content.decode()
    client.force_login(personas.secretariat)
    assert client.get(reverse("cups:report"), {"season": "99999"}).status_code == 400


@pytest.mark.parametrize(
    ("name", "args", "query"),
    [
        ("api:rankings", [], {"page": HUGE}),
        ("api:player", ["dbf", "12345"], {"page": str(10**17)}),
    ],
)
def test_the_api_answers_a_page_out_of_range_with_a_json_400(client, world, name, args, query):
    response = client.get(reverse(name, args=args), query)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "page"
    assert response.json()["error"]["code"] == "BAD_PARAMETER"


@pytest.mark.parametrize(
    "path", ["/players/12%0045/", "/players/dbf/12%0045/", "/api/players/12%0045", "/api/players/dbf/12%0045"]
)
def test_a_nul_in_a_player_number_is_a_404(client, world, path):
    assert client.get(path).status_code == 404


def test_club_and_region_ids_too_large_for_an_id_filter_nothing(client, world):
    """The page filters by id and ignores what is none; the API names a club by number and a region by code,
    and refuses one its federation does not have, naming it (a JSON 400 with a code)."""
    for name in ("club", "region"):
        assert client.get(reverse("public:rankings"), {name: HUGE}).status_code == 200
        response = client.get(reverse("api:rankings"), {"federation": "dbf", name: HUGE})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == f"UNKNOWN_{name.upper()}"
        assert response.json()["error"]["field"] == name


@pytest.mark.parametrize("name", ["federation", "club", "region"])
@pytest.mark.parametrize("address", ["api:rankings", "api:ranking_list"])
def test_the_api_refuses_a_nul_character_naming_the_field_before_any_lookup(client, world, name, address):
    """PostgreSQL refuses a NUL in text outright (a 500 before, found by ``bench/hostile.py`` on PostgreSQL):
    the API answers a JSON 400 naming the field, as the filter's own fields do."""
    query = {"federation": "dbf", name: "a\x00b"}
    response = client.get(reverse(address), query)
    assert response.status_code == 400
    assert response.json()["error"] == {**response.json()["error"], "code": "BAD_PARAMETER", "field": name}

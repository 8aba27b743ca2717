"""A list the stored positions do not order (another kind, ``?sort=``) is ranked by the database a page at a
time (``masterpoints.public.placed.RankedRows``): every page, of the page and of the API, holds the rows and
places the whole list ranked at once gives, equal points sharing a place (1, 2, 2, 4: § 452A's top-16 and
the rankings rank on the points, H-2 on the category first)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from masterpoints.models import Standing
from masterpoints.public import placed, selectors
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, post_award

PLAYERS = 31  # two pages of 25 on the page, five of 7 in the API


@pytest.fixture
def field(world):
    """31 DBf players whose BP tie in threes below the best; their names run against the points (the best is
    "Name01", the last "Name31")."""
    players = []
    for index in range(PLAYERS):
        player = make_player(world.dbf, str(60001 + index), last=f"Name{PLAYERS - index:02d}", club=world.club_a)
        post_award(player, "BP", 10 * (1 + index // 3))
        post_award(player, "SP", 1 + index % 5)
        players.append(player)
    standings_refresh_players(federation=world.dbf, player_ids=[p.pk for p in players])
    return world


def whole_list(world, kind: str) -> list[tuple[str, int, str]]:
    """(number, place, last name) of every row, the list ranked at once."""
    rows = selectors.ranked(Standing.objects.filter(federation=world.dbf), scheme="dbf", kind=kind)
    return [(row.player.number, row.place, row.player.last_name) for row in rows]


def page_rows(client, **query) -> list[tuple[str, int]]:
    body = client.get(reverse("public:rankings"), query).content.decode()
    tbody = body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    found = []
    for row in tbody.split("<tr")[1:]:
        cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        found.append((cells[1], int(cells[0])))
    return found


def test_every_page_of_a_list_ranked_by_another_kind_holds_the_whole_lists_rows_and_places(client, field):
    expected = [(number, place) for number, place, _name in whole_list(field, "BP")]
    assert [place for _number, place in expected][:8] == [1, 2, 2, 2, 5, 5, 5, 8]  # ties share, BP from the top
    shown = [
        row for page in (1, 2) for row in page_rows(client, federation=field.dbf.pk, kind="BP", per_page=25, page=page)
    ]
    assert shown == expected


def test_a_list_sorted_by_name_keeps_each_players_place_on_every_page(client, field):
    ranked = whole_list(field, "BP")
    by_name = [(number, place) for number, place, _name in sorted(ranked, key=lambda row: row[2])]
    shown = [
        row
        for page in (1, 2)
        for row in page_rows(client, federation=field.dbf.pk, kind="BP", sort="name", per_page=25, page=page)
    ]
    assert shown == by_name and shown[:2] == [("60031", 1), ("60030", 2)]  # "Name01" has the most BP
    backwards = [
        row
        for page in (1, 2)
        for row in page_rows(client, federation=field.dbf.pk, kind="BP", sort="-name", per_page=25, page=page)
    ]
    assert backwards == by_name[::-1]


def test_every_api_page_holds_the_whole_lists_rows_and_places(client, field):
    expected = [(number, place) for number, place, _name in whole_list(field, "SP")]
    shown = []
    for page in range(1, 6):
        answer = client.get(reverse("api:rankings"), {"federation": "dbf", "kind": "SP", "page_size": 7, "page": page})
        shown += [(row["number"], row["place"]) for row in answer.json()["results"]]
    assert shown == expected and len(shown) == PLAYERS


@pytest.mark.parametrize("kind", ["BP", "SP", "MP"])
def test_a_page_in_the_lists_own_order_starting_anywhere_holds_the_places_of_the_whole_list(field, kind):
    """A page in the list's own order is read without ranking the whole list (its first row's place is one
    more than the rows with more points): whatever row it starts at, inside a tie or after one, and however
    long, it holds the rows and places of the list ranked at once, for the federation and a narrowed list."""
    lists = {
        "federation": Standing.objects.filter(federation=field.dbf),
        "narrowed": Standing.objects.filter(federation=field.dbf, player__number__gte="60008"),
    }
    for name, queryset in lists.items():
        whole = selectors.ranked(queryset, scheme="dbf", kind=kind)
        expected = [(row.player.number, row.place) for row in whole]
        keys = [row.points(kind) if kind != "MP" else row.total for row in whole]
        assert [place for _number, place in expected] == [1 + sum(k > key for k in keys) for key in keys]  # § 452A
        rows = placed.ranked_rows(queryset, scheme="dbf", kind=kind)
        for start in range(len(expected)):
            for size in (1, 2, 3, 4, 25):
                page = [(row.player.number, row.place) for row in rows[start : start + size]]
                assert page == expected[start : start + size], (name, start, size)

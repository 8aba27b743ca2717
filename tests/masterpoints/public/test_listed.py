"""The rankings read from the rank index (``masterpoints.public.listed``) show what the database ranks: the same
rows, in the same order, with the same places (equal keys share one, as ``RANK()`` gives them), on every page,
for the whole list, a region, a club and a name, anonymous or as the secretariat; what the index cannot rank
(another kind, another order, a season, two filters together) is still ranked in the database."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, ClubMembership
from masterpoints.public import ranks, selectors
from masterpoints.standings.services import standings_refresh_players
from tests.factories import DAY, make_player, post_award

LAST_NAMES = ("Jensen", "Holm", "Dahl", "Nielsen", "Bach")


def table_of(client, url: str, *, indexed: bool, monkeypatch) -> tuple[int, str, bool]:
    """The page's row count and table body, read one way (a fresh cache and index), and whether the rows
    were ranked in the database (a ``RANK() OVER`` among its queries)."""
    monkeypatch.setattr(ranks, "SETTLED_SECONDS", -1 if indexed else 10**12)
    cache.clear()
    ranks.rank_index_forget()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    body = re.search(r"<tbody>.*?</tbody>", response.content.decode(), re.S)
    windowed = any("RANK() OVER" in query["sql"] for query in queries.captured_queries)
    return response.context["table"].paginator.count, body.group(0) if body else "", windowed


@pytest.fixture
def listed_world(world):
    """60 DBf players in five names, three clubs (one in a circle), some without a home club, a second club
    and a membership that ended, five of them hiding their name; their points repeat, so places are shared."""
    circle_club = Club.objects.create(federation=world.dbf, number="1003", name="Kredsklubben")
    circle_club.regions.set([world.circle])
    homes = (world.club_a, world.club_b, circle_club, None)
    players = []
    for n in range(60):
        p = make_player(world.dbf, str(300 + n), first=f"F{n}", last=LAST_NAMES[n % 5], hide_name=n % 12 == 0)
        post_award(p, "BP", 100 + 25 * (n % 7))
        post_award(p, "SP", 10 * (n % 3) + 1)
        home = homes[n % 4]
        if home is not None:
            ClubMembership.objects.create(player=p, club=home, is_home=True)
        other = world.club_b if home is world.club_a else world.club_a
        if n % 9 == 0:
            ClubMembership.objects.create(player=p, club=other, is_home=False)
        elif n % 10 == 1:
            ended = selectors.today() - datetime.timedelta(days=3)
            ClubMembership.objects.create(player=p, club=other, is_home=False, until=ended)
        players.append(p)
    standings_refresh_players(federation=world.dbf, player_ids=[p.pk for p in players])
    return world


def test_the_index_ranks_as_the_database_does(listed_world, client, personas, monkeypatch):
    world = listed_world
    base = f"/rankings/?federation={world.dbf.pk}"
    from_index = [
        "",
        "&page=2",
        "&per_page=25&page=3",
        f"&region={world.district.pk}",
        f"&region={world.circle.pk}&per_page=25",
        f"&club={world.club_a.pk}",
        f"&club={world.club_b.pk}",
        "&q=jensen",
        "&q=dahl+f1",
        "&q=nobody",
        "&region=abc",
    ]
    from_database = [
        "&kind=BP",  # ranked by another column than the index's key
        "&sort=name",
        f"&club={world.club_a.pk}&sort=-mp",
        f"&club={world.club_a.pk}&q=jensen",
        "&q=301",  # a number: the register
        f"&season={world.dbf.scheme_info.season_of(selectors.today())}",
    ]
    for viewer in ("anonymous", "secretariat"):
        if viewer == "secretariat":
            client.force_login(personas.secretariat)  # finds the hidden names too
        for query in from_index + from_database:
            counted, counted_body, counted_window = table_of(
                client, base + query, indexed=False, monkeypatch=monkeypatch
            )
            listed, listed_body, listed_window = table_of(client, base + query, indexed=True, monkeypatch=monkeypatch)
            assert (listed, listed_body) == (counted, counted_body), (viewer, query)
            assert counted_window, query
            assert listed_window == (query in from_database), (viewer, query)
    assert table_of(client, base, indexed=True, monkeypatch=monkeypatch)[0] == 60


def test_equal_keys_share_a_place_across_pages_on_the_index(listed_world, client, monkeypatch):
    # RANK(): a place shared by players on two pages is the same on both, and the next place skips them.
    base = f"/rankings/?federation={listed_world.dbf.pk}&per_page=25"
    places = []
    for page in (1, 2, 3):
        body = table_of(client, f"{base}&page={page}", indexed=True, monkeypatch=monkeypatch)[1]
        places += [int(place) for place in re.findall(r'<tr><td class="num">(\d+)</td>', body)]
    assert len(places) == 60
    assert places == sorted(places)
    for index, place in enumerate(places):
        assert place == places.index(place) + 1, index  # one more than the players above


def test_the_official_list_of_hbs_is_ranked_from_the_index_rule_3(world, client, monkeypatch):
    # HBS lists only the paid members and guests who asked (rule 3, 4): the index is built of those.
    today = selectors.today()
    players = []
    for n in range(12):
        paid = today if n % 3 else today - datetime.timedelta(days=1)
        p = make_player(world.hbs, str(500 + n), dues_paid_until=paid, last=LAST_NAMES[n % 5])
        post_award(p, "black", 20 + 5 * (n % 4))
        players.append(p)
    standings_refresh_players(federation=world.hbs, player_ids=[p.pk for p in players])
    base = f"/rankings/?federation={world.hbs.pk}"
    for query in ("", "&q=holm", "&official=no"):
        counted = table_of(client, base + query, indexed=False, monkeypatch=monkeypatch)
        listed = table_of(client, base + query, indexed=True, monkeypatch=monkeypatch)
        assert listed[:2] == counted[:2], query
        assert listed[2] == (query == "&official=no"), query
    assert table_of(client, base, indexed=True, monkeypatch=monkeypatch)[0] == 8


def test_a_nul_in_the_name_box_finds_no_hidden_player_hbs_rule_4(listed_world, client, monkeypatch):
    # The index stands for a hidden name with NUL in the public's search. The name box refuses NUL (Django's
    # CharField); with that guard taken away, folding still splits words at it (federation.names), so no
    # search matches a placeholder: the index lists what the database lists, and no hidden player.
    from django.core import validators

    monkeypatch.setattr(validators.ProhibitNullCharactersValidator, "__call__", lambda self, value: None)
    base = f"/rankings/?federation={listed_world.dbf.pk}"
    hidden = [f">{300 + n}<" for n in range(0, 60, 12)]
    for query in ("&q=%00", "&q=a%00", "&q=%00+jensen", "&q=jen%00sen"):
        counted = table_of(client, base + query, indexed=False, monkeypatch=monkeypatch)
        listed = table_of(client, base + query, indexed=True, monkeypatch=monkeypatch)
        assert listed[:2] == counted[:2], query
        assert not any(number in listed[1] for number in hidden), query


def test_a_page_from_the_index_reads_no_standing_and_hides_a_name_at_once(listed_world, client, monkeypatch):
    # The index carries what each row shows (RankIndex.shown, in ListedPlayer's and ListedRow's field order):
    # a page of the list reads no standing or player of its own. A player hiding their name raises the
    # standings version (HBS rule 4 privacy shows at once), so the next page's index is built anew.
    from dataclasses import fields

    from masterpoints.public.listed import ListedPlayer, ListedRow
    from masterpoints.standings.services import player_hide_name_set

    assert [f.name for f in fields(ListedPlayer)] + [f.name for f in fields(ListedRow)][2:] == list(ranks.SHOWN)
    base = f"/rankings/?federation={listed_world.dbf.pk}"
    table_of(client, base, indexed=True, monkeypatch=monkeypatch)  # builds the index
    with CaptureQueriesContext(connection) as queries:
        page = client.get(base + "&per_page=25&page=2").content.decode()
    assert not [q["sql"] for q in queries.captured_queries if "masterpoints_standing" in q["sql"]]
    shown = re.findall(r'/players/dbf/(\d+)/">([^<]*)<', page)
    assert len(shown) == 25
    number, name = next((number, name) for number, name in shown if name != number)
    player = listed_world.dbf.players.get(number=number)
    player_hide_name_set(actor=None, player=player, hide_name=True)
    monkeypatch.setattr(ranks, "SETTLED_SECONDS", -1)
    page = client.get(base + "&per_page=25&page=2").content.decode()
    assert f'/players/dbf/{number}/">{number}<' in page
    assert name not in page


def test_a_list_ranked_in_the_database_is_counted_once_a_standings_version(listed_world, client, personas):
    """A season's list (§ 451C) is ranked in the database: its length is counted for its first page, then
    read back for its other pages, orders and languages under the same standings version; an award raises
    the version and the list is counted again, with the new player in it. Who may find hidden names (HBS
    rule 4) has counts of their own."""
    world = listed_world
    season = world.dbf.scheme_info.season_of(DAY)
    base = f"/rankings/?federation={world.dbf.pk}&season={season}"

    def counted(url: str) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        counts = sum(1 for query in queries.captured_queries if "COUNT(" in query["sql"].upper())
        return response.context["table"].paginator.count, counts

    assert counted(base) == (60, 1)
    assert counted(f"{base}&page=2&per_page=25") == (60, 0)
    assert counted(f"{base}&sort=name") == (60, 0)
    assert counted(f"{base}&kind=SP") == (60, 1)  # another filter value, another count
    newcomer = make_player(world.dbf, "399", first="Ny", last="Spiller")
    post_award(newcomer, "BP", 50)
    standings_refresh_players(federation=world.dbf, player_ids=[newcomer.pk])
    assert counted(f"{base}&page=2&per_page=25") == (61, 1)
    client.force_login(personas.secretariat)
    assert counted(f"{base}&page=2&per_page=25")[1] == 1

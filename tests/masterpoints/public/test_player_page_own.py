"""Issue 18, gaps closed: the player chooses the monthly statement on their own public page (nobody else sees
the form), and a DBf player's page shows their ranking-list figure and place (D-Q56–D-Q60); HBS has no list."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from masterpoints.models import NoticePreference, RankingListEntry, Standing
from masterpoints.standings.places import places_refresh
from tests.factories import make_player

FORM = 'action="/me/notices/"'


def page(world, player=None) -> str:
    player = player or world.player
    return reverse("public:player", args=[player.federation.code, player.number])


def test_the_player_sees_the_statement_choice_on_their_own_page_and_changes_it_there_issue_18(client, world, personas):
    client.force_login(personas.player)
    body = client.get(page(world)).content.decode()
    assert FORM in body and 'name="monthly_statement"' in body and 'name="back" value="player"' in body
    assert "csrfmiddlewaretoken" in body.split(FORM, 1)[1].split("</form>", 1)[0]
    response = client.post(reverse("notices:preference"), {"monthly_statement": "on", "back": "player"})
    assert response.status_code == 302 and response.url == page(world)
    assert NoticePreference.objects.get(player=world.player).monthly_statement
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["You will get the monthly statement by e-mail."]
    form = client.get(page(world)).content.decode().split(FORM, 1)[1].split("</form>", 1)[0]
    assert 'name="monthly_statement"' in form and "checked" in form
    response = client.post(reverse("notices:preference"), {"back": "player"})
    assert response.url == page(world)
    assert not NoticePreference.objects.get(player=world.player).monthly_statement


def test_my_page_still_answers_with_my_page_and_no_address_is_taken_from_the_request_issue_18(client, world, personas):
    client.force_login(personas.player)
    assert client.post(reverse("notices:preference"), {"monthly_statement": "on"}).url == reverse("notices:account")
    response = client.post(reverse("notices:preference"), {"back": "https://evil.example/"})
    assert response.url == reverse("notices:account")


@pytest.mark.parametrize("viewer", ["anonymous", "director_a", "secretariat"])
def test_nobody_but_the_player_sees_the_statement_choice_not_even_after_the_player_viewed_it_issue_18(
    client, world, personas, viewer
):
    client.force_login(personas.player)
    assert FORM in client.get(page(world)).content.decode()
    client.logout()
    if viewer != "anonymous":
        client.force_login(getattr(personas, viewer))
    body = client.get(page(world)).content.decode()
    assert FORM not in body and 'name="monthly_statement"' not in body
    other = make_player(world.dbf, "777")
    client.force_login(personas.player)
    assert FORM not in client.get(page(world, other)).content.decode()  # not on another player's page


def test_a_dbf_players_page_shows_the_ranking_list_figure_and_place_with_a_link_d_q60(client, world):
    """D-Q60: the figure in MP per year rounded half up to 2 decimals (5737 / 1100 = 5.2155 → 5.22); equal
    figures share a place, so behind two players of 9.00 the place is 3, as on the list itself."""
    figures = {make_player(world.dbf, "201"): 9900, make_player(world.dbf, "202"): 9900, world.player: 5737}
    figures[make_player(world.dbf, "203")] = 100
    for player, score in figures.items():
        Standing.objects.get_or_create(player=player, federation=world.dbf)
        RankingListEntry.objects.create(player=player, federation=world.dbf, score=score)
    places_refresh(world.dbf, day=timezone.localdate())  # the places, as the beat derives them
    body = client.get(page(world)).content.decode()
    figure = body.split('<p class="ranking-list-figure">', 1)[1].split("</p>", 1)[0]
    assert f'href="{reverse("public:ranking_list")}?federation={world.dbf.pk}"' in figure
    assert "5.22 MP per year, place 3" in figure
    shared = client.get(page(world, world.dbf.players.get(number="202"))).content.decode()
    assert "9.00 MP per year, place 1" in shared


def test_a_dbf_player_without_a_figure_and_an_hbs_player_show_no_ranking_list_d_q56(client, world):
    assert 'class="ranking-list-figure"' not in client.get(page(world)).content.decode()
    croat = make_player(world.hbs, "5001")
    assert 'class="ranking-list-figure"' not in client.get(page(world, croat)).content.decode()


def test_the_ranking_list_figure_costs_one_query_and_hbs_none_d_q60(client, world):
    """The figure and its place are one query; a scheme without the list asks nothing."""
    RankingListEntry.objects.create(player=world.player, federation=world.dbf, score=5737)
    croat = make_player(world.hbs, "5001")
    counts = {}
    for label, player in (("dbf", world.player), ("hbs", croat)):
        client.get(page(world, player))  # warm the per-process lookups (sites, rule sets)
        with CaptureQueriesContext(connection) as queries:
            client.get(page(world, player), {"rendered": "again"})  # not the whole page kept for anonymous readers
        counts[label] = [q["sql"] for q in queries if "rankinglistentry" in q["sql"]]
    assert len(counts["dbf"]) == 1 and counts["hbs"] == []

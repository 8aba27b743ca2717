"""A third rule book, "table points", added from the outside: registered with one call, it is uploaded, scored,
ledgered, ranked and shown by the site's own pages, API and calculator.

The rule book (:mod:`tests.third_rule_book.rules`): each player of the entry placed 1st receives 10 TP, 2nd 6,
3rd 3, others 0 (rule 1, the table; tied places share their values, rounded up); the titles are Bronze player at
10 TP, Silver player at 30 and Gold player at 100 (rule 2); a season is a calendar year (rule 3).

The file: five pairs, places 1, 2=, 2=, 4, 5. By the table: the winners 10 TP each (Bronze player), the pairs tied
on 2–3 (6 + 3) / 2 = 4.5, rounded up to 5 TP each (no title), the 4th and 5th nothing.
"""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from masterpoints.models import Award, Standing
from tests.factories import pairs_from_numbers, usebio_pairs
from tests.third_rule_book.calculator import answer
from tests.third_rule_book.conftest import NUMBERS
from tests.third_rule_book.rules import TABLE_RULES
from tests.third_rule_book.scoring import place_points
from tournaments.models import ResultUpload, Tournament

DAY = datetime.date(2025, 3, 4)
#: The file's places of the five pairs, in the file's order (pairs 2 and 3 tied).
PLACES = ["1", "2=", "2=", "4", "5"]
#: By the table (rule 1): the winners 10 TP each, the players tied on 2–3 5 TP each, the 4th and 5th pairs nothing.
WINNERS, TIED, UNPAID = NUMBERS[0:2], NUMBERS[2:6], NUMBERS[6:10]


def table_file() -> SimpleUploadedFile:
    """A USEBIO pairs file of the table club: five pairs over 24 boards, places 1, 2=, 2=, 4, 5."""
    data = usebio_pairs(
        club_number="501",
        date=DAY,
        name="Spring table night",
        sections=[pairs_from_numbers(NUMBERS, seed=3)],
        boards=24,
        places=[PLACES],
    )
    return SimpleUploadedFile("table.xml", data, content_type="text/xml")


def text(response) -> str:
    """The main part of the page as a reader sees it: its words without the tags, entities decoded, white space
    collapsed (none before a full stop or a closing parenthesis)."""
    page = response.content.decode()
    main = page[page.find("<main") : page.find("</main>")]
    words = " ".join(html.unescape(re.sub(r"<[^>]*>", " ", main)).split())
    return re.sub(r" ([.,:;)])", r"\1", words)


def upload_and_confirm(client, table_world, django_capture_on_commit_callbacks) -> str:
    """The director's upload page, the preview page and the confirm, as a director uses them; the preview's text."""
    client.force_login(table_world.director)
    page = client.get(reverse("uploads:upload"))
    assert page.status_code == 200
    assert [value for value, _label in page.context["form"].fields["category"].choices] == ["TP"]
    response = client.post(
        reverse("uploads:upload"),
        {"organiser": f"club:{table_world.club.pk}", "category": "TP", "file": table_file()},
    )
    assert response.status_code == 302, text(response)[:3000]
    preview = client.get(response.url)
    assert preview.status_code == 200
    upload = ResultUpload.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302, [str(message) for message in done.wsgi_request._messages]
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.CONFIRMED
    return text(preview)


def test_the_table_gives_10_6_3_per_player_and_tied_places_share_rounded_up_rule_1():
    """Rule 1 on its own: 1st 10, 2nd 6, 3rd 3, 4th 0; a tie on 2–3 shares 6 + 3 = 9 as 5 each (4.5 up)."""
    assert [place_points(TABLE_RULES, place, place) for place in (1, 2, 3, 4, 5)] == [10, 6, 3, 0, 0]
    assert place_points(TABLE_RULES, 2, 3) == 5
    assert place_points(TABLE_RULES, 3, 4) == 2  # (3 + 0) / 2 = 1.5, rounded up


def test_a_club_upload_is_previewed_and_ledgered_by_the_table_rule_1(
    client, table_world, django_capture_on_commit_callbacks
):
    """Steps 1–3 for the ledger: the preview shows each pair's TP from the table, and the confirm writes 10 TP to
    each winner, 5 TP to each player tied on 2–3, and nothing to the 4th and 5th pairs."""
    preview = upload_and_confirm(client, table_world, django_capture_on_commit_callbacks)
    assert "Confirming awards 40 TP (6 awards)" in preview  # 2 × 10 + 4 × 5
    assert "Player 5001 (5001) in the file: Player 5001 10 TP" in preview
    assert "Player 5003 (5003) in the file: Player 5003 5 TP" in preview
    assert "You finished in place 2–3: 5 TP." in preview
    tournament = Tournament.objects.get()
    assert tournament.federation == table_world.federation and tournament.category == "TP"
    ledger = {}
    for number, kind, units in Award.objects.filter(tournament=tournament).values_list(
        "player__number", "kind", "units"
    ):
        ledger[number] = (kind, units)
    assert ledger == {**dict.fromkeys(WINNERS, ("TP", 10)), **dict.fromkeys(TIED, ("TP", 5))}
    assert not Award.objects.filter(player__number__in=UNPAID).exists()
    award = Award.objects.get(player__number="5001")
    assert award.amount == "10"
    assert award.explanation_data["rules"] == ["table rule 1"]
    assert award.explanation_data["inputs"] == {"place": "1", "TP": "10"}


def test_the_standings_keep_tp_in_kind1_and_give_the_winners_bronze_player_rule_2(
    client, table_world, django_capture_on_commit_callbacks
):
    """Step 3 for the standings: TP is the rule book's first kind, so its balance is ``kind1`` (no total, the
    column stays 0); 10 TP reaches Bronze player (rule 2), 5 TP no title; the list ranks by TP."""
    upload_and_confirm(client, table_world, django_capture_on_commit_callbacks)
    info = table_world.federation.scheme_info
    assert info.column("TP") == "kind1"
    rows = {row.player.number: row for row in Standing.objects.filter(federation=table_world.federation)}
    assert set(rows) == set(WINNERS) | set(TIED)
    for number in WINNERS:
        assert (rows[number].kind1, rows[number].kind2, rows[number].kind3, rows[number].total) == (10, 0, 0, 0)
        assert rows[number].points("TP") == 10
        assert (rows[number].title, rows[number].title_rung) == ("Bronze player", 1)
        assert rows[number].sort_key == 10
    for number in TIED:
        assert (rows[number].kind1, rows[number].title, rows[number].title_rung) == (5, "", 0)


def test_the_player_page_shows_the_table_points_and_the_bronze_player_title_rule_2(
    client, table_world, django_capture_on_commit_callbacks
):
    """Step 4, the player's page: 10 TP, the title Bronze player and the 20 TP Silver player still needs (30)."""
    upload_and_confirm(client, table_world, django_capture_on_commit_callbacks)
    client.logout()
    page = client.get(reverse("public:player", args=["tbl", "5001"]))
    assert page.status_code == 200
    body = text(page)
    assert "Points TP 10 Title Bronze player" in body
    assert "Next: Silver player. Still needed: 20 TP" in body
    assert "1 of 6 in Table league" in body
    assert "Spring table night" in body


def test_the_rankings_list_the_winners_first_with_their_table_points_rule_2(
    client, table_world, django_capture_on_commit_callbacks
):
    """Step 4, ``/rankings/``: the table league's list ranks by TP, the winners (10 TP, Bronze player) first."""
    upload_and_confirm(client, table_world, django_capture_on_commit_callbacks)
    client.logout()
    page = client.get("/rankings/", {"federation": table_world.federation.pk})
    assert page.status_code == 200
    body = text(page)
    assert "Ranked by table points; equal points share a place." in body
    assert "1 5001 Player 5001 Table club Bronze player 10 1 5002 Player 5002 Table club Bronze player 10" in body
    assert "3 5003 Player 5003 Table club 5" in body
    assert "Player 5007" not in body  # 4th place: nothing by the table, so not on the list


def test_the_api_gives_the_table_points_and_title_of_a_player_and_the_rankings_rule_2(
    client, table_world, django_capture_on_commit_callbacks
):
    """Step 4, the public JSON: ``/api/players/tbl/5001`` has 10 TP, Bronze player, Silver player next with 20 TP
    missing; ``/api/rankings?federation=tbl`` lists the winners first with TP as their points."""
    upload_and_confirm(client, table_world, django_capture_on_commit_callbacks)
    client.logout()
    player = client.get("/api/players/tbl/5001")
    assert player.status_code == 200, player.content.decode()[:2000]
    data = player.json()
    assert data["balances"] == {"TP": "10"}
    assert data["title"]["shown"] == "Bronze player"
    assert data["title"]["next"]["title"] == "Silver player"
    assert data["title"]["next"]["missing"] == {"TP": "20"}
    assert [(award["kind"], award["amount"]) for award in data["awards"]["results"]] == [("TP", "10")]
    rankings = client.get("/api/rankings", {"federation": "tbl"})
    assert rankings.status_code == 200, rankings.content.decode()[:2000]
    results = rankings.json()["results"]
    assert [(row["number"], row["points"], row["title"]) for row in results[:2]] == [
        (number, {"TP": "10"}, "Bronze player") for number in sorted(WINNERS)
    ]
    assert {row["number"]: row["points"] for row in results[2:]} == {number: {"TP": "5"} for number in TIED}


def test_the_rule_books_calculator_computes_the_table_and_the_titles_rule_1_and_2():
    """The computation behind the calculators, on its own: five entries are paid 10, 6, 3 (rule 1); 0 TP has no
    title and Bronze player needs 10; 30 TP is Silver player, Gold needs 70 more; 100 TP is the top (rule 2)."""
    assert answer({"scheme": "tbl", "kind": "scale", "participants": 5}) == {
        "places_paid": 3,
        "awards": ["10", "6", "3"],
    }
    assert answer({"scheme": "tbl", "kind": "scale", "participants": 2}) == {"places_paid": 2, "awards": ["10", "6"]}
    assert answer({"scheme": "tbl", "kind": "title", "tp": 0}) == {
        "title": None,
        "next": {"title": "Bronze player", "missing": 10},
    }
    assert answer({"scheme": "tbl", "kind": "title", "tp": 30}) == {
        "title": "Silver player",
        "next": {"title": "Gold player", "missing": 70},
    }
    assert answer({"scheme": "tbl", "kind": "title", "tp": 100}) == {"title": "Gold player", "next": None}


def test_the_public_calculator_answers_the_table_10_6_3_rule_1(client, table_world):
    """Step 4, the calculator: the table's tab of ``/calculator/`` gives a field of five pairs 10, 6 and 3 TP for
    places 1–3 (three places paid)."""
    page = client.get("/calculator/", {"calc": "tbl", "tbl-participants": "5"})
    assert page.status_code == 200
    assert page.context["chosen"] == "tbl"
    assert page.context["answer"] == {"places_paid": 3, "awards": ["10", "6", "3"]}, page.context["form"].errors
    assert "Places paid 3" in text(page)


def test_the_public_calculator_answers_the_title_of_a_balance_rule_2(client, table_world):
    """Step 4, the calculator's title tab: 10 TP is Bronze player, and Silver player still needs 20 TP."""
    page = client.get("/calculator/", {"calc": "tbltitle", "tbltitle-tp": "10"})
    assert page.status_code == 200
    assert page.context["chosen"] == "tbltitle"
    expected = {"title": "Bronze player", "next": {"title": "Silver player", "missing": 20}}
    assert page.context["answer"] == expected, page.context["form"].errors
    assert "Title Bronze player Next title Silver player Still missing 20 TP" in text(page)


@pytest.mark.parametrize("kind", ["scale", "title"])
def test_the_json_calculator_answers_the_table_rule_books_requests(client, table_world, kind):
    """Step 4, ``POST /api/calculator``: the table rule book's requests are answered as the page's."""
    request = {"scheme": "tbl", "kind": kind, **({"participants": 5} if kind == "scale" else {"tp": 10})}
    response = client.post("/api/calculator", request, content_type="application/json")
    assert response.status_code == 200, response.content.decode()[:2000]
    expected = (
        {"places_paid": 3, "awards": ["10", "6", "3"]}
        if kind == "scale"
        else {"title": "Bronze player", "next": {"title": "Silver player", "missing": 20}}
    )
    assert response.json() == expected

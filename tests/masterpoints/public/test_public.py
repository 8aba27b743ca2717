"""The public pages and the JSON API: rankings with filters and exports, player pages with the
explanation of every award, privacy, club pages, languages."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import Club
from federation.models import AuditEvent, Player
from federation.schemes import scheme_of
from masterpoints.models import Award
from masterpoints.public import selectors
from masterpoints.standings.services import standings_refresh_players
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_player, pairs_from_numbers, post_award, usebio_pairs

DAY = datetime.date(2025, 3, 4)
NUMBERS = [str(40001 + i) for i in range(24)]


def add_player(world, number, *, fed=None, club=None, last="Hansen", **fields):
    return make_player(fed or world.dbf, number, first="Mette", last=last, club=club, **fields)


def post(p, kind, units, day=DAY, source=Award.Source.MANUAL, reason="entered by the office"):
    post_award(p, kind, units, day=day, source=source, reason=reason)
    standings_refresh_players(federation=p.federation, player_ids=[p.pk])


@pytest.fixture
def league(world):
    """Three DBf players in clubs A and B, one of whom hides their name; two HBS players."""
    gold = add_player(world, "501", club=world.club_a, last="Guld")
    silver = add_player(world, "502", club=world.club_b, last="Sølv")
    hidden = add_player(world, "503", club=world.club_a, last="Skjult", hide_name=True)
    post(gold, "GP", 2000)  # 20 MP
    post(silver, "SP", 1000)  # 10 MP
    post(hidden, "BP", 500)  # 5 MP
    paid = add_player(world, "7001", fed=world.hbs, last="Horvat", dues_paid_until=datetime.date(2099, 1, 1))
    unpaid = add_player(world, "7002", fed=world.hbs, last="Babić", dues_paid_until=datetime.date(2000, 1, 1))
    post(paid, "black", 60)
    post(unpaid, "black", 300)
    return world


def rankings(client, **query):
    return client.get(reverse("public:rankings"), query)


def rows(response) -> list[str]:
    body = response.content.decode()
    tbody = body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [row for row in tbody.split("<tr>")[1:] if "colspan" not in row]


# --- the rankings ---------------------------------------------------------------------------------------


def test_the_rankings_need_no_login_and_rank_by_total_mp(client, league):
    response = rankings(client, federation=league.dbf.pk)
    assert response.status_code == 200
    found = rows(response)
    assert len(found) == 3
    assert "Guld" in found[0] and ">1<" in found[0]
    assert "Sølv" in found[1] and "20.00" in found[0] and "10.00" in found[1]


def test_a_hidden_name_shows_as_the_number_and_is_not_found_by_name(client, league):
    body = rankings(client, federation=league.dbf.pk).content.decode()
    assert "Skjult" not in body
    assert ">503<" in body
    assert len(rows(rankings(client, federation=league.dbf.pk, q="Skjult"))) == 0
    assert len(rows(rankings(client, federation=league.dbf.pk, q="503"))) == 1


def test_names_clubs_and_numbers_in_the_rankings_are_escaped(client, world):
    """What players and clubs are called is shown as text, never as markup (the rows are built in Python)."""
    Club.objects.filter(pk=world.club_a.pk).update(name="<b>Klub</b> & Co")
    p = add_player(world, "9<1>", club=world.club_a, last="<script>alert(1)</script>")
    post(p, "BP", 100)
    body = rankings(client, federation=world.dbf.pk).content.decode()
    (row,) = rows(rankings(client, federation=world.dbf.pk))
    assert "<script>" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in row
    assert "&lt;b&gt;Klub&lt;/b&gt; &amp; Co" in row
    assert ">9&lt;1&gt;<" in row and 'href="/players/dbf/9%3C1%3E/"' in row


def test_the_secretariat_sees_every_name(client, league, personas):
    client.force_login(personas.secretariat)
    body = rankings(client, federation=league.dbf.pk).content.decode()
    assert "Skjult" in body
    assert len(rows(rankings(client, federation=league.dbf.pk, q="Skjult"))) == 1


def test_filter_by_club_region_title_kind_and_season(client, league):
    club_a = rows(rankings(client, federation=league.dbf.pk, club=league.club_a.pk))
    assert len(club_a) == 2 and all("Sølv" not in row for row in club_a)
    district = rows(rankings(client, federation=league.dbf.pk, region=league.district.pk))
    assert len(district) == 2  # club A lies in the district (and its circle)
    circle = rows(rankings(client, federation=league.dbf.pk, region=league.circle.pk))
    assert len(circle) == 2
    other = rows(rankings(client, federation=league.dbf.pk, region=league.other_district.pk))
    assert len(other) == 1 and "Sølv" in other[0]
    by_sp = rows(rankings(client, federation=league.dbf.pk, kind="SP"))
    assert "Sølv" in by_sp[0]
    one_star = rows(rankings(client, federation=league.dbf.pk, rung=2))
    assert len(one_star) == 1 and "503" in one_star[0]  # Klubmester ★: 5 MP in BP alone (§ 404, D-Q11)
    season = scheme_of("dbf").season_of(DAY)
    assert len(rows(rankings(client, federation=league.dbf.pk, season=season))) == 3
    assert len(rows(rankings(client, federation=league.dbf.pk, season=season - 3))) == 0


def test_hbs_shows_the_official_list_by_default_rule_3(client, league):
    official = rows(rankings(client, federation=league.hbs.pk))
    assert len(official) == 1 and "Horvat" in official[0]
    everyone = rows(rankings(client, federation=league.hbs.pk, official="no"))
    assert len(everyone) == 2 and "Babić" in everyone[0]  # tref (300 black) before vankategornik


def test_sorting_by_name_keeps_the_places_of_the_points_order(client, league):
    found = rows(rankings(client, federation=league.dbf.pk, sort="name"))
    assert ["Guld" in found[0], "Sølv" in found[2]] == [True, True]
    assert ">1<" in found[0] and ">2<" in found[2]


def test_the_list_exports_as_csv_and_xlsx_as_filtered(client, league):
    response = rankings(client, federation=league.dbf.pk, club=league.club_a.pk, export="csv")
    assert response["Content-Type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    assert table[0][:3] == ["Place", "No.", "Player"]
    assert [row[2] for row in table[1:]] == ["Mette Guld", "503"]
    response = rankings(client, federation=league.dbf.pk, export="xlsx")
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    assert [cell.value for cell in next(sheet.iter_rows())][:3] == ["Place", "No.", "Player"]
    assert sheet.max_row == 4


def test_a_cached_list_shows_a_standings_change_at_once(client, league):
    assert len(rows(rankings(client, federation=league.dbf.pk))) == 3
    newcomer = add_player(league, "504", club=league.club_b, last="Ny")
    post(newcomer, "BP", 3000)
    found = rows(rankings(client, federation=league.dbf.pk))
    assert len(found) == 4 and "Ny" in found[0]


def test_the_rankings_speak_danish_and_croatian(client, league):
    for language in ("da", "hr"):
        client.cookies["django_language"] = language
        body = rankings(client, federation=league.dbf.pk).content.decode()
        assert f'<html lang="{language}">' in body


def test_points_are_written_as_the_readers_language_writes_them(client, league):
    """Danish and Croatian write a decimal comma (20,00 MP, 100,0 SP) on the pages, and in the CSV export with
    ``;`` between fields, as Excel in those languages opens it (issue 38; programs read the API)."""
    for language in ("da", "hr"):
        client.cookies["django_language"] = language
        found = rows(rankings(client, federation=league.dbf.pk))
        assert ">20,00<" in found[0] and ">100,0<" in found[1] and "20.00" not in found[0]
        page = client.get(reverse("public:player", args=["dbf", "502"])).content.decode()
        assert "<dd>100,0</dd>" in page and "100.0" not in page
        export = rankings(client, federation=league.dbf.pk, export="csv").getvalue().decode("utf-8-sig")
        assert "20.00" not in export and ";20,00;" in export and export.startswith(("Placering;", "Mjesto;"))
    client.cookies["django_language"] = "en"
    assert ">20.00<" in rows(rankings(client, federation=league.dbf.pk))[0]


def test_hbs_point_kinds_are_named_in_the_readers_language(client, league):
    """Black, red and master points are crni, crveni and majstorski poeni on a Croatian page; BP, SP and GP
    keep their letters in every language (§ 402)."""
    url = reverse("public:player", args=["hbs", "7001"])
    client.cookies["django_language"] = "hr"
    body = client.get(url).content.decode()
    assert "<dt>crni</dt><dd>60</dd>" in body and "60 crni" in body and ">black<" not in body
    client.cookies["django_language"] = "en"
    assert "<dt>black</dt><dd>60</dd>" in client.get(url).content.decode()
    client.cookies["django_language"] = "da"
    silver = client.get(reverse("public:player", args=["dbf", "502"])).content.decode()
    assert "<dt>SP</dt><dd>100,0</dd>" in silver


# --- a player's page -------------------------------------------------------------------------------------


def test_a_player_page_lists_each_season_newest_first_in_the_kinds_decimals_451c(client, world):
    """§ 451C: DBf's season starts on 16 May, so 4 March 2025 is in 2024/25; the table shows the MP total
    first (§ 402), then BP, SP and GP in their decimals and the reader's writing, the current season marked;
    HBS' seasons are calendar years, without an MP total."""
    today = selectors.today()
    p = add_player(world, "611", club=world.club_a)
    post(p, "BP", 150)  # 1.5 MP in 2024/25
    post(p, "SP", 25, day=today)  # 0.25 MP, this season
    current = world.dbf.scheme_info.season_of(today)
    client.cookies["django_language"] = "da"
    body = client.get(reverse("public:player", args=["dbf", "611"])).content.decode()
    table = body.split('<table class="table seasons">', 1)[1].split("</table>", 1)[0]
    head = table.split("<tbody>")[0]
    assert [cell.split("<")[0] for cell in head.split('class="num">')[1:]] == ["MP", "BP", "SP", "GP"]
    assert table.split("<tbody>")[1].split("</tr>")[:2] == [
        f'<tr class="current"><th scope="row">{current}/{(current + 1) % 100:02d}</th><td class="num">0,25</td>'
        '<td class="num">0</td><td class="num">2,5</td><td class="num">0,00</td>',
        '<tr><th scope="row">2024/25</th><td class="num">1,50</td><td class="num">150</td>'
        '<td class="num">0,0</td><td class="num">0,00</td>',
    ]
    hbs = add_player(world, "7611", fed=world.hbs)
    post(hbs, "red", 4, day=today)
    client.cookies["django_language"] = "hr"
    body = client.get(reverse("public:player", args=["hbs", "7611"])).content.decode()
    assert f'<tr class="current"><th scope="row">{today.year}</th><td class="num">0</td><td class="num">4</td>' in body
    assert '<th scope="col" class="num">crni</th><th scope="col" class="num">crveni</th>' in body


@pytest.fixture
def uploaded(world):
    for number in NUMBERS:
        add_player(world, number, club=world.club_a, last=f"Spiller{number}")
    data = usebio_pairs(
        club_number=world.club_a.number, date=DAY, name="Tirsdag", sections=[pairs_from_numbers(NUMBERS)], boards=24
    )
    upload = results_upload_create(
        actor=None,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="r.xml",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None},
        trusted=True,
    )
    tournament = results_upload_confirm(actor=None, upload=upload, acknowledge_warnings=True, trusted=True)
    standings_refresh_players(federation=world.dbf, player_ids=Player.objects.values_list("pk", flat=True))
    return tournament


def test_a_player_page_explains_each_award_and_marks_corrections(client, world, uploaded):
    winner = Player.objects.get(number=NUMBERS[0])
    post(winner, "BP", -4, DAY + datetime.timedelta(days=2), source=Award.Source.CORRECTION, reason="wrong board")
    body = client.get(reverse("public:player", args=["dbf", winner.number])).content.decode()
    assert "Mette Spiller40001" in body
    assert "§ 406B1" in body  # the explanation of the tournament award (D-P1)
    assert "Tirsdag" in body and "place 1" in body
    assert "correction" in body and "wrong board" in body
    assert '<svg class="chart"' in body
    assert ">20<" in body  # 24 − 4 BP
    assert "Klubmester" in body  # 20 BP = 0.2 MP: no title yet; the next one is shown
    assert "2 of 8" in body  # behind the partner, who kept 24 BP; eight players were paid


def test_an_awards_explanation_says_what_each_symbol_stands_for_in_the_readers_language(client, uploaded):
    """The player's page and the tournament's page explain an award under the rule book's symbols (§ 406),
    each with its meaning, and the engine's fixed words and numbers as the reader writes them."""
    winner = Player.objects.get(number=NUMBERS[0])
    pages = (reverse("public:player", args=["dbf", winner.number]), uploaded.get_absolute_url())
    for url in pages:
        body = client.get(url).content.decode()
        assert "<code>M</code> = 2 <small>– mass factor (§ 406)</small>" in body
        assert "<code>eligibility</code> = played this session (§ 405B6b)" in body
        assert "<code>Q</code> = 0.6" in body
    client.cookies["django_language"] = "da"
    for url in pages:
        body = client.get(url).content.decode()
        assert "<p>Regler: § 406B1" in body
        assert "<code>M</code> = 2 <small>– mængdefaktor (§ 406)</small>" in body
        assert "<code>eligibility</code> = spillede i denne omgang (§ 405B6b)" in body
        assert "<code>Q</code> = 0,6" in body and "<code>form</code> = par" in body


def test_a_ledger_row_is_written_in_each_readers_language(client, uploaded):
    """The ledger's date, place and amount in the language of each page, one page after another in the same
    process (the words a page repeats are looked up once a page, not kept beyond it): English, Danish,
    English again; the amount in its kind's decimals (§ 402)."""
    winner = Player.objects.get(number=NUMBERS[0])
    post(winner, "SP", 25, DAY + datetime.timedelta(days=2), source=Award.Source.CORRECTION, reason="late result")
    url = reverse("public:player", args=["dbf", winner.number])

    def ledger_rows(language: str) -> list[str]:
        client.cookies["django_language"] = language
        body = client.get(url).content.decode()
        table = body.split('<table class="table awards">', 1)[1].split("</table>", 1)[0]
        return re.findall(r"<tr class=\"source-[a-z_]+\">(.*?)</tr>", table, re.S)

    for language, day, place, amount in (
        ("en", "2025-03-06", "place 1", "2.5 SP"),
        ("da", "06.03.2025", "placering 1", "2,5 SP"),
        ("en", "2025-03-06", "place 1", "2.5 SP"),
    ):
        newest, tournament = ledger_rows(language)
        assert newest.startswith(f"<td>{day}</td>") and f'<td class="num">{amount}</td>' in newest, language
        assert f"· {place}</td>" in tournament and ">24 BP</td>" in tournament, language


def test_the_same_symbol_means_what_its_own_rule_book_says():
    """B is DBf's bonus factor (§ 412B) but HBS's points for first place; an unknown symbol is shown as
    stored, without a meaning."""
    from django.utils import translation

    from masterpoints.explanations import explained

    with translation.override("en"):
        dbf = explained({"rules": ["§ 412B"], "inputs": {"B": "10", "zeta": "3"}}, "BP")
        hbs = explained({"rules": ["HBS formula"], "inputs": {"B": "21.5"}}, "black")
    assert [(i.name, i.value, i.meaning) for i in dbf.inputs] == [
        ("B", "10", "bonus factor (§ 412B)"),
        ("zeta", "3", ""),
    ]
    assert hbs.inputs[0].meaning == "points for first place, per player (HBS formula)"


def test_a_player_page_shows_what_the_next_title_needs_404(client, world):
    p = add_player(world, "601", club=world.club_a)
    post(p, "BP", 150)  # 1.5 MP: 0.5 MP short of Klubmester (2 MP)
    body = client.get(reverse("public:player", args=["dbf", "601"])).content.decode()
    assert "Next: <strong>Klubmester</strong>" in body
    assert "50 BP" in body and "5.0 SP" in body and "0.50 GP" in body


def test_a_number_alone_redirects_when_it_is_unique_and_lists_the_federations_otherwise(client, world):
    add_player(world, "777")
    response = client.get(reverse("public:player_lookup", args=["777"]))
    assert response.status_code == 302 and response["Location"] == reverse("public:player", args=["dbf", "777"])
    add_player(world, "777", fed=world.hbs)
    response = client.get(reverse("public:player_lookup", args=["777"]))
    assert response.status_code == 200
    assert reverse("public:player", args=["hbs", "777"]) in response.content.decode()
    assert client.get(reverse("public:player_lookup", args=["999999"])).status_code == 404


def test_a_player_hides_their_name_from_their_own_page(client, world, personas):
    world.player.user = personas.player
    world.player.save()
    post(world.player, "BP", 100)
    url = reverse("public:player_privacy", args=["dbf", world.player.number])
    assert client.post(url, {"hide_name": "on"}).status_code == 302  # to the login page
    client.force_login(personas.director_a)
    assert client.post(url, {"hide_name": "on"}).status_code == 403
    assert world.player.last_name in rankings(client, federation=world.dbf.pk).content.decode()  # now cached
    client.force_login(personas.player)
    page = client.get(reverse("public:player", args=["dbf", world.player.number])).content.decode()
    assert "Hide my name on public lists" in page
    client.post(url, {"hide_name": "on"})
    world.player.refresh_from_db()
    assert world.player.hide_name
    assert AuditEvent.objects.filter(action="player.hide_name").exists()
    client.logout()
    public = client.get(reverse("public:player", args=["dbf", world.player.number])).content.decode()
    assert world.player.last_name not in public
    assert world.player.last_name not in rankings(client, federation=world.dbf.pk).content.decode()


# --- clubs ------------------------------------------------------------------------------------------------------


def test_a_club_page_shows_members_standings_top_scorers_and_tournaments(client, world, uploaded):
    body = client.get(reverse("clubs:detail", args=[world.club_a.pk])).content.decode()
    assert "Standings of the members" in body
    assert "Top scorers of the season" in body
    assert "Tirsdag" in body
    assert "Mette Spiller40001" in body


# --- the JSON API -------------------------------------------------------------------------------------------------


def test_the_api_gives_the_rankings_with_the_same_filters_paginated(client, league):
    """The federation by its code and the club by its number (``?federation=dbf&club=1002``), never an id."""
    response = client.get(reverse("api:rankings"), {"federation": "dbf", "page_size": 2})
    assert response.request["PATH_INFO"] == "/api/rankings"
    data = response.json()
    assert [row["place"] for row in data["results"]] == [1, 2]
    assert data["results"][0]["points"] == {"MP": "20.00", "BP": "0", "SP": "0.0", "GP": "20.00"}
    assert data["results"][0]["url"].endswith("/api/players/dbf/501")
    assert data["next"] and data["previous"] is None
    second = client.get(data["next"]).json()
    assert [row["number"] for row in second["results"]] == ["503"]
    assert second["results"][0]["name"] is None  # hidden
    club = client.get(reverse("api:rankings"), {"federation": "dbf", "club": league.club_b.number})
    assert [row["number"] for row in club.json()["results"]] == ["502"]
    hbs = client.get(reverse("api:rankings"), {"federation": "hbs", "official": "no"}).json()
    assert hbs["federation"] == "hbs" and {row["number"] for row in hbs["results"]} == {"7001", "7002"}


def test_the_api_refuses_a_federation_by_id_or_unknown_code_with_a_json_400(client, league):
    response = client.get(reverse("api:rankings"), {"federation": str(league.dbf.pk)})
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "UNKNOWN_FEDERATION",
        "message": f"There is no federation {league.dbf.pk}.",
        "field": "federation",
        "params": {},
    }


def test_the_api_gives_a_player_and_resolves_a_bare_number(client, league):
    data = client.get(reverse("api:player", args=["dbf", "501"])).json()
    assert data["balances"]["MP"] == "20.00"
    assert data["ranks"]["federation"] == 1
    assert data["awards"]["results"][0]["amount"] == "20.00"
    lookup = client.get(reverse("api:player_lookup", args=["501"]))
    assert lookup.status_code == 302 and lookup.url == reverse("api:player", args=["dbf", "501"])
    missing = client.get(reverse("api:player_lookup", args=["404404"]))
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    assert client.get("/api/players/xyz/501").json()["error"]["code"] == "NOT_FOUND"


def test_clubs_of_another_federation_are_not_offered(client, league):
    Club.objects.create(federation=league.hbs, number="999", name="BK Drugi")
    body = rankings(client, federation=league.dbf.pk).content.decode()
    assert "BK Drugi" not in body


def test_a_player_without_points_has_a_page_too(client, world):
    body = client.get(reverse("public:player", args=["dbf", world.player.number])).content.decode()
    assert "No points yet." in body
    assert 'id="seasons-heading"' not in body
    assert "Next: <strong>Klubmester</strong>" in body


def test_odd_digits_in_the_query_are_ignored_not_a_crash(client, league):
    """Python's isdigit() takes "²" for a digit, but int() refuses it: the filters, the page numbers and the
    API ignore what they cannot read as a number; the API names a club by its number and refuses one its
    federation does not have."""
    for value in ("²", "٣x", "-1"):
        query = {"federation": value, "club": value, "region": value, "page": value}
        assert rankings(client, **query).status_code == 200, value
        api_query = {"federation": "dbf", "page": value, "page_size": value}
        assert client.get(reverse("api:rankings"), api_query).status_code == 200
        assert client.get(reverse("api:rankings"), {**api_query, "club": value}).json()["error"]["field"] == "club"
        assert client.get(reverse("cups:list"), {"season": value, "federation": value}).status_code == 200


def test_a_points_header_ranks_the_list_by_its_kind_and_the_caption_says_so_issue_38(client, league):
    """One mechanism for order and rank: the BP header chooses ``kind=BP`` (places counted again), the caption
    names what ranks; sorting by name keeps the places and says they are the ranking's."""
    body = rankings(client, federation=league.dbf.pk).content.decode()
    assert "<caption>Places: ranked by total MP.</caption>" in body
    head = body.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert "kind=BP" in head and "sort=bp" not in head and "sort=-bp" not in head
    found = rows(rankings(client, federation=league.dbf.pk, kind="BP"))
    assert "503" in found[0] and ">1<" in found[0]  # 500 BP: first by bronze points
    body = rankings(client, federation=league.dbf.pk, kind="BP").content.decode()
    assert "<caption>Places: ranked by bronze points.</caption>" in body
    by_name = rankings(client, federation=league.dbf.pk, sort="name").content.decode()
    assert "Listed by Player; the places stay those of the ranking." in by_name
    assert rankings(client, federation=league.dbf.pk, sort="bp").content.decode().count("aria-sort") == 1

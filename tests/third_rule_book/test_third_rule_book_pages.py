"""The rest of the site under the third rule book, "table points", as a new federation using it meets it: the
club's and the tournament's public pages, the rankings by season and by TP with their CSV, the member file, the
monthly title mail and statement, a correction request and its decision, and the admin's standings and
player record.

The table night (:func:`tests.third_rule_book.conftest.table_night_confirmed`, as in
``test_third_rule_book``): five pairs placed 1, 2=, 2=, 4, 5 on 4 March 2025. By the table (rule 1) the winners
5001 and 5002 get 10 TP each, which is Bronze player (rule 2); the players tied on 2–3 (5003–5006) 5 TP each
((6 + 3) / 2 rounded up), no title; the 4th and 5th pairs (5007–5010) nothing. A season is a calendar year
(rule 3).
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from masterpoints.models import Award, CorrectionRequest, Standing, TitleAchievement
from masterpoints.notices.jobs import monthly_statement_jobs
from tests.third_rule_book.conftest import table_night_confirmed
from tests.third_rule_book.test_third_rule_book import DAY, text

NIGHT = "Spring table night"
#: The standings' rows of the night, as the lists show them: place, number, name, title, TP.
NIGHT_ROWS = [
    ("1", "5001", "Player 5001", "Bronze player", "10"),
    ("1", "5002", "Player 5002", "Bronze player", "10"),
    ("3", "5003", "Player 5003", "", "5"),
    ("3", "5004", "Player 5004", "", "5"),
    ("3", "5005", "Player 5005", "", "5"),
    ("3", "5006", "Player 5006", "", "5"),
]


@pytest.fixture
def night(client, table_world, django_capture_on_commit_callbacks):
    """The table night of 4 March 2025, confirmed by the club's director; the client logged out again."""
    tournament = table_night_confirmed(
        client, table_world, django_capture_on_commit_callbacks, day=DAY, name="Spring table night"
    )
    client.logout()
    return tournament


def csv_rows(response) -> list[list[str]]:
    """A CSV download's rows (streamed or not), its byte order mark left out."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def xlsx_rows(response) -> list[list]:
    """An XLSX download's rows of its first sheet."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    sheet = load_workbook(io.BytesIO(content), read_only=True).worksheets[0]
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def this_month() -> datetime.date:
    return timezone.localdate().replace(day=1)


def next_month(month: datetime.date) -> datetime.date:
    return (month + datetime.timedelta(days=32)).replace(day=1)


# --- 1. the club's and the tournament's public pages ---------------------------------------------------------


def test_the_clubs_page_lists_its_members_by_tp_the_winners_bronze_player_rule_2(client, table_world, night):
    """``/clubs/<id>/``: the members' standings ranked by TP in the club, the winners first with 10 TP and
    Bronze player, the players tied on 2–3 with 5 TP; the 4th and 5th pairs, without points, are not in them;
    the club's tournaments list the night with its kind."""
    page = client.get(reverse("clubs:detail", args=[table_world.club.pk]))
    assert page.status_code == 200
    body = text(page)
    members, _sep, standings = body.partition("Standings of the members")
    assert "5007 Player 5007" in members  # a member of the club …
    assert (
        "Place No. Player Title or category TP "
        + (
            "1 5001 Player 5001 Bronze player 10 1 5002 Player 5002 Bronze player 10 "
            "3 5003 Player 5003 5 3 5004 Player 5004 5 3 5005 Player 5005 5 3 5006 Player 5006 5"
        )
        in standings
    )
    assert "Player 5007" not in standings  # … without points: not in the standings
    assert "Tournaments Spring table night 2025-03-04 · table points" in standings


def test_the_tournaments_page_shows_each_entrys_table_points_and_the_rule_rule_1(client, night):
    """``/tournaments/<id>/``: table points as the night's points, 10 TP to each winner and 5 TP to each player
    tied on 2–3, each citing table rule 1 with its place; nothing for the 4th and 5th pairs."""
    page = client.get(reverse("public:tournament", args=[night.pk]))
    assert page.status_code == 200
    body = text(page)
    assert "Spring table night Date 2025-03-04 Organiser Table club (501) Form pairs Points table points" in body
    assert "5 entries · 24 boards · table points" in body
    assert "1 1 Player 5001 10 TP details Rules: table rule 1 place = 1 – place TP = 10" in body
    assert "2–3 2 Player 5003 5 TP details Rules: table rule 1 place = 2–3 – place TP = 5" in body
    fourth = body[body.index("Player 5007") : body.index("Player 5009")]
    assert "TP" not in fourth  # 4th place: nothing by the table
    points = {
        participation.player.number: [(award.kind, award.units) for award in participation.award_list]
        for group in page.context["tournament"].groups.all()
        for entry in group.entries.all()
        for participation in entry.participations.all()
    }
    assert points == {
        **{number: [("TP", 10)] for number in ("5001", "5002")},
        **{number: [("TP", 5)] for number in ("5003", "5004", "5005", "5006")},
        **{number: [] for number in ("5007", "5008", "5009", "5010")},
    }


def test_a_night_of_this_year_puts_the_winners_on_top_of_the_clubs_season_and_the_seasons_list_rule_3(
    client, table_world, django_capture_on_commit_callbacks
):
    """Rule 3, a season is the calendar year: a night played today counts in this year's season, so the club's
    page lists its top scorers of the season and the rankings of this year's season rank them by TP."""
    today = timezone.localdate()
    table_night_confirmed(client, table_world, django_capture_on_commit_callbacks, day=today, name="Table night")
    client.logout()
    club = text(client.get(reverse("clubs:detail", args=[table_world.club.pk])))
    top = club[club.index("Top scorers of the season") :]
    assert top.startswith(f"Top scorers of the season {today.year} Places: ranked by table points.")
    assert "1 5001 Player 5001 10 1 5002 Player 5002 10 3 5003 Player 5003 5" in top
    params = {"federation": table_world.federation.pk, "season": str(today.year), "kind": "TP"}
    rankings = text(client.get(reverse("public:rankings"), params))
    assert f"Table league · season {today.year}" in rankings
    assert "1 5001 Player 5001 Table club Bronze player 10 1 5002 Player 5002 Table club Bronze player 10" in rankings


# --- 2. the rankings by season and by TP, and their CSV -------------------------------------------------------


def test_the_rankings_of_the_nights_season_rank_by_tp_and_this_years_has_none_of_it_rule_3(client, table_world, night):
    """``/rankings/?season=2025&kind=TP``: the season of the night (a calendar year, rule 3) ranked by table
    points; a later season (this year's) has none of the night's points."""
    federation = table_world.federation.pk
    page = client.get(reverse("public:rankings"), {"federation": federation, "season": "2025", "kind": "TP"})
    assert page.status_code == 200
    body = text(page)
    assert "Rankings Table league · season 2025" in body
    assert "Filters: Federation: Table league · Ranked by: table points · Season: 2025" in body
    assert (
        "Places: ranked by table points. Place No. Player Club Title or category TP "
        + (
            "1 5001 Player 5001 Table club Bronze player 10 1 5002 Player 5002 Table club Bronze player 10 "
            "3 5003 Player 5003 Table club 5 3 5004 Player 5004 Table club 5 "
            "3 5005 Player 5005 Table club 5 3 5006 Player 5006 Table club 5 Download"
        )
        in body
    )
    this_year = timezone.localdate().year
    assert this_year > 2025
    later = text(client.get(reverse("public:rankings"), {"federation": federation, "season": this_year, "kind": "TP"}))
    assert f"Table league · season {this_year}" in later
    assert "No player matches these filters." in later and "Player 5001" not in later


def test_the_rankings_csv_of_the_season_has_a_tp_column_with_the_table_points(client, table_world, night):
    """``?export=csv`` of the list ranked by TP in season 2025: the page's columns, TP last, every row."""
    params = {"federation": table_world.federation.pk, "season": "2025", "kind": "TP", "export": "csv"}
    response = client.get(reverse("public:rankings"), params)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="rankings-tbl-2025.csv"'
    assert csv_rows(response) == [
        ["Place", "No.", "Player", "Club", "Title or category", "TP"],
        *[[place, number, name, "Table club", title, tp] for place, number, name, title, tp in NIGHT_ROWS],
    ]


def test_the_rankings_xlsx_of_the_career_list_by_tp_has_the_table_points(client, table_world, night):
    """``?export=xlsx`` of the career list ranked by TP: the same columns, TP as the last."""
    params = {"federation": table_world.federation.pk, "kind": "TP", "export": "xlsx"}
    response = client.get(reverse("public:rankings"), params)
    assert response.status_code == 200
    rows = xlsx_rows(response)
    assert rows[0] == ["Place", "No.", "Player", "Club", "Title or category", "TP"]
    assert [[str(cell) if cell is not None else "" for cell in row] for row in rows[1:3]] == [
        ["1", "5001", "Player 5001", "Table club", "Bronze player", "10"],
        ["1", "5002", "Player 5002", "Table club", "Bronze player", "10"],
    ]
    assert len(rows) == 1 + len(NIGHT_ROWS)


# --- 3. the member file ---------------------------------------------------------------------------------------


def test_the_directors_member_file_names_the_tp_column_and_carries_the_table_points(client, table_world, night):
    """The club's member file for its director: the header's points column is ``tp`` (the kind's name), each
    member with their title and TP; members without points have 0."""
    client.force_login(table_world.director)
    response = client.get(reverse("member_file:club", args=[table_world.club.pk, "csv"]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="members-tbl-501.csv"'
    rows = csv_rows(response)
    assert rows[0] == ["number", "first_name", "last_name", "club_number", "club", "title", "tp"]
    assert rows[1:] == [
        ["5001", "Player", "5001", "501", "Table club", "Bronze player", "10"],
        ["5002", "Player", "5002", "501", "Table club", "Bronze player", "10"],
        *[[number, "Player", number, "501", "Table club", "", "5"] for number in ("5003", "5004", "5005", "5006")],
        *[[number, "Player", number, "501", "Table club", "", "0"] for number in ("5007", "5008", "5009", "5010")],
    ]


def test_the_secretariats_member_file_of_the_federation_names_the_tp_column(client, table_world, table_office, night):
    """The whole federation's member file, as XLSX, for the secretariat: the same header with ``tp``."""
    client.force_login(table_office.secretariat)
    response = client.get(reverse("member_file:federation", args=["tbl", "xlsx"]))
    assert response.status_code == 200
    rows = xlsx_rows(response)
    assert rows[0] == ["number", "first_name", "last_name", "club_number", "club", "title", "tp"]
    assert [str(cell) for cell in rows[1]] == ["5001", "Player", "5001", "501", "Table club", "Bronze player", "10"]
    assert len(rows) == 11


# --- 4. the monthly title mail and the player's statement -----------------------------------------------------


def test_the_title_mail_announces_the_winners_bronze_player_to_the_club_rule_2(
    client, table_world, table_office, night, mailoutbox, django_capture_on_commit_callbacks
):
    """The secretariat's "send the title e-mails now" (admin): the check lists the club with its two new
    titles, the confirmation mails the club the winners' Bronze player, and the titles are then announced."""
    club = table_world.club
    club.email = "club@example.com"
    club.save()
    client.force_login(table_office.secretariat)
    url = reverse("admin:federation_jobrun_title_mail")
    month = this_month()
    form = {"federation": table_world.federation.pk, "month": f"{month:%Y-%m}"}
    check = client.post(url, {**form, "check": "1"})
    assert check.status_code == 200
    outcomes = check.context["report"].outcomes
    assert [(outcome.club, outcome.result, outcome.announced) for outcome in outcomes] == [(club, "dry_run", 2)]
    assert not mailoutbox
    with django_capture_on_commit_callbacks(execute=True):
        sent = client.post(url, {**form, "send": "1"})
    assert sent.status_code == 302
    [mail] = mailoutbox
    assert mail.to == ["club@example.com"]
    assert mail.subject == f"New titles, {month:%B %Y}: Table club"
    assert "These members of your club reached a higher title since our last mail:" in mail.body
    assert "Player 5001 (5001): Bronze player" in mail.body
    assert "Player 5002 (5002): Bronze player" in mail.body
    assert "5003" not in mail.body  # 5 TP: no title, and not within 90 % of Bronze player's 10
    announced = TitleAchievement.objects.filter(federation=table_world.federation, announced_at__isnull=False)
    assert sorted(announced.values_list("player__number", "title")) == [
        ("5001", "Bronze player"),
        ("5002", "Bronze player"),
    ]


def test_the_monthly_statement_tells_the_winner_10_tp_bronze_player_and_20_tp_to_silver_rule_2(
    client, table_world, night, mailoutbox, django_user_model, django_capture_on_commit_callbacks
):
    """A winner with a login turns the monthly statement on (My page); the statement of the month the night was
    registered in gives 10 TP, the title Bronze player and the 20 TP Silver player still needs."""
    winner = table_world.players[0]
    user = django_user_model.objects.create_user("player_5001", "p5001@example.com", "pw-table")
    winner.user = user
    winner.save(update_fields=["user"])
    client.force_login(user)
    assert client.post(reverse("notices:preference"), {"monthly_statement": "on"}).status_code == 302
    month = this_month()
    with django_capture_on_commit_callbacks(execute=True):
        figures = monthly_statement_jobs(month=month, today=next_month(month), site="https://mp.example")
    assert figures["tbl"] == {"sent": 1}
    [mail] = mailoutbox
    assert mail.to == ["p5001@example.com"]
    assert f"Registered for you in {month:%Y-%m}:\n  10 TP\n" in mail.body
    assert "Title or category: Bronze player" in mail.body
    assert "Next: Silver player. Still needed:\n  20 TP" in mail.body
    assert "https://mp.example/players/tbl/5001/" in mail.body


# --- 5. a correction of TP ------------------------------------------------------------------------------------


def test_a_directors_correction_of_tp_is_granted_by_the_commission_and_the_standings_follow_rule_1(
    client, table_world, table_office, night, mailoutbox, django_capture_on_commit_callbacks
):
    """The director asks for 5003: their pair was 2nd alone, which the table pays 6 TP, not 5. The secretariat
    reads the request in the queue (the commission decides); the commission member is shown the entry (+1 TP),
    grants it, and 5003's standing, public page, the season's list and the tournament's page show 6 TP."""
    client.force_login(table_world.director)
    form = client.get(reverse("corrections:new"))
    assert [str(choice) for _value, choice in form.context["form"].fields["tournament"].choices][1:] == [
        f"{NIGHT} (2025-03-04)"
    ]
    filed = client.post(
        reverse("corrections:new"),
        {"player_number": "5003", "tournament": night.pk, "text": "Pair 2 was 2nd alone: 6 TP by the table."},
    )
    assert filed.status_code == 302, text(filed)[:2000]
    correction = CorrectionRequest.objects.get()
    assert (correction.player.number, correction.tournament, correction.status) == ("5003", night, "open")

    decide = reverse("admin:masterpoints_correctionrequest_decide", args=[correction.pk])
    client.force_login(table_office.secretariat)
    assert "open: the commission decides" in text(client.get("/admin/masterpoints/correctionrequest/"))
    client.force_login(table_office.commission)
    page = client.get(decide)
    assert [(award.kind, award.units) for award in page.context["awards"]] == [("TP", 5)]
    grant = {"grant": "yes", "reason": "2nd alone: 6 TP (rule 1).", "kind_1": "TP", "amount_1": "1"}
    shown = client.post(decide, grant)
    assert shown.status_code == 200, text(shown)[:2000]
    assert [(row.kind, row.units, row.source) for row in shown.context["planned"]] == [("TP", 1, "correction")]
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(decide, {**grant, "plan_key": shown.context["plan_key"]})
    assert done.status_code == 302
    correction.refresh_from_db()
    assert correction.status == "granted"
    assert list(Award.objects.filter(correction=correction).values_list("kind", "units")) == [("TP", 1)]

    standing = Standing.objects.get(player__number="5003")
    assert (standing.points("TP"), standing.kind1, standing.title, standing.sort_key) == (6, 6, "", 6)
    client.logout()
    player = text(client.get(reverse("public:player", args=["tbl", "5003"])))
    assert "Points TP 6" in player
    assert "Next: Bronze player. Still needed: 4 TP" in player
    season = text(
        client.get(
            reverse("public:rankings"), {"federation": table_world.federation.pk, "season": "2025", "kind": "TP"}
        )
    )
    assert "3 5003 Player 5003 Table club 6 4 5004 Player 5004 Table club 5" in season
    career = text(client.get(reverse("public:rankings"), {"federation": table_world.federation.pk}))
    assert "3 5003 Player 5003 Table club 6 4 5004 Player 5004 Table club 5" in career
    tournament = text(client.get(reverse("public:tournament", args=[night.pk])))
    assert f"Corrections granted Player 5003: 1 TP (2025-03-04, request #{correction.pk}) – 2nd alone" in tournament
    decided = [mail for mail in mailoutbox if mail.subject == f"Correction request #{correction.pk} granted"]
    assert decided and "2025-03-04  1 TP  (correction)" in decided[0].body


# --- 6. the admin's standings and the player's record ---------------------------------------------------------


def test_the_admins_standings_list_shows_tp_and_bronze_player_to_a_superuser_rule_2(client, table_office, night):
    """``/admin/masterpoints/standing/``: each standing's title and its points as TP; filtered by rung 1, the
    two Bronze players."""
    client.force_login(table_office.superuser)
    page = client.get(reverse("admin:masterpoints_standing_changelist"))
    assert page.status_code == 200
    body = text(page)
    assert "Player 5001 (5001) Table league Bronze player 10 TP 2025-03-04 1" in body
    assert "Player 5003 (5003) Table league - 5 TP 2025-03-04 1" in body
    assert "6 standings" in body
    bronze = text(client.get(reverse("admin:masterpoints_standing_changelist"), {"title_rung": "1"}))
    assert "2 results" in bronze and "Player 5003" not in bronze
    assert "Player 5002 (5002) Table league Bronze player 10 TP" in bronze


def test_the_office_record_of_a_winner_shows_10_tp_bronze_player_and_the_ledger_row_rule_1_and_2(
    client, table_world, table_office, night
):
    """The admin's points record of 5001 for a superuser: TP 10, Bronze player, Silver player 20 TP away, and
    the ledger's row of the night, also when the ledger is filtered to TP in season 2025."""
    client.force_login(table_office.superuser)
    winner = table_world.players[0]
    url = reverse("admin:masterpoints_player_record", args=[winner.pk])
    page = client.get(url)
    assert page.status_code == 200
    body = text(page)
    assert "Points record of Player 5001 (5001)" in body
    assert "Balances and title TP 10 Title or category Bronze player (since" in body
    assert "Next Silver player: 20 TP" in body
    row = "2025-03-04 10 TP tournament result Spring table night Table club (501) table.xml"
    assert row in body
    assert "You finished in place 1: 10 TP." in body
    filtered = client.get(url, {"kind": "TP", "season": "2025"})
    assert filtered.status_code == 200
    assert filtered.context["filters"].chosen() == (2025, "TP")
    assert row in text(filtered)


def test_the_admins_page_of_one_standing_names_the_rule_books_kind_not_the_generic_column_rule_2(
    client, table_office, night
):
    """The standings admin shows one standing's balance as ``10 TP``: the kind's column (``kind1``) and the total
    the table rule book does not have stay out of the page."""
    client.force_login(table_office.superuser)
    standing = Standing.objects.get(player__number="5001")
    page = client.get(reverse("admin:masterpoints_standing_change", args=[standing.pk]))
    assert page.status_code == 200
    body = " ".join(html.unescape(re.sub(r"<[^>]*>", " ", page.content.decode())).split())
    assert "Points: 10 TP" in body
    assert "kind's points" not in body and "Total:" not in body

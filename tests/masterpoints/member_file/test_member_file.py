"""The member file for scoring programs (``masterpoints.member_file``; issue 17): number, name, club, title or
category and points; no personal data; hidden names kept hidden (as on the public lists); a club's file for
its directors, the federation's for its secretariat; every download audited; linked from My office."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.urls import reverse

from clubs.models import ClubMembership
from federation.models import AuditEvent, Player
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, post_award
from tests.office.admin_rows import hbs_secretariat

HEADER_DBF = ["number", "first_name", "last_name", "club_number", "club", "title", "mp", "bp", "sp", "gp"]


@pytest.fixture
def members(world):
    """Club A: Karen (12345, 40 BP and 5.0 SP, e-mail and birth year on record), a player who hides their name,
    a lapsed member, a member whose membership ended; club B: one member with a formula-like name."""
    karen = world.player
    Player.objects.filter(pk=karen.pk).update(email="karen@example.org", birth_year=1956)
    post_award(karen, "BP", 40)
    post_award(karen, "SP", 50)
    hidden = make_player(world.dbf, "12346", first="Hemmelig", last="Person", club=world.club_a, hide_name=True)
    make_player(world.dbf, "12347", first="Lapset", club=world.club_a, status="lapsed")
    gone = make_player(world.dbf, "12348", first="Gone")
    ClubMembership.objects.create(player=gone, club=world.club_a, until=datetime.date(2020, 1, 1))
    make_player(world.dbf, "22222", first='=HYPERLINK("http://x")', last="B", club=world.club_b)
    standings_refresh_players(federation=world.dbf, player_ids=[karen.pk, hidden.pk])
    return karen


def read_csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content if response.streaming else [response.content]).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_a_club_director_downloads_the_clubs_members_without_personal_data_or_hidden_names(
    client, world, personas, members
):
    """The club file: current members and guests of the club (not the lapsed, not a membership that ended),
    with number, name, home club, title and points; no e-mail or birth year; a hidden name is left out."""
    client.force_login(personas.director_a)
    response = client.get(reverse("member_file:club", args=[world.club_a.pk, "csv"]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="members-dbf-1001.csv"'
    rows = read_csv(response)
    assert rows[0] == HEADER_DBF
    assert rows[1:] == [
        ["12345", "Karen", "Jensen", "1001", "Bridgeklubben A", "", "0.90", "40", "5.0", "0.00"],
        ["12346", "", "", "1001", "Bridgeklubben A", "", "0.00", "0", "0.0", "0.00"],
    ]
    content = response.content.decode("utf-8-sig")
    for personal in ("karen@example.org", "1956", "Hemmelig", "Person"):
        assert personal not in content


def test_every_download_is_audited_with_who_and_which_club(client, world, personas, members):
    """Issue 17: every download is audited — who (the actor), when (the row's time), which club, the format."""
    client.force_login(personas.director_a)
    client.get(reverse("member_file:club", args=[world.club_a.pk, "xlsx"]))
    event = AuditEvent.objects.get(action="member_file.download")
    assert event.actor == personas.director_a and event.created_at is not None
    assert (event.target_type, event.target_id) == ("clubs.club", str(world.club_a.pk))
    assert event.payload == {"federation": "dbf", "club": "1001", "format": "xlsx", "rows": 2}


def test_the_secretariat_downloads_the_whole_federation_as_xlsx_with_formulas_neutralised(
    client, world, personas, members
):
    """The federation file (secretariat): every member and guest of every club, as XLSX; a name that would
    read as a formula is written as text (federation.exports)."""
    from openpyxl import load_workbook

    client.force_login(personas.secretariat)
    response = client.get(reverse("member_file:federation", args=["dbf", "xlsx"]))
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).worksheets[0]
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert rows[0] == HEADER_DBF
    assert [row[0] for row in rows[1:]] == [12345, 12346, 12348, 22222]  # 12348: a member, no club now
    formula = next(row for row in sheet.iter_rows() if row[0].value == 22222)[1]
    assert formula.value == '\'=HYPERLINK("http://x")' and formula.data_type == "s"
    event = AuditEvent.objects.get(action="member_file.download")
    assert (event.target_type, event.payload["club"], event.payload["rows"]) == ("federation.federation", None, 4)


def test_the_hbs_file_carries_the_three_kinds_apart_and_no_mp_total(client, world):
    """HBS keeps black, red and master points apart (H-2): the file's point columns are the scheme's kinds."""
    make_player(world.hbs, "501", first="Ana", last="Horvat", club=world.club_hr)
    client.force_login(hbs_secretariat(world))
    rows = read_csv(client.get(reverse("member_file:federation", args=["hbs", "csv"])))
    assert rows[0][6:] == ["black", "red", "master"]
    assert rows[1] == ["501", "Ana", "Horvat", "101", "BK Zagreb", "", "0", "0", "0"]


def test_the_file_is_refused_to_everyone_else_and_nothing_is_audited(client, world, personas, members):
    """A club director gets their own club's file only; region officers, players and another federation's
    secretariat get none; anonymous users are sent to log in."""
    club_b = reverse("member_file:club", args=[world.club_b.pk, "csv"])
    dbf = reverse("member_file:federation", args=["dbf", "csv"])
    assert client.get(club_b).status_code == 302
    refused = [
        (personas.director_a, club_b),
        (personas.director_a, dbf),
        (personas.district_officer, reverse("member_file:club", args=[world.club_a.pk, "csv"])),
        (personas.player, dbf),
        (hbs_secretariat(world), dbf),
    ]
    for user, url in refused:
        client.force_login(user)
        assert client.get(url).status_code == 403, (user, url)
    client.force_login(personas.secretariat)
    assert client.get(reverse("member_file:federation", args=["dbf", "pdf"])).status_code == 404
    assert not AuditEvent.objects.filter(action="member_file.download").exists()


def test_my_office_links_the_member_files(client, world, personas):
    """Linked from My office: a club director's club file, the secretariat's federation file."""
    client.force_login(personas.director_a)
    page = client.get(reverse("office:home")).content.decode()
    assert reverse("member_file:club", args=[world.club_a.pk, "csv"]) in page
    assert reverse("member_file:federation", args=["dbf", "csv"]) not in page
    client.force_login(personas.secretariat)
    assert (
        reverse("member_file:federation", args=["dbf", "xlsx"]) in client.get(reverse("office:home")).content.decode()
    )

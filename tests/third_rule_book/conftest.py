"""The table rule book registered for the tests of this package only, its federation, club and players, its
office (secretariat, commission, a superuser), and a table night uploaded and confirmed on the director's pages."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import resolve, reverse

from clubs.models import Club, ClubMembership
from federation.models import Federation, Player
from federation.schemes import register, unregister
from office.services import officer_assign
from tests.factories import pairs_from_numbers, usebio_pairs
from tests.third_rule_book.scheme import CODE, TABLE
from tournaments.models import ResultUpload, Tournament

#: Ten members of the table league: five pairs, 5001 & 5002 the first pair, and so on.
NUMBERS = [str(5001 + index) for index in range(10)]


@pytest.fixture
def table_rule_book():
    """The rule book's one registration (``federation.schemes.register``), taken out again after the test."""
    register(TABLE)
    yield TABLE
    unregister(CODE)


@dataclass
class TableWorld:
    federation: Federation
    club: Club
    players: list[Player]
    director: object


@pytest.fixture
def table_world(db, table_rule_book, django_user_model) -> TableWorld:
    """A federation under the table rule book, one club, its ten members and the club's director."""
    federation = Federation.objects.create(name="Table league", code="tbl", scheme=CODE, default_language="en")
    club = Club.objects.create(federation=federation, number="501", name="Table club")
    players = []
    for number in NUMBERS:
        player = Player.objects.create(federation=federation, number=number, first_name="Player", last_name=number)
        ClubMembership.objects.create(player=player, club=club, is_home=True)
        players.append(player)
    director = django_user_model.objects.create_user("table_director", "td@example.com", "pw-table")
    officer_assign(actor=None, user=director, role="club_director", federation=federation, club=club)
    return TableWorld(federation, club, players, director)


@dataclass
class TableOffice:
    """The table league's office: its secretariat, a member of its commission, and the site's superuser."""

    secretariat: object
    commission: object
    superuser: object


@pytest.fixture
def table_office(table_world, django_user_model) -> TableOffice:
    """The secretariat and a commission member of the table league (``officer_assign``), and a superuser."""
    federation = table_world.federation
    secretariat = django_user_model.objects.create_user("table_secretariat", "ts@example.com", "pw-table")
    officer_assign(actor=None, user=secretariat, role="secretariat", federation=federation)
    commission = django_user_model.objects.create_user("table_commission", "tc@example.com", "pw-table")
    officer_assign(actor=None, user=commission, role="commission", federation=federation)
    superuser = django_user_model.objects.create_superuser("table_root", "tr@example.com", "pw-table")
    return TableOffice(secretariat, commission, superuser)


def table_night_file(day: datetime.date, name: str) -> SimpleUploadedFile:
    """A USEBIO pairs file of the table club on ``day``: the ten members as five pairs over 24 boards, placed
    1, 2=, 2=, 4, 5 (the winners 10 TP each, the pairs tied on 2–3 5 TP each by the table)."""
    data = usebio_pairs(
        club_number="501",
        date=day,
        name=name,
        sections=[pairs_from_numbers(NUMBERS, seed=3)],
        boards=24,
        places=[["1", "2=", "2=", "4", "5"]],
    )
    return SimpleUploadedFile("table.xml", data, content_type="text/xml")


def table_night_confirmed(client, world: TableWorld, capture, *, day: datetime.date, name: str) -> Tournament:
    """The director uploads :func:`table_night_file` and confirms it on the site's pages (the on-commit work,
    the standings among it, run at once by ``capture``); the tournament it made. The client stays logged in as
    the director."""
    client.force_login(world.director)
    posted = client.post(
        reverse("uploads:upload"),
        {"organiser": f"club:{world.club.pk}", "category": "TP", "file": table_night_file(day, name)},
    )
    assert posted.status_code == 302, posted.content.decode()[:3000]
    upload = ResultUpload.objects.get(pk=resolve(posted.url).kwargs["pk"])
    assert client.get(posted.url).status_code == 200
    with capture(execute=True):
        done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302, [str(message) for message in done.wsgi_request._messages]
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.CONFIRMED
    return Tournament.objects.get(upload=upload)

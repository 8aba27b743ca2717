"""The table rule book registered for the tests of this package only, and its federation, club and players."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from clubs.models import Club, ClubMembership
from federation.models import Federation, Player
from federation.schemes import register, unregister
from office.services import officer_assign
from tests.third_rule_book.scheme import CODE, TABLE

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

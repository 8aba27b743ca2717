"""A compiled read (``federation.compiled``, issue 16) gives what its queryset gives, for any values, on
SQLite and PostgreSQL; it compiles once per connection and key; a value its lookup rewrites is refused."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation import compiled
from federation.compiled import CompiledRead
from federation.models import Player
from masterpoints.models import Award
from masterpoints.public import selectors
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, post_award


def _numbered(federation_id, number):
    return Player.objects.filter(federation_id=federation_id, number=number).order_by().values_list("pk", "last_name")


def test_a_compiled_read_gives_the_querysets_rows_for_each_call_s_values(world):
    make_player(world.dbf, "101", last="Holm")
    make_player(world.hbs, "101", last="Horvat")
    read = CompiledRead(Player, _numbered, int, str)
    for federation, number in ((world.dbf, "101"), (world.hbs, "101"), (world.dbf, "999"), (world.hbs, "'; --")):
        assert read.rows(federation.pk, number) == list(_numbered(federation.pk, number))


def test_the_rows_are_converted_as_values_list_converts_them(world):
    """Dates come back as dates on SQLite too (a text column there), and sums as integers."""
    player = make_player(world.dbf, "102")
    post_award(player, "BP", 120, day=datetime.date(2026, 3, 1))
    post_award(player, "BP", 30, day=datetime.date(2026, 3, 1))

    def daily(player_id):
        return Award.objects.filter(player_id=player_id).values_list("awarded_on", "units").order_by("awarded_on")

    rows = CompiledRead(Award, daily, int).rows(player.pk)
    assert rows == [tuple(row) for row in daily(player.pk)]
    assert all(isinstance(day, datetime.date) for day, _units in rows)


def test_a_read_is_compiled_once_per_connection_and_key_and_still_counted_as_a_query(world):
    make_player(world.dbf, "103")
    builds = []

    def build(federation_id, number):
        builds.append((federation_id, number))
        return _numbered(federation_id, number)

    read = CompiledRead(Player, build, int, str)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            read.rows(world.dbf.pk, "103")
    assert len(builds) == 1
    assert len(queries) == 3  # the query-count tests of the pages still see each read


def test_each_key_has_its_own_text_and_keys_beyond_the_bound_are_compiled_for_each_call(world, monkeypatch):
    player = make_player(world.dbf, "104")
    for units in range(1, 8):
        post_award(player, "BP", units, day=datetime.date(2026, 1, units))
    monkeypatch.setattr(compiled, "KEYS", 2)
    builds = []

    def page(player_id, part):
        builds.append(part)
        return Award.objects.filter(player_id=player_id).order_by("-awarded_on").values_list("units")[slice(*part)]

    read = CompiledRead(Award, page, int, keyed=True)
    for part in ((0, 2), (2, 4), (4, 6), (4, 6), (0, 2)):
        assert read.rows(player.pk, key=part) == [(units,) for units in range(7, 0, -1)][slice(*part)]
    assert builds == [(0, 2), (2, 4), (4, 6), (4, 6)]  # the third key found the bound full


def test_a_lookup_that_rewrites_its_value_is_refused_when_compiled(world):
    read = CompiledRead(Player, lambda text: Player.objects.filter(last_name__icontains=text).values_list("pk"), str)
    with pytest.raises(ValueError, match="reached its SQL 0 times"):
        read.rows("holm")


def test_a_read_takes_the_values_it_was_declared_with(world):
    read = CompiledRead(Player, _numbered, int, str)
    with pytest.raises(TypeError, match="takes 2 values, not 1"):
        read.rows(world.dbf.pk)
    with pytest.raises(TypeError, match="must be an int or a str"):
        CompiledRead(Player, lambda day: Player.objects.filter(dues_paid_until=day), datetime.date).rows(None)


def test_player_by_number_reads_the_player_federation_standing_and_home_club_as_the_orm_does(world):
    """The player's page and the API read a player so (``selectors.player_by_number``): the same instances as
    ``select_related``, the federation and standing cached (no further query), no standing before an award."""
    with_points = make_player(world.dbf, "105", first="Åse", club=world.club_a)
    post_award(with_points, "BP", 250)
    standings_refresh_players(federation=world.dbf, player_ids=[with_points.pk])
    without = make_player(world.hbs, "105")

    found = selectors.player_by_number("dbf", "105")
    expected = Player.objects.select_related("federation", "standing").get(pk=with_points.pk)
    with CaptureQueriesContext(connection) as queries:
        assert [getattr(found, f.attname) for f in Player._meta.concrete_fields] == [
            getattr(expected, f.attname) for f in Player._meta.concrete_fields
        ]
        assert found.federation == world.dbf and found.federation.scheme == "dbf"
        assert selectors.standing_of(found).bp == expected.standing.bp == 250
        assert found.home_club_pk == world.club_a.pk
        assert selectors.standing_of(selectors.player_by_number("hbs", "105")) is None
    assert len(queries) == 1  # the second player only
    assert selectors.player_by_number("hbs", "105").pk == without.pk
    with pytest.raises(Player.DoesNotExist):
        selectors.player_by_number("dbf", "106")
    with pytest.raises(Player.DoesNotExist):
        selectors.player_by_number("xyz", "105")


def test_an_empty_slice_reads_nothing_and_runs_no_query(world):
    """A ledger without awards asks for its first page as ``[0:0]``: no rows, as Django gives them."""
    player = make_player(world.dbf, "107")
    read = CompiledRead(
        Award, lambda player_id, part: Award.objects.filter(player_id=player_id)[slice(*part)], int, keyed=True
    )
    with CaptureQueriesContext(connection) as queries:
        assert read.rows(player.pk, key=(0, 0)) == []
    assert len(queries) == 0

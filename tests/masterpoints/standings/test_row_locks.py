"""Standings updates in parallel and online (issue 36, :mod:`masterpoints.standings.rowlocks`): an update locks
only the rows of the players it recomputes, the version is raised last, and the nightly rebuild writes in
batches under the same row locks. Each race runs on two real connections (two threads); a threading.Event
holds one transaction open at the point that matters while the other one runs."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.db.models import F, Sum

from masterpoints.models import Award, Standing, StandingsVersion
from masterpoints.standings import rebuild
from masterpoints.standings import services as standings
from masterpoints.standings.services import standings_rebuild, standings_refresh_players
from tests.masterpoints.standings.test_standings import player, post, snapshot

#: A bound on every wait, so that a broken lock fails the test instead of hanging it (never an assertion).
BOUND = 30


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite has no row locks, its single writer serialises all")


class Held:
    """Holds the transaction of the thread named ``holder`` open where ``wrapped`` returns, until released."""

    def __init__(self, monkeypatch, module, name: str, holder: str = "first"):
        self.reached, self.release = threading.Event(), threading.Event()
        original = getattr(module, name)

        def hold(*args, **kwargs):
            result = original(*args, **kwargs)
            if threading.current_thread().name == holder and not self.reached.is_set():
                self.reached.set()
                assert self.release.wait(BOUND), "the held transaction was never released"
            return result

        monkeypatch.setattr(module, name, hold)


def start(name: str, call, errors: list) -> threading.Thread:
    """``call`` on a connection of its own, in a thread named ``name``."""

    def run():
        try:
            call()
        except BaseException as error:  # reported in the test's own thread
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread


def ledger_bp(p) -> int:
    return Award.objects.filter(player=p, kind="BP").aggregate(total=Sum("units"))["total"]


def version(world) -> int:
    return StandingsVersion.objects.filter(federation=world.dbf).values_list("version", flat=True).first() or 0


def waiting_for_a_lock() -> bool:
    """Whether some other connection waits for a row lock (PostgreSQL's own view of its lock queue)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()")
        return cursor.fetchone()[0] > 0


def until(condition) -> bool:
    """Poll ``condition`` on this connection, each time in a new statement, within :data:`BOUND` seconds."""
    stop = threading.Event()
    timer = threading.Timer(BOUND, stop.set)
    timer.start()
    try:
        while not stop.is_set():
            if condition():
                return True
            stop.wait(0.01)
        return False
    finally:
        timer.cancel()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_updates_of_different_players_of_one_federation_do_not_wait_for_each_other(postgres, world, monkeypatch):
    """The first update holds its transaction open after writing its player's rows; the second, of another
    player of the same federation, commits meanwhile (it would wait here under a federation lock)."""
    first, second = player(world, "101"), player(world, "102")
    post(first, "BP", 120)
    post(second, "BP", 80)
    before = version(world)
    held = Held(monkeypatch, standings, "_refresh_part")
    errors: list = []
    one = start("first", lambda: standings_refresh_players(federation=world.dbf, player_ids=[first.pk]), errors)
    assert held.reached.wait(BOUND)
    done = threading.Event()
    two = start(
        "second",
        lambda: (standings_refresh_players(federation=world.dbf, player_ids=[second.pk]), done.set()),
        errors,
    )
    assert done.wait(BOUND), errors  # committed while the first transaction is still open
    assert not held.release.is_set() and one.is_alive()
    assert Standing.objects.get(player=second).points("BP") == 80  # visible: committed
    assert not Standing.objects.filter(player=first).exists()  # the first's rows: not committed yet
    held.release.set()
    one.join(BOUND)
    two.join(BOUND)
    assert not errors, errors
    assert dict(Standing.objects.values_list("player_id", "kind1")) == {first.pk: 120, second.pk: 80}
    assert version(world) >= before + 2  # each raised it, one after the other at commit (places may too)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_updates_of_one_player_wait_on_its_row_and_leave_the_right_sum(postgres, world, monkeypatch):
    """The first update has read the ledger under the player's lock and holds it; an award is committed and
    its update starts: it waits for the row, then reads the ledger with both awards."""
    p = player(world, "201")
    post(p, "BP", 50)
    standings_refresh_players(federation=world.dbf, player_ids=[p.pk])  # the row exists: it is the lock
    post(p, "BP", 30)
    held = Held(monkeypatch, standings, "_season_rows")  # the ledger has been read
    errors: list = []
    one = start("first", lambda: standings_refresh_players(federation=world.dbf, player_ids=[p.pk]), errors)
    assert held.reached.wait(BOUND)
    post(p, "SP", 7)
    post(p, "BP", 20)
    two = start("second", lambda: standings_refresh_players(federation=world.dbf, player_ids=[p.pk]), errors)
    assert until(waiting_for_a_lock), "the second update did not wait for the player's row"
    held.release.set()
    one.join(BOUND)
    two.join(BOUND)
    assert not errors, errors
    standing = Standing.objects.get(player=p)
    assert (standing.points("BP"), standing.points("SP"), standing.award_count) == (100, 7, 4) == (ledger_bp(p), 7, 4)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_first_updates_of_a_new_player_insert_one_row(postgres, world, monkeypatch):
    """A player with no standing yet: the first update inserts the row under its key and holds it; the
    second waits for that row instead of inserting a second one, and counts both awards."""
    p = player(world, "301")
    post(p, "BP", 40)
    held = Held(monkeypatch, standings, "_season_rows")
    errors: list = []
    one = start("first", lambda: standings_refresh_players(federation=world.dbf, player_ids=[p.pk]), errors)
    assert held.reached.wait(BOUND)
    post(p, "BP", 15)
    two = start("second", lambda: standings_refresh_players(federation=world.dbf, player_ids=[p.pk]), errors)
    assert until(waiting_for_a_lock)
    held.release.set()
    one.join(BOUND)
    two.join(BOUND)
    assert not errors, errors
    assert list(Standing.objects.values_list("player_id", "kind1")) == [(p.pk, 55)]


@pytest.fixture
def listed(world, monkeypatch):
    """Three players with standings, kept by their updates; the rebuild writes one player per batch."""
    monkeypatch.setattr(rebuild, "BATCH", 1)
    players = [player(world, str(401 + i)) for i in range(3)]
    for i, p in enumerate(players):
        post(p, "BP", 100 * (i + 1))
    standings_refresh_players(federation=world.dbf, player_ids=[p.pk for p in players])
    standings_rebuild()  # proofs recorded
    return players


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_update_proceeds_while_a_rebuilds_batch_is_open(postgres, world, listed, monkeypatch):
    """The rebuild repairs two damaged players, one per batch, and holds its first batch open; an update of
    another player commits meanwhile, and so does one of the player of its next batch, which the rebuild
    then leaves to it. Both rebuild and updates end where the ledger says."""
    damaged, untouched_yet, other = listed
    Standing.objects.filter(player__in=[damaged, untouched_yet]).update(kind1=F("kind1") + 1)
    held = Held(monkeypatch, rebuild, "_write_batch")
    errors: list = []
    one = start("first", lambda: standings_rebuild(federation=world.dbf), errors)
    assert held.reached.wait(BOUND)
    for p in (other, untouched_yet):
        post(p, "BP", 5)
        done = threading.Event()
        thread = start(
            "update",
            lambda p=p, done=done: (standings_refresh_players(federation=world.dbf, player_ids=[p.pk]), done.set()),
            errors,
        )
        assert done.wait(BOUND), errors  # committed while the rebuild's batch is open
        thread.join(BOUND)
    assert one.is_alive() and not errors
    held.release.set()
    one.join(BOUND)
    assert not errors, errors
    assert {s.player_id: s.points("BP") for s in Standing.objects.all()} == {p.pk: ledger_bp(p) for p in listed}
    kept = snapshot()
    standings_rebuild()
    assert snapshot() == kept


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_rebuilds_snapshot_never_overwrites_an_update_committed_after_it(postgres, world, listed, monkeypatch):
    """The rebuild has computed a player's rows from its snapshot; an award and its update commit before the
    rebuild's batch reaches that player: the batch leaves the newer rows alone (they hold the award)."""
    p = listed[1]
    Standing.objects.filter(player=p).update(kind1=F("kind1") + 1)  # the rebuild plans to repair it
    held = Held(monkeypatch, rebuild, "_plan")
    errors: list = []
    one = start("first", lambda: standings_rebuild(federation=world.dbf), errors)
    assert held.reached.wait(BOUND)
    post(p, "BP", 9)
    standings_refresh_players(federation=world.dbf, player_ids=[p.pk])
    held.release.set()
    one.join(BOUND)
    assert not errors, errors
    assert Standing.objects.get(player=p).points("BP") == ledger_bp(p) == 209

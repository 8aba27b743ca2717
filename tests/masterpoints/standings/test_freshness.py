"""The freshness job: players whose standing is older than their ledger (an update lost with a killed worker)
are found within a minute and their update queued; fresh standings are left alone."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from masterpoints.models import Standing
from masterpoints.standings import freshness, tasks
from masterpoints.standings.freshness import standings_stale_players
from masterpoints.standings.services import standings_rebuild, standings_refresh_players
from tests.factories import make_players, post_award


def settled() -> datetime.datetime:
    """A clock past the settling time of everything written so far."""
    return timezone.now() + freshness.SETTLE + datetime.timedelta(seconds=1)


@pytest.fixture
def ledger(world):
    """Five DBf and two HBS players with awards and standings computed from them; then three DBf players and
    one HBS player get an award whose update never ran (its worker was killed), one of them a first award."""
    dbf = make_players(world.dbf, [str(100 + i) for i in range(5)])
    hbs = make_players(world.hbs, ["900", "901"])
    for number, player in enumerate(dbf[:4] + hbs, start=1):
        post_award(player, "BP" if player in dbf else "black", 10 * number)
        post_award(player, "SP" if player in dbf else "red", number)
    standings_rebuild()
    standings_refresh_players(federation=world.dbf, player_ids=[dbf[0].pk])  # the incremental path counts alike
    post_award(dbf[1], "BP", 5)
    post_award(dbf[3], "GP", -1, source="correction", reason="commission")
    post_award(dbf[4], "BP", 7)  # no standing at all yet
    post_award(hbs[1], "master", 2)
    return {"dbf": dbf, "hbs": hbs, "stale_dbf": [dbf[1], dbf[3], dbf[4]], "stale_hbs": [hbs[1]]}


def ids(players) -> list[int]:
    return sorted(player.pk for player in players)


def test_exactly_the_players_whose_standing_misses_a_ledger_row_are_stale(world, ledger):
    assert standings_stale_players(now=settled()) == {
        world.dbf.pk: ids(ledger["stale_dbf"]),
        world.hbs.pk: ids(ledger["stale_hbs"]),
    }


def test_standings_computed_from_the_whole_ledger_are_never_stale(world, ledger):
    standings_rebuild()
    assert standings_stale_players(now=settled()) == {}


def test_a_row_still_settling_is_left_to_its_own_update(world, ledger):
    assert standings_stale_players(now=timezone.now()) == {}


def test_rows_older_than_the_window_are_the_nightly_rebuilds(world, ledger):
    assert standings_stale_players(now=timezone.now() + freshness.WINDOW + datetime.timedelta(minutes=1)) == {}


def test_one_call_returns_at_most_its_limit(world, ledger):
    found = standings_stale_players(now=settled(), limit=2)
    assert sum(len(players) for players in found.values()) == 2


@pytest.fixture
def queued(monkeypatch):
    """The update tasks the freshness job queues, recorded instead of sent: (federation id, player ids)."""
    calls: list[tuple[int, list[int]]] = []
    monkeypatch.setattr(tasks.standings_update_players, "apply_async", lambda args, **options: calls.append(args))
    monkeypatch.setattr(freshness, "SETTLE", datetime.timedelta(0))
    return calls


def test_the_job_queues_exactly_the_stale_players_and_queues_them_again_until_they_are_updated(
    world, ledger, queued, monkeypatch
):
    expected = [(world.dbf.pk, ids(ledger["stale_dbf"])), (world.hbs.pk, ids(ledger["stale_hbs"]))]
    assert tasks.standings_freshness() == 4
    assert sorted(queued) == expected
    assert tasks.standings_freshness() == 4  # not yet run: asked again (the update is idempotent)
    assert sorted(queued) == sorted(expected * 2)
    for federation_id, player_ids in expected:
        tasks.standings_update_players(federation_id, player_ids)
    queued.clear()
    assert tasks.standings_freshness() == 0
    assert queued == []
    assert Standing.objects.get(player=ledger["stale_dbf"][2]).points("BP") == 7


def test_the_job_queues_in_parts(world, ledger, queued, monkeypatch):
    monkeypatch.setattr(tasks, "FRESHNESS_PART", 2)
    assert tasks.standings_freshness() == 4
    assert sorted(len(player_ids) for _federation, player_ids in queued) == [1, 1, 2]


def test_the_job_runs_the_updates_where_celery_is_eager(world, ledger, monkeypatch):
    monkeypatch.setattr(freshness, "SETTLE", datetime.timedelta(0))
    assert tasks.standings_freshness() == 4
    assert tasks.standings_freshness() == 0
    assert Standing.objects.get(player=ledger["stale_hbs"][0]).points("master") == 2

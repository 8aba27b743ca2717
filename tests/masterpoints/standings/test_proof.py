"""Issue 16: the nightly rebuild proves stored rows right by fingerprints (masterpoints.standings.proof) and
regroups only what it cannot prove: a season a day's uploads touched, a row changed behind its back, a ledger
row changed in place, a release that changes the deriving code, a ranking figure whose day has come (D-Q59).
Whatever it skips, it ends where a rebuild from empty tables ends. PostgreSQL only (the SQLite rebuild has
no proofs: it rewrites every row)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.utils import timezone

from masterpoints.models import Award, RankingListEntry, SeasonStanding, Standing, StandingsProof, StandingsVersion
from masterpoints.standings import proof, rebuild
from masterpoints.standings.ranking_list import ranking_list_rows
from masterpoints.standings.services import standings_ranking_roll, standings_rebuild, standings_refresh_players
from tests.factories import make_player, registered_on
from tests.masterpoints.standings.test_standings import snapshot


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): only its rebuild keeps proofs")


def award(player, kind: str, units: int, day: datetime.date) -> Award:
    with registered_on(day):
        return Award.objects.create(
            federation_id=player.federation_id,
            player=player,
            kind=kind,
            units=units,
            source=Award.Source.MANUAL,
            reason="entered by the office",
            awarded_on=day,
        )


@pytest.fixture
def history(postgres, world):
    """DBf and HBS players with awards over four seasons, the newest within the ranking list's years, kept
    by incremental updates and then proven by one rebuild."""
    today = timezone.localdate()
    players = []
    for index in range(6):
        dane = make_player(world.dbf, f"6{index:03d}", last=f"Dansk{index}")
        croat = make_player(world.hbs, f"7{index:03d}", last=f"Hrvat{index}")
        for years in range(4):
            day = today - datetime.timedelta(days=365 * years + 20 * index + 3)
            award(dane, ("BP", "SP", "GP")[years % 3], 40 + index * 7 + years, day)
            award(croat, ("black", "red", "master")[years % 3], 5 + index + years, day)
        players += [dane, croat]
    for federation in (world.dbf, world.hbs):
        standings_refresh_players(federation=federation, player_ids=[p.pk for p in players])
    standings_rebuild()
    return players


def refuse(*_args, **_kwargs):
    raise AssertionError("the rebuild regrouped what its proofs cover")


def test_a_rebuild_of_proven_rows_regroups_nothing_and_writes_nothing(history, monkeypatch, world):
    proven = snapshot()
    scopes = set(StandingsProof.objects.filter(federation=world.dbf).values_list("scope", flat=True))
    assert {"standings", "ranking list"} <= scopes and sum(s.startswith("season ") for s in scopes) >= 4
    versions = list(StandingsVersion.objects.order_by("pk").values_list("version", flat=True))
    monkeypatch.setattr(rebuild, "_read_ledger", refuse)
    monkeypatch.setattr(rebuild, "_rebuild_part", refuse)
    monkeypatch.setattr(rebuild, "_standing_rows", refuse)
    monkeypatch.setattr(rebuild, "ranking_list_rebuild", refuse)
    assert standings_rebuild() == {"dbf": 6, "hbs": 6}
    assert snapshot() == proven
    assert list(StandingsVersion.objects.order_by("pk").values_list("version", flat=True)) == versions


def test_a_day_of_uploads_regroups_only_the_season_it_touched(history, monkeypatch, world):
    dane = history[0]
    today = timezone.localdate()
    award(dane, "BP", 25, today)
    standings_refresh_players(federation=world.dbf, player_ids=[dane.pk])
    incremental = snapshot()
    regrouped = []
    part = rebuild._rebuild_part

    def spy(federation, players, seasons=None):
        regrouped.append((federation.code, seasons))
        return part(federation, players, seasons)

    monkeypatch.setattr(rebuild, "_rebuild_part", spy)
    standings_rebuild()
    assert regrouped == [("dbf", [world.dbf.scheme_info.season_of(today)])]
    assert snapshot() == incremental


def test_rows_changed_behind_the_rebuilds_back_are_repaired(history, world):
    proven = snapshot()
    old = world.dbf.scheme_info.season_of(timezone.localdate()) - 3
    season_row = SeasonStanding.objects.filter(federation=world.dbf, season=old).order_by("player_id").first()
    with connection.cursor() as cursor:  # as a hand-made fix or a fault would, bypassing the services
        cursor.execute(
            "UPDATE masterpoints_seasonstanding SET last_award_on = '2001-01-01' WHERE id = %s", [season_row.pk]
        )
        cursor.execute("UPDATE masterpoints_standing SET title = 'Stormester' WHERE player_id = %s", [history[2].pk])
        cursor.execute(
            "UPDATE masterpoints_rankinglistentry SET changes_on = NULL WHERE player_id = %s", [history[4].pk]
        )
        cursor.execute(
            "DELETE FROM masterpoints_seasonstanding WHERE federation_id = %s AND season = %s", [world.hbs.pk, old]
        )
    standings_rebuild()
    assert snapshot() == proven


def test_a_ledger_row_changed_in_place_is_noticed(history, world):
    dane = history[1 * 2]
    oldest = Award.objects.filter(player=dane).order_by("awarded_on").first()
    with connection.cursor() as cursor:  # the ledger is append-only in the code; this bypasses it
        cursor.execute("UPDATE masterpoints_award SET units = units + 1000 WHERE id = %s", [oldest.pk])
    standings_rebuild()
    season = world.dbf.scheme_info.season_of(oldest.awarded_on)
    row = SeasonStanding.objects.get(player=dane, season=season)
    assert row.points(oldest.kind) == oldest.units + 1000
    standing = Standing.objects.get(player=dane)
    assert standing.total == sum(Award.objects.filter(player=dane).values_list("units", flat=True))


def test_a_release_that_changes_the_deriving_code_verifies_everything_once(history, monkeypatch, world):
    proven = snapshot()
    monkeypatch.setattr(proof, "code_digest", lambda: "another release")
    read = []
    whole = rebuild._read_ledger

    def spy(federation, *, apart):
        read.append(federation.code)
        return whole(federation, apart=apart)

    monkeypatch.setattr(rebuild, "_read_ledger", spy)
    standings_rebuild()
    assert read == ["dbf", "hbs"] and snapshot() == proven
    standings_rebuild()
    assert read == ["dbf", "hbs"]  # proven again under the new release's fingerprints


def test_the_ranking_list_is_recomputed_once_a_figures_day_has_come_d_q59(history, monkeypatch, world):
    due = RankingListEntry.objects.filter(federation=world.dbf).exclude(changes_on=None).order_by("changes_on").first()
    monkeypatch.setattr(timezone, "localdate", lambda *args: due.changes_on)
    standings_rebuild()
    stored = dict(RankingListEntry.objects.filter(federation=world.dbf).values_list("player_id", "score"))
    expected = {pk: score for pk, (score, _day) in ranking_list_rows(world.dbf, None, due.changes_on).items()}
    assert stored == expected and stored[due.player_id] != due.score


def cancelling_player(world):
    """3 × 3.00 BP registered 400 days ago (12–24 months) − 6 × 1.50 BP corrected 10 days ago = 0; returns
    the player and the day the 3.00 BP move to 24–36 months (2 × 3.00 − 6 × 1.50 = −3.00, score −300)."""
    today = timezone.localdate()
    cancelled = make_player(world.dbf, "6999", last="Nul")
    day = today - datetime.timedelta(days=400)
    award(cancelled, "BP", 300, day)
    with registered_on(today - datetime.timedelta(days=10)):
        Award.objects.create(
            federation=world.dbf,
            player=cancelled,
            kind="BP",
            units=-150,
            source=Award.Source.CORRECTION,
            reason="corrected by the commission",
            awarded_on=today - datetime.timedelta(days=10),
        )
    standings_refresh_players(federation=world.dbf, player_ids=[cancelled.pk])
    moves = day.replace(year=day.year + 2) if (day.month, day.day) != (2, 29) else datetime.date(day.year + 2, 3, 1)
    return cancelled, moves


def test_the_daily_roll_recomputes_a_figure_of_0_on_the_day_it_changes_d_q59(postgres, world):
    """The roll sees only stored rows; the day a figure of 0 changes comes from the last rebuild's proof."""
    cancelled, moves = cancelling_player(world)
    standings_rebuild()
    assert not RankingListEntry.objects.filter(player=cancelled).exists()
    standings_ranking_roll(federation=world.dbf, today=moves - datetime.timedelta(days=1))
    assert not RankingListEntry.objects.filter(player=cancelled).exists()
    standings_ranking_roll(federation=world.dbf, today=moves)
    assert RankingListEntry.objects.get(player=cancelled).score == -300


def test_a_figure_of_0_that_changes_later_is_recomputed_on_its_day_d_q59(postgres, monkeypatch, world):
    """A player whose weighted sums cancel today has no row, so the daily roll cannot see the day their
    figure changes: 3 × 3.00 BP registered 400 days ago (12–24 months) − 6 × 1.50 BP corrected 10 days ago
    = 0. In 330 days the 3.00 BP move to 24–36 months: 2 × 3.00 − 6 × 1.50 = −3.00 (score −300). The
    rebuild records that day and recomputes the list on it, though nothing else changed (and no row is due)."""
    cancelled, moves = cancelling_player(world)
    standings_rebuild()
    assert not RankingListEntry.objects.filter(player=cancelled).exists()
    assert StandingsProof.objects.get(federation=world.dbf, scope="ranking list").due_on == moves
    monkeypatch.setattr(timezone, "localdate", lambda *args: moves)
    standings_rebuild()
    assert RankingListEntry.objects.get(player=cancelled).score == -300

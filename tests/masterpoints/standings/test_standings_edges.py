"""Edges of the standings: the title register that never loses a title (DBf § 404, HBS H-2), a player hiding
their name on the public lists, and the updates that have nothing to do."""

from __future__ import annotations

import datetime

import pytest

from federation.models import AuditEvent
from masterpoints.models import TitleAchievement
from masterpoints.standings.freshness import standings_stale_players
from masterpoints.standings.models import StandingsVersion
from masterpoints.standings.services import player_hide_name_set, standings_refresh_tournament


def test_a_registered_title_cannot_be_deleted_even_in_bulk_404(world):
    """§ 404 / H-2: a title once registered is never lost; the register refuses a bulk delete as it refuses
    every update but the announcement's time."""
    TitleAchievement.objects.create(
        federation=world.dbf, player=world.player, rung=1, title="Klubmester", reached_on=datetime.date(2025, 2, 3)
    )
    with pytest.raises(TypeError, match="never lost"):
        TitleAchievement.objects.filter(player=world.player).delete()
    assert TitleAchievement.objects.count() == 1


def test_hiding_a_name_is_audited_and_shows_at_once_and_asking_again_changes_nothing(world):
    """The public lists show the number instead of a hidden name: the change bumps the standings version
    (cached pages show it at once) and is audited; asking for the state already set writes nothing."""
    player = player_hide_name_set(actor=None, player=world.player, hide_name=True)
    assert player.hide_name is True
    version = StandingsVersion.objects.get(federation=world.dbf).version
    assert AuditEvent.objects.filter(action="player.hide_name").count() == 1
    player_hide_name_set(actor=None, player=world.player, hide_name=True)
    assert StandingsVersion.objects.get(federation=world.dbf).version == version
    assert AuditEvent.objects.filter(action="player.hide_name").count() == 1


def test_the_update_of_a_tournament_that_is_gone_writes_nothing(world):
    """A queued standings update whose tournament no longer exists (the outbox delivers it late) is a no-op."""
    assert standings_refresh_tournament(tournament_id=987654) == 0
    assert not StandingsVersion.objects.exists()


def test_an_empty_ledger_has_no_stale_standings(world):
    """The freshness check reads the newest ledger rows; with none there is nobody to recompute."""
    assert standings_stale_players() == {}

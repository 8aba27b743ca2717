"""Fixtures of the ledger's tests: a DBf club tournament and one result award from it."""

import pytest

from tests.factories import make_tournament, post_award


@pytest.fixture
def tournament(world):
    return make_tournament(world.dbf, world.club_a)


@pytest.fixture
def award(world, tournament):
    """16 BP for the world's player from ``tournament`` (a result award)."""
    return post_award(world.player, "BP", 16, source="result", tournament=tournament)

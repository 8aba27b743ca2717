"""Reads of a player's own page: their login's player and their correction requests."""

from __future__ import annotations

from federation.models import Player
from masterpoints.models import CorrectionRequest, NoticePreference


def player_of(user) -> Player | None:
    """The player ``user``'s login is linked to (``Player.user``), or ``None``."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).select_related("federation").first()


def corrections_of(player: Player):
    """The correction requests about ``player``, filed by themselves or by a director for them, newest first;
    never another player's."""
    return CorrectionRequest.objects.filter(player=player).select_related("tournament").order_by("-created_at")


def wants_statement(player: Player) -> bool:
    """Has ``player`` opted into the monthly statement (no row: not)?"""
    return NoticePreference.objects.filter(player=player, monthly_statement=True).exists()

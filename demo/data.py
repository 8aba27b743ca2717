"""Deterministic demo records: players, playing times and opening balances, each from its own index.

Every record is derived from its own index with its own seeded generator, so a larger run keeps every
record of a smaller one unchanged and a second run finds everything in place (idempotent). What differs
between the two demo federations comes from their profile (:mod:`demo.profiles`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from demo.profiles import DEMO_PROFILES

SEED = 20231


def seeded(key: str) -> random.Random:
    """The generator of one demo record, seeded by ``key`` and :data:`SEED`: the same key always draws the
    same numbers, whatever was drawn for other records."""
    return random.Random(f"{SEED}-{key}")


@dataclass(frozen=True)
class DemoPlayer:
    """One demo player; ``club_index`` (home club) and ``second_club_index`` index the federation's clubs."""

    number: str
    first_name: str
    last_name: str
    birth_year: int
    status: str
    dues_paid_until: date | None
    club_index: int
    second_club_index: int | None
    listed_on_request: bool = False


def demo_player(scheme: str, index: int, club_count: int, season_end: date) -> DemoPlayer:
    """The ``index``-th demo player of a federation; the same index always gives the same player.

    Nine in ten are members with dues paid until ``season_end``, the rest guests or lapsed; about one in
    seven plays in a second club (never the home club again).
    """
    profile = DEMO_PROFILES[scheme]
    rng = seeded(f"{scheme}-player-{index}")
    roll = rng.random()
    status = "member" if roll < 0.9 else ("guest" if roll < 0.95 else "lapsed")
    paid = season_end if status == "member" else None
    club = rng.randrange(club_count)
    second = rng.randrange(club_count) if rng.random() < 0.15 else None
    return DemoPlayer(
        number=str(profile.first_player_number + index),
        first_name=rng.choice(profile.first_names),
        last_name=rng.choice(profile.last_names),
        birth_year=rng.randint(1935, 2008),
        status=status,
        dues_paid_until=paid,
        club_index=club,
        second_club_index=second if second != club else None,
        # Every other guest asked to be on the official list (HBS rule 4); no draw, so earlier players stay.
        listed_on_request=status == "guest" and index % 2 == 0,
    )


def demo_playing_times(scheme: str, club_index: int) -> list[tuple[int, str]]:
    """One to three weekly sessions (weekday 0 = Monday, part of day) for a club, by weekday; weekend
    sessions are in the afternoon."""
    rng = seeded(f"{scheme}-club-{club_index}-times")
    days = rng.sample(range(7), rng.randint(1, 3))
    return sorted((day, "afternoon" if day >= 5 else rng.choice(["evening", "evening", "afternoon"])) for day in days)


def demo_opening_balance(scheme: str, number: str) -> tuple[tuple[str, int], ...]:
    """The balance a demo player brings from the previous system, as (kind, units) for each kind held, or
    nothing for a newcomer (three in ten). Heavy-tailed, as real balances are: most players hold a little,
    a few a great deal (the profile's :attr:`~demo.profiles.DemoProfile.opening_balance` draws it)."""
    rng = seeded(f"{scheme}-opening-{number}")
    if rng.random() < 0.3:
        return ()
    balance = DEMO_PROFILES[scheme].opening_balance(rng)
    return tuple((kind, units) for kind, units in balance if units > 0)

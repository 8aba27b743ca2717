"""The demo content of each demo federation, keyed by scheme code: :data:`DEMO_PROFILES`.

A profile holds what a demo invents per federation: its name and contacts, its regions and clubs, its
players' names and numbers, the balances they bring from the previous system, the mix of tournaments,
their names and strengths, and how a corrected tournament is named. What a rule book fixes (point kinds,
seasons, the kind awarded by default) is not here: it is read from :mod:`federation.schemes`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from demo.names import (
    CROATIAN_CLUBS,
    CROATIAN_FIRST,
    CROATIAN_LAST,
    CROATIAN_REGIONS,
    DANISH_CIRCLE_NAMES,
    DANISH_FIRST,
    DANISH_LAST,
    DANISH_REGIONS,
    DANISH_TOWNS,
)


@dataclass(frozen=True)
class DemoRegion:
    """A region of a demo federation; a circle names the district it lies in."""

    code: str
    name: str
    kind: str  # "district" or "circle"
    parent: str | None = None


@dataclass(frozen=True)
class DemoClub:
    """A club of a demo federation: its number, its name and the codes of the regions it belongs to."""

    number: str
    name: str
    regions: tuple[str, ...]


class EventKind(NamedTuple):
    """One kind of demo tournament: who holds it, the point kind it awards, its share of all events, the
    smallest and largest field in pairs and the boards played."""

    organiser: str  # "club", "district" or "federation"
    category: str
    share: float
    smallest: int
    largest: int
    boards: int


#: A balance brought from the previous system: (kind, units) per kind, drawn from a seeded generator.
OpeningBalance = Callable[[random.Random], tuple[tuple[str, int], ...]]


@dataclass(frozen=True)
class DemoProfile:
    """Everything a demo federation invents; the same profile always builds the same federation."""

    scheme: str
    #: The federation row: its code, name, language (of the federation and its clubs), zone and address.
    code: str
    name: str
    language: str
    time_zone: str
    contact_email: str
    #: Regions in the order they are created (a district before its circles).
    regions: tuple[DemoRegion, ...]
    #: ``clubs(count)``: the clubs of a run that asks for ``count`` clubs, in the order they are created.
    clubs: Callable[[int], tuple[DemoClub, ...]]
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    #: The membership number of the first demo player; the others follow on.
    first_player_number: int
    opening_balance: OpeningBalance
    event_mix: tuple[EventKind, ...]
    #: What a demo tournament is called, by organiser (the date follows).
    tournament_names: dict[str, str]
    #: Appended to the name of a tournament whose result file was uploaded again, corrected.
    correction_suffix: str
    #: The strength every demo tournament has on the list of recognised tournaments (HBS H-1); ``None``
    #: where tournaments carry no strength.
    event_strength: str | None


# --- Danmarks Bridgeforbund -------------------------------------------------------------------------------

_DANISH_REGIONS = tuple(
    region
    for code, (name, circles) in DANISH_REGIONS.items()
    for region in (
        DemoRegion(code, f"Distrikt {name}", "district"),
        *(DemoRegion(circle, f"Kreds {DANISH_CIRCLE_NAMES[circle]}", "circle", code) for circle in circles),
    )
)


def _danish_clubs(count: int) -> tuple[DemoClub, ...]:
    """``count`` clubs numbered from 1001, named after the towns in turn (``Aalborg 2`` once the towns run
    out), spread over the circles in turn; each belongs to its circle and to the circle's district."""
    circles = [region for region in _DANISH_REGIONS if region.kind == "circle"]
    towns = len(DANISH_TOWNS)
    clubs = []
    for index in range(count):
        suffix = "" if index < towns else f" {index // towns + 1}"
        circle = circles[index % len(circles)]
        name = f"Bridgeklubben {DANISH_TOWNS[index % towns]}{suffix}"
        clubs.append(DemoClub(f"{1001 + index}", name, (circle.code, circle.parent)))
    return tuple(clubs)


def _danish_balance(rng: random.Random) -> tuple[tuple[str, int], ...]:
    """A total drawn around a median of about 12 MP (at most 3000), split into BP, SP and GP (GP only
    above 20 MP); units are 1 BP, 0.1 SP, 0.01 GP."""
    mp = min(3000.0, rng.lognormvariate(2.5, 1.4))
    bp = round(mp * rng.uniform(0.4, 0.8) * 100)
    sp = round(mp * rng.uniform(0.1, 0.4) * 100)
    gp = round(mp * rng.uniform(0.0, 0.25) * 100) if mp > 20 else 0
    return (("BP", bp), ("SP", sp), ("GP", gp))


DANISH = DemoProfile(
    scheme="dbf",
    code="dbf",
    name="Danmarks Bridgeforbund",
    language="da",
    time_zone="Europe/Copenhagen",
    contact_email="sekretariat@dbf.example",
    regions=_DANISH_REGIONS,
    clubs=_danish_clubs,
    first_names=tuple(DANISH_FIRST),
    last_names=tuple(DANISH_LAST),
    first_player_number=10001,
    opening_balance=_danish_balance,
    event_mix=(
        EventKind("club", "BP", 0.93, 5, 30, 24),
        EventKind("district", "SP", 0.06, 14, 60, 48),
        EventKind("federation", "GP", 0.01, 24, 90, 56),
    ),
    tournament_names={"club": "Klubturnering", "district": "Regionsturnering", "federation": "Landsturnering"},
    correction_suffix=" (rettet)",
    event_strength=None,
)


# --- Hrvatski bridž savez ---------------------------------------------------------------------------------

_CROATIAN_REGIONS = tuple(DemoRegion(code, name, "district") for code, name in CROATIAN_REGIONS.items())


def _croatian_clubs(count: int) -> tuple[DemoClub, ...]:
    """The twelve clubs of the list, numbered from 101, each in its region, whatever ``count`` asks for."""
    return tuple(DemoClub(f"{101 + index}", name, (region,)) for index, (region, name) in enumerate(CROATIAN_CLUBS))


def _croatian_balance(rng: random.Random) -> tuple[tuple[str, int], ...]:
    """Black points around a median of about 150; red points only above 400 black, master points only
    above 150 red (whole points)."""
    black = round(rng.lognormvariate(5.0, 1.2))
    red = round(black * rng.uniform(0.05, 0.5)) if black > 400 else 0
    master = round(red * rng.uniform(0.02, 0.12)) if red > 150 else 0
    return (("black", black), ("red", red), ("master", master))


CROATIAN = DemoProfile(
    scheme="hbs",
    code="hbs",
    name="Hrvatski bridž savez",
    language="hr",
    time_zone="Europe/Zagreb",
    contact_email="tajnistvo@hbs.example",
    regions=_CROATIAN_REGIONS,
    clubs=_croatian_clubs,
    first_names=tuple(CROATIAN_FIRST),
    last_names=tuple(CROATIAN_LAST),
    first_player_number=1001,
    opening_balance=_croatian_balance,
    event_mix=(
        EventKind("club", "black", 0.85, 6, 24, 24),
        EventKind("district", "red", 0.12, 10, 40, 40),
        EventKind("federation", "master", 0.03, 16, 60, 52),
    ),
    tournament_names={"club": "Klupski turnir", "district": "Regionalni turnir", "federation": "Državni turnir"},
    correction_suffix=" (ispravak)",
    event_strength="1",
)


#: The demo profile of each scheme, by scheme code.
DEMO_PROFILES: dict[str, DemoProfile] = {profile.scheme: profile for profile in (DANISH, CROATIAN)}

"""Deterministic demo data: a Danish (DBf) and a Croatian (HBS) federation with plausible names.

Every record is derived from its own index with its own seeded generator, so a larger run keeps every
record of a smaller one unchanged and a second run finds everything in place (idempotent).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

SEED = 20231

DANISH_FIRST = [
    "Anders",
    "Anne",
    "Birgit",
    "Bent",
    "Bodil",
    "Carsten",
    "Dorte",
    "Erik",
    "Else",
    "Finn",
    "Grethe",
    "Hanne",
    "Hans",
    "Helle",
    "Henrik",
    "Inge",
    "Jens",
    "Jette",
    "Jørgen",
    "Karen",
    "Kirsten",
    "Kurt",
    "Lars",
    "Lene",
    "Lise",
    "Mads",
    "Marianne",
    "Mette",
    "Morten",
    "Niels",
    "Ole",
    "Poul",
    "Rasmus",
    "Rikke",
    "Søren",
    "Susanne",
    "Torben",
    "Tove",
    "Ulla",
    "Vibeke",
    "Per",
    "Peter",
    "Mikkel",
    "Camilla",
    "Frederik",
    "Ida",
    "Signe",
    "Jakob",
    "Kasper",
    "Louise",
]
DANISH_LAST = [
    "Nielsen",
    "Jensen",
    "Hansen",
    "Pedersen",
    "Andersen",
    "Christensen",
    "Larsen",
    "Sørensen",
    "Rasmussen",
    "Jørgensen",
    "Petersen",
    "Madsen",
    "Kristensen",
    "Olsen",
    "Thomsen",
    "Christiansen",
    "Poulsen",
    "Johansen",
    "Møller",
    "Mortensen",
    "Knudsen",
    "Jakobsen",
    "Mikkelsen",
    "Olesen",
    "Frederiksen",
    "Laursen",
    "Henriksen",
    "Lund",
    "Schmidt",
    "Eriksen",
    "Holm",
    "Kristiansen",
    "Clausen",
    "Simonsen",
    "Svendsen",
    "Andreasen",
    "Iversen",
    "Jeppesen",
    "Vestergaard",
    "Mogensen",
    "Nissen",
    "Lauridsen",
    "Kjær",
    "Bach",
    "Dahl",
    "Østergaard",
    "Thygesen",
    "Krogh",
    "Brandt",
]
DANISH_TOWNS = [
    "Aalborg",
    "Hjørring",
    "Frederikshavn",
    "Thisted",
    "Viborg",
    "Skive",
    "Holstebro",
    "Herning",
    "Silkeborg",
    "Aarhus",
    "Randers",
    "Horsens",
    "Vejle",
    "Kolding",
    "Fredericia",
    "Esbjerg",
    "Ribe",
    "Haderslev",
    "Aabenraa",
    "Sønderborg",
    "Odense",
    "Svendborg",
    "Nyborg",
    "Middelfart",
    "Roskilde",
    "Holbæk",
    "Næstved",
    "Slagelse",
    "Køge",
    "Hillerød",
    "Helsingør",
    "Lyngby",
    "Gentofte",
    "Frederiksberg",
    "Amager",
    "Valby",
    "Ballerup",
    "Greve",
    "Rønne",
    "Nykøbing",
]
#: DBf districts and the circles (kredse) inside them, by code.
DANISH_REGIONS = {
    "nordjylland": ("Nordjylland", ["vendsyssel", "himmerland"]),
    "midtjylland": ("Midtjylland", ["aarhus", "vestjylland"]),
    "syddanmark": ("Syddanmark", ["trekanten", "sonderjylland"]),
    "fyn": ("Fyn", ["odense"]),
    "sjaelland": ("Sjælland", ["midtsjaelland", "sydsjaelland"]),
    "hovedstaden": ("Hovedstaden", ["kobenhavn", "nordsjaelland"]),
}
DANISH_CIRCLE_NAMES = {
    "vendsyssel": "Vendsyssel",
    "himmerland": "Himmerland",
    "aarhus": "Aarhus",
    "vestjylland": "Vestjylland",
    "trekanten": "Trekantområdet",
    "sonderjylland": "Sønderjylland",
    "odense": "Odense",
    "midtsjaelland": "Midtsjælland",
    "sydsjaelland": "Sydsjælland",
    "kobenhavn": "København",
    "nordsjaelland": "Nordsjælland",
}

CROATIAN_FIRST = [
    "Ana",
    "Ante",
    "Branka",
    "Damir",
    "Davor",
    "Dragica",
    "Goran",
    "Hrvoje",
    "Ivan",
    "Ivana",
    "Ivica",
    "Josip",
    "Jasna",
    "Katarina",
    "Kristina",
    "Krešimir",
    "Luka",
    "Marija",
    "Marko",
    "Mario",
    "Mirjana",
    "Nada",
    "Nikola",
    "Petar",
    "Sanja",
    "Snježana",
    "Stjepan",
    "Tomislav",
    "Vesna",
    "Zoran",
    "Željko",
    "Mladen",
]
CROATIAN_LAST = [
    "Horvat",
    "Kovačević",
    "Babić",
    "Marić",
    "Jurić",
    "Novak",
    "Kovačić",
    "Knežević",
    "Vuković",
    "Marković",
    "Petrović",
    "Matić",
    "Tomić",
    "Pavlović",
    "Kovač",
    "Božić",
    "Blažević",
    "Grgić",
    "Pavić",
    "Radić",
    "Perić",
    "Filipović",
    "Šarić",
    "Lovrić",
    "Vidović",
    "Perković",
    "Bošnjak",
    "Rukavina",
]
CROATIAN_CLUBS = (
    ("zagreb", "BK Zagreb"),
    ("zagreb", "BK Mladost Zagreb"),
    ("zagreb", "BK Trešnjevka"),
    ("zagreb", "BK Sesvete"),
    ("dalmacija", "BK Split"),
    ("dalmacija", "BK Zadar"),
    ("dalmacija", "BK Dubrovnik"),
    ("istra", "BK Pula"),
    ("istra", "BK Rijeka"),
    ("slavonija", "BK Osijek"),
    ("slavonija", "BK Vinkovci"),
    ("sjever", "BK Varaždin"),
)
CROATIAN_REGIONS = {
    "zagreb": "Zagreb",
    "dalmacija": "Dalmacija",
    "istra": "Istra i Kvarner",
    "slavonija": "Slavonija",
    "sjever": "Sjeverna Hrvatska",
}


@dataclass(frozen=True)
class DemoPlayer:
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
    """The ``index``-th demo player of a federation; the same index always gives the same player."""
    rng = random.Random(f"{SEED}-{scheme}-player-{index}")
    first, last = (DANISH_FIRST, DANISH_LAST) if scheme == "dbf" else (CROATIAN_FIRST, CROATIAN_LAST)
    roll = rng.random()
    status = "member" if roll < 0.9 else ("guest" if roll < 0.95 else "lapsed")
    paid = season_end if status == "member" else None
    club = rng.randrange(club_count)
    second = rng.randrange(club_count) if rng.random() < 0.15 else None
    return DemoPlayer(
        number=str((10001 if scheme == "dbf" else 1001) + index),
        first_name=rng.choice(first),
        last_name=rng.choice(last),
        birth_year=rng.randint(1935, 2008),
        status=status,
        dues_paid_until=paid,
        club_index=club,
        second_club_index=second if second != club else None,
        # Every other guest asked to be on the official list (HBS rule 4); no draw, so earlier players stay.
        listed_on_request=status == "guest" and index % 2 == 0,
    )


def demo_playing_times(scheme: str, club_index: int) -> list[tuple[int, str]]:
    """One to three weekly sessions (weekday 0 = Monday, part of day) for a club."""
    rng = random.Random(f"{SEED}-{scheme}-club-{club_index}-times")
    days = rng.sample(range(7), rng.randint(1, 3))
    return sorted((day, "afternoon" if day >= 5 else rng.choice(["evening", "evening", "afternoon"])) for day in days)


# --- a history of tournaments and awards (seed_demo --awards) -------------------------------------------


@dataclass(frozen=True)
class DemoHost:
    """Who can hold a demo tournament: a club (its playing weekdays) or a region (any weekend day).

    ``players`` are the ids of the players who take part there (a club's members, a region's clubs'
    members, or the whole federation).
    """

    organiser: str  # "club", "district" or "federation"
    index: int
    weekdays: tuple[int, ...]
    players: tuple[int, ...]


@dataclass(frozen=True)
class DemoEvent:
    """One planned tournament: pairs listed best first, each pair a couple of player ids."""

    host: DemoHost
    day: date
    category: str
    boards: int
    pairs: tuple[tuple[int, int], ...]


#: Per scheme: (organiser, category, share of events, smallest and largest field in pairs, boards).
DEMO_EVENT_MIX = {
    "dbf": (
        ("club", "BP", 0.93, 5, 30, 24),
        ("district", "SP", 0.06, 14, 60, 48),
        ("federation", "GP", 0.01, 24, 90, 56),
    ),
    "hbs": (
        ("club", "black", 0.85, 6, 24, 24),
        ("district", "red", 0.12, 10, 40, 40),
        ("federation", "master", 0.03, 16, 60, 52),
    ),
}


def demo_seasons(count: int, season_start: tuple[int, int], today: date) -> list[tuple[date, date]]:
    """The last ``count`` seasons up to ``today``, oldest first, each as (first day, last day ≤ today)."""
    month, day = season_start
    current = today.year if (today.month, today.day) >= (month, day) else today.year - 1
    seasons = []
    for year in range(current - count + 1, current + 1):
        start = date(year, month, day)
        end = min(date(year + 1, month, day) - timedelta(days=1), today)
        seasons.append((start, end))
    return seasons


def plan_season(
    scheme: str,
    season_index: int,
    bounds: tuple[date, date],
    hosts: dict[str, Sequence[DemoHost]],
    awards_wanted: int,
    paid_places: Callable[[str, str, int, int], int],
) -> list[DemoEvent]:
    """Tournaments of one season, in date order, until about ``awards_wanted`` awards are planned.

    Clubs are picked in proportion to their members, on one of their playing weekdays; fields follow a
    triangular distribution leaning towards small club nights. ``paid_places(organiser, category, pairs,
    boards)`` is the engine's number of paid places, so the count of awards is the engine's own.
    """
    rng = random.Random(f"{SEED}-{scheme}-season-{season_index}")
    start, end = bounds
    days = (end - start).days + 1
    # Only hosts with players enough for the smallest field of their kind of event hold one.
    able = {
        organiser: [h for h in hosts.get(organiser, ()) if len(h.players) >= 2 * smallest]
        for organiser, _category, _share, smallest, _largest, _boards in DEMO_EVENT_MIX[scheme]
    }
    mix = [row for row in DEMO_EVENT_MIX[scheme] if able[row[0]]]
    if not mix:
        return []
    weights = [row[2] for row in mix]
    host_weights = {organiser: _cumulative([len(h.players) for h in able[organiser]]) for organiser, *_ in mix}
    events: list[DemoEvent] = []
    planned = 0
    misses = 0
    while planned < awards_wanted and misses < 1000:
        organiser, category, _share, smallest, largest, boards = rng.choices(mix, weights)[0]
        host = rng.choices(able[organiser], cum_weights=host_weights[organiser])[0]
        pairs = min(len(host.players) // 2, round(rng.triangular(smallest, largest, smallest + 3)))
        if pairs < smallest:
            misses += 1
            continue
        day = start + timedelta(days=rng.randrange(days))
        if host.weekdays:
            day += timedelta(days=(host.weekdays[rng.randrange(len(host.weekdays))] - day.weekday()) % 7)
            if day > end:
                day -= timedelta(days=7)
            if day < start:
                misses += 1
                continue
        chosen = rng.sample(host.players, 2 * pairs)
        events.append(DemoEvent(host, day, category, boards, tuple(zip(chosen[0::2], chosen[1::2], strict=True))))
        planned += 2 * paid_places(organiser, category, pairs, boards)
    events.sort(key=lambda e: e.day)
    return events


def _cumulative(values: Sequence[int]) -> list[int]:
    total, out = 0, []
    for value in values:
        total += value
        out.append(total)
    return out


def demo_opening_balance(scheme: str, number: str) -> tuple[tuple[str, int], ...]:
    """The balance a demo player brings from the previous system (an opening-balance award per kind), or
    nothing for a newcomer (three in ten). Heavy-tailed, as real balances are: most players hold a little,
    a few a great deal. Units of each kind (1 BP, 0.1 SP, 0.01 GP; whole HBS points)."""
    rng = random.Random(f"{SEED}-{scheme}-opening-{number}")
    if rng.random() < 0.3:
        return ()
    if scheme == "dbf":
        mp = min(3000.0, rng.lognormvariate(2.5, 1.4))  # median about 12 MP
        bp = round(mp * rng.uniform(0.4, 0.8) * 100)
        sp = round(mp * rng.uniform(0.1, 0.4) * 100)
        gp = round(mp * rng.uniform(0.0, 0.25) * 100) if mp > 20 else 0
        balance = (("BP", bp), ("SP", sp), ("GP", gp))
    else:
        black = round(rng.lognormvariate(5.0, 1.2))  # median about 150 black points
        red = round(black * rng.uniform(0.05, 0.5)) if black > 400 else 0
        master = round(red * rng.uniform(0.02, 0.12)) if red > 150 else 0
        balance = (("black", black), ("red", red), ("master", master))
    return tuple((kind, units) for kind, units in balance if units > 0)

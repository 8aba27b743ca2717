"""Deterministic demo data: a Danish (DBf) and a Croatian (HBS) federation with plausible names.

Every record is derived from its own index with its own seeded generator, so a larger run keeps every
record of a smaller one unchanged and a second run finds everything in place (idempotent).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

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
    )


def demo_playing_times(scheme: str, club_index: int) -> list[tuple[int, str]]:
    """One to three weekly sessions (weekday 0 = Monday, part of day) for a club."""
    rng = random.Random(f"{SEED}-{scheme}-club-{club_index}-times")
    days = rng.sample(range(7), rng.randint(1, 3))
    return sorted((day, "afternoon" if day >= 5 else rng.choice(["evening", "evening", "afternoon"])) for day in days)

"""A generated history of a federation moving in (issue 38, part 3), as the old system would export it: the
three files of ``masterpoints.history`` and the totals they add up to. Its own fixed generator: the same bytes
for the same arguments. Used by ``bench/history.py`` and the history import's test."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

#: DBf's kinds and their decimals (1 BP, 0.1 SP, 0.01 GP): the files write points, not units.
KINDS = (("BP", 0), ("SP", 1), ("GP", 2))


@dataclass
class History:
    balances: bytes
    titles: bytes
    awards: bytes
    #: (number, kind) → the old system's balance in units.
    totals: dict[tuple[str, str], int]
    #: number → (title, stars, reached_on)
    held: dict[str, tuple[str, int, datetime.date]]
    award_count: int


def _points(units: int, decimals: int) -> str:
    if not decimals:
        return str(units)
    sign, units = ("-" if units < 0 else ""), abs(units)
    return f"{sign}{units // 10**decimals}.{units % 10**decimals:0{decimals}d}"


def history_files(
    *, numbers: list[str], awards: int, titles: list[tuple[str, int]], as_of: datetime.date, seed: int = 38
) -> History:
    """``awards`` historic awards spread over the players ``numbers`` (dates 1995 to the day before ``as_of``),
    each player's balance of each kind (its awards plus what the old system holds without detail), and a title
    of ``titles`` (the ladder's lowest rungs, as (title, stars)) for about a third of the players."""
    rng = random.Random(seed)
    totals: dict[tuple[str, str], int] = {}
    award_lines = ["number;date;tournament;kind;points"]
    first = datetime.date(1995, 1, 1).toordinal()
    last = (as_of - datetime.timedelta(days=1)).toordinal()
    for index in range(awards):
        number = numbers[index % len(numbers)]
        kind, decimals = KINDS[rng.randrange(3)]
        units = rng.randint(1, 60) * (10 if decimals == 2 else 1)
        day = datetime.date.fromordinal(rng.randint(first, last))
        award_lines.append(
            f"{number};{day.isoformat()};Turnering {rng.randrange(5000)};{kind};{_points(units, decimals)}"
        )
        totals[(number, kind)] = totals.get((number, kind), 0) + units
    balance_lines = ["number;kind;points"]
    for number in numbers:
        for kind, decimals in KINDS:
            units = totals.get((number, kind), 0) + rng.randint(0, 400)  # what the old system holds undetailed
            totals[(number, kind)] = units
            balance_lines.append(f"{number};{kind};{_points(units, decimals)}")
    title_lines = ["number;title;stars;reached_on"]
    held = {}
    for number in numbers:
        if rng.random() < 1 / 3:
            title, stars = titles[rng.randrange(len(titles))]
            day = datetime.date.fromordinal(rng.randint(first, last))
            held[number] = (title, stars, day)
            title_lines.append(f"{number};{title};{stars};{day.isoformat()}")

    def encoded(lines: list[str]) -> bytes:
        return ("\n".join(lines) + "\n").encode("utf-8")

    return History(encoded(balance_lines), encoded(title_lines), encoded(award_lines), totals, held, awards)

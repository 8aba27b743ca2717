"""How fast the DBf engine computes scales and whole tournaments (a script that prints figures, not a test).

    .venv/bin/python bench/engine.py            # every scale for N = 1…1000, all forms and categories
    .venv/bin/python bench/engine.py --quick    # N = 1…200 only

Prints, per form × category × organiser (organisers only where they change the scale: n2 for SP, the board
rule for GP), the time to compute every scale for N = 1…N_max, and the average per scale and per paid
place; then the time per 100-entry tournament with ties (BP club night, SP district event with n2 and an
irrational Q, and a BP team event with matches and a bonus).
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from masterpoints.engine.dbf import (
    Entry,
    Match,
    PairEvent,
    Part,
    Player,
    ScaleRequest,
    Section,
    Standing,
    TeamEvent,
    TeamSide,
    pair_event_awards,
    scale,
    team_event_awards,
)

#: (category, organiser, boards): BP per playing day; SP at a club (no n2) and at a district with 160
#: boards (n2 = 0.4, so D' = ⌈1.4·N⌉); GP from a club (54-board rule) and from DBf (no board rule, D-Q7).
SETTINGS = (
    ("BP", "club", 24),
    ("SP", "club", 48),
    ("SP", "district", 160),
    ("GP", "club", 56),
    ("GP", "federation", 40),
)
FORMS = ("pairs", "individual", "minihold")


def bench_scales(n_max: int) -> None:
    print(f"Every scale for N = 1…{n_max}")
    print(
        f"{'form':<11} {'category':<8} {'organiser':<11} {'scales':>6} {'places':>8} {'total s':>8} "
        f"{'ms/scale':>9} {'µs/place':>9}"
    )
    grand_time, grand_scales = 0.0, 0
    for form in FORMS:
        for category, organizer, boards in SETTINGS:
            places = 0
            start = time.perf_counter()
            for n in range(1, n_max + 1):
                request = ScaleRequest(form=form, category=category, participants=n, boards=boards, organizer=organizer)
                places += scale(request).places_paid
            elapsed = time.perf_counter() - start
            grand_time += elapsed
            grand_scales += n_max
            print(
                f"{form:<11} {category:<8} {organizer:<11} {n_max:>6} {places:>8} {elapsed:>8.2f} "
                f"{1000 * elapsed / n_max:>9.3f} {1e6 * elapsed / max(places, 1):>9.1f}"
            )
    print(f"all: {grand_scales} scales in {grand_time:.2f} s, {1000 * grand_time / grand_scales:.3f} ms per scale\n")


def tied_entries(n: int, boards: int) -> tuple[Entry, ...]:
    """n entries where every fifth pair of places is a tie: 1, 2, 3, 4, 5–6, 5–6, 7, …"""
    entries, place, i = [], 1, 0
    while len(entries) < n:
        if place % 5 == 0 and len(entries) + 2 <= n:
            for _ in range(2):
                i += 1
                players = (Player(f"e{i}a", boards), Player(f"e{i}b", boards))
                entries.append(Entry(f"e{i}", place, players, last=place + 1))
            place += 2
        else:
            i += 1
            entries.append(Entry(f"e{i}", place, (Player(f"e{i}a", boards), Player(f"e{i}b", boards))))
            place += 1
    return tuple(entries)


def team_event(teams: int = 100) -> TeamEvent:
    """A Monrad BP team event of 100 teams, 7 rounds, with a final standing that has ties."""
    matches = []
    for rnd in range(1, 8):
        for t in range(1, teams + 1, 2):
            home = TeamSide(f"T{t}", tuple(Player(f"T{t}p{k}", 24) for k in range(4)), vp=Fraction(15))
            away = TeamSide(f"T{t + 1}", tuple(Player(f"T{t + 1}p{k}", 24) for k in range(4)), vp=Fraction(5))
            matches.append(Match(f"r{rnd}/{t}", 24, home, away))
    standing = tuple(
        Entry(e.entry.replace("e", "T"), e.first, tuple(Player(f"{e.entry}{k}", 168) for k in range(4)), e.last, 168)
        for e in tied_entries(teams, 168)
    )
    return TeamEvent(
        "BP", "bp", matches=tuple(matches), standings=(Standing("final", standing, teams, 7, 24, format="monrad"),)
    )


def report(label: str, seconds: float, awards: int) -> None:
    per_award = 1e6 * seconds / awards
    print(f"  {label:<58} {1000 * seconds:8.2f} ms  ({awards} player awards, {per_award:.1f} µs each)")


def bench_tournaments(runs: int) -> None:
    print(f"One 100-entry tournament with ties (average of {runs} runs)")
    cases = {
        "BP pairs, club night, 100 pairs, 24 boards": PairEvent(
            "pairs", "BP", (Part("day 1", (Section("A", 100, 24, tied_entries(100, 24)),)),)
        ),
        "SP pairs, district, 100 pairs, 160 boards (n2, Q > 2/3)": PairEvent(
            "pairs", "SP", (Part("final", (Section("A", 100, 160, tied_entries(100, 160)),)),), organizer="district"
        ),
    }
    for label, event in cases.items():
        start = time.perf_counter()
        for _ in range(runs):
            awards = pair_event_awards(event)
        elapsed = (time.perf_counter() - start) / runs
        report(label, elapsed, len(awards))
    event = team_event()
    start = time.perf_counter()
    for _ in range(max(1, runs // 10)):
        awards = team_event_awards(event)
    elapsed = (time.perf_counter() - start) / max(1, runs // 10)
    label = "BP teams, Monrad, 100 teams, 7 rounds + bonus"
    report(label, elapsed, len(awards))


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    bench_scales(200 if quick else 1000)
    bench_tournaments(20 if quick else 100)


if __name__ == "__main__":
    main(sys.argv[1:])

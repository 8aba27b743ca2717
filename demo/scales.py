"""The engine's awards per place for a demo field: each distinct field is scored once by the scheme's engine.

A demo pairs tournament is scored as a field of ``pairs`` pairs who all played every board; the awards of
place *k* are the engine's for the pair placed *k*. Which engine API scores the field is the one thing
that differs per scheme here (:data:`_SCORERS`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal

from demo.profiles import DEMO_PROFILES
from federation.models import Federation
from federation.rulesets import rules_for
from masterpoints.engine.dbf import events as dbf_engine
from masterpoints.engine.hbs import events as hbs_engine

#: (units, explanation, part) of one place; units 0 (and no explanation) for an unpaid place.
Place = tuple[int, dict, str]


def _dbf_awards(rules, organiser: str, category: str, pairs: int, boards: int, strength: str | None) -> list:
    """The DBf engine's awards of a one-section pairs event (DBf events carry no strength)."""
    entries = tuple(
        dbf_engine.Entry(
            entry=f"e{i}",
            first=i,
            players=(dbf_engine.Player(f"e{i}#1", boards), dbf_engine.Player(f"e{i}#2", boards)),
        )
        for i in range(1, pairs + 1)
    )
    section = dbf_engine.Section(key="A", participants=pairs, boards=boards, entries=entries)
    event = dbf_engine.PairEvent(
        form="pairs", category=category, organizer=organiser, parts=(dbf_engine.Part(key="", sections=(section,)),)
    )
    return dbf_engine.pair_event_awards(event, rules)


def _hbs_awards(rules, organiser: str, category: str, pairs: int, boards: int, strength: str | None) -> list:
    """The HBS engine's awards of a pairs event of ``category`` at ``strength`` (the organiser plays no part)."""
    entries = tuple(
        hbs_engine.EventEntry(
            entry=f"e{i}", first=i, players=(hbs_engine.Participant(f"e{i}#1"), hbs_engine.Participant(f"e{i}#2"))
        )
        for i in range(1, pairs + 1)
    )
    kinds = (hbs_engine.KindAward(category, strength=Decimal(strength)),)
    return hbs_engine.event_awards(hbs_engine.Event(form="pairs", entries=entries, kinds=kinds, boards=boards), rules)


#: The engine API that scores a demo field, by scheme code.
_SCORERS: dict[str, Callable[..., list]] = {"dbf": _dbf_awards, "hbs": _hbs_awards}


class DemoScales:
    """The engine's awards per place for each (organiser, category, pairs, boards), computed once, under
    the federation's rules of today."""

    def __init__(self, federation: Federation) -> None:
        self.federation = federation
        self.rules = rules_for(federation, date.today())
        self._score = _SCORERS[federation.scheme]
        self._strength = DEMO_PROFILES[federation.scheme].event_strength
        self._cache: dict[tuple, list[Place]] = {}

    def places(self, organiser: str, category: str, pairs: int, boards: int) -> list[Place]:
        """(units, explanation, part) per place, best first, one per pair; units 0 beyond the paid
        places."""
        key = (organiser, category, pairs, boards)
        if key not in self._cache:
            self._cache[key] = self._compute(*key)
        return self._cache[key]

    def paid_places(self, organiser: str, category: str, pairs: int, boards: int) -> int:
        """How many places of such a field receive points."""
        return sum(1 for units, _e, _p in self.places(organiser, category, pairs, boards) if units)

    def _compute(self, organiser: str, category: str, pairs: int, boards: int) -> list[Place]:
        awards = self._score(self.rules, organiser, category, pairs, boards, self._strength)
        by_place = {int(a.entry[1:]): a for a in awards if a.player.endswith("#1")}
        out = []
        for place in range(1, pairs + 1):
            award = by_place.get(place)
            if award is None or not award.units:
                out.append((0, {}, ""))
            else:
                out.append((award.units, award.explanation.as_dict(), award.part[:100]))
        return out

"""The ladder in force on a date for one federation: DBf titles (§ 404), HBS categories (H-2).

The ladders themselves (the rung a player's balances reach under one rule set) are the engine's
(:mod:`masterpoints.engine.ladders`); which one applies is the rule set valid on the date, from the
scheme's built-in sets and the federation's own dated rule sets (:func:`federation.rulesets.rules_for`).
"""

from __future__ import annotations

import bisect
import datetime

from federation.models import Federation
from federation.rulesets import rules_for
from federation.schemes import scheme_of
from masterpoints.engine.ladders import DbfLadder, HbsLadder

#: A scheme's ladder under one rule set: ``rungs``, ``rung_of(number)``, ``computed(balances)``, ``rules``.
SchemeLadder = DbfLadder | HbsLadder


class LadderBook:
    """The ladder in force on any date for one federation, resolved once per rule-set period.

    A player's title is judged by the rule set valid on the date of their latest award: fixed by the
    ledger, so every recomputation agrees. History older than the first rule set is judged by the first.
    """

    def __init__(self, federation: Federation) -> None:
        self.federation = federation
        self.info = scheme_of(federation)
        starts = {rules.valid_from for rules in self.info.built_in}
        starts |= set(federation.rule_sets.values_list("valid_from", flat=True))
        self._starts = sorted(starts)
        self._ladders: dict[datetime.date, SchemeLadder] = {}

    def on(self, day: datetime.date | None) -> SchemeLadder:
        """The ladder of the rule set valid on ``day`` (``None`` or a day before every rule set: the first)."""
        index = bisect.bisect_right(self._starts, day) - 1 if day is not None else -1
        start = self._starts[max(index, 0)]
        if start not in self._ladders:
            self._ladders[start] = self.info.ladder(rules_for(self.federation, start))
        return self._ladders[start]

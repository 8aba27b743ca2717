"""The ladder in force on a date for one federation: DBf titles (§ 404), HBS categories (H-2).

The ladders themselves (the rung a player's balances reach under one rule set) are the engine's
(:mod:`masterpoints.engine.ladders`); which one applies is the rule set valid on the date, from the
scheme's built-in sets and the federation's own dated rule sets (:func:`federation.rulesets.rules_for`).
"""

from __future__ import annotations

import bisect
import datetime
from collections.abc import Iterable, Sequence

from federation.models import Federation
from federation.rulesets import rules_among
from federation.schemes import Ladder, scheme_of


class LadderBook:
    """The ladder in force on any date for one federation, resolved once per rule-set period.

    A player's title is judged by the rule set valid on the date of their latest award: fixed by the
    ledger, so every recomputation agrees. History older than the first rule set is judged by the first.
    """

    def __init__(self, federation: Federation) -> None:
        self.federation = federation
        self.info = scheme_of(federation)
        # Read once (every period's rules are built from them), in no order: the model's joins the federations.
        self._rows = list(federation.rule_sets.order_by())
        starts = {rules.valid_from for rules in self.info.built_in} | {row.valid_from for row in self._rows}
        self._starts = sorted(starts)
        self._ladders: dict[datetime.date, Ladder] = {}

    def on(self, day: datetime.date | None) -> Ladder:
        """The ladder of the rule set valid on ``day`` (``None`` or a day before every rule set: the first)."""
        index = bisect.bisect_right(self._starts, day) - 1 if day is not None else -1
        start = self._starts[max(index, 0)]
        if start not in self._ladders:
            self._ladders[start] = self.info.ladder(rules_among(self.federation, start, self._rows))
        return self._ladders[start]

    def first_day_reaching(
        self, days: Iterable[tuple[datetime.date, Sequence[int]]], rung: int
    ) -> datetime.date | None:
        """The first day whose balances reach ``rung``, judged by the ladder in force that day (D-Q21).

        § 404A: "Spillere med et vist antal vundne MP opnår en mestertitel efter registrering": the title is
        gained on the day the registration made the total reach the threshold. ``days`` are the player's
        registration days in order (the days entries were written to the ledger), each with the balances
        after every entry registered that day (a day's entries count together, reversals and corrections on
        the day they were registered); the § 404B revaluation is checked on each day's balances, as the
        ladder does. The first such day counts even when later entries took points back, because a title
        once reached is never lost (§ 404, H-2). ``None`` when no day reaches it.

        HBS categories by the same mechanism: the rules attach a category to nothing but the points
        registered ("Za prijavu bodova odgovoran je organizator natjecanja", rule 1; "Na temelju dobivenih
        rezultata (broja crvenih i majstorskih poena) dodijelit će se nove kategorije", transition rule 7;
        the table gives minimums only), so a category is gained on the day the reported points meet its
        minimums (H-2, D-Q21)."""
        for day, balances in days:
            if self.on(day).computed(balances) >= rung:
                return day
        return None

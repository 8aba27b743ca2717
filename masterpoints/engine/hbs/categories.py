"""HBS categories: the ladder of ``hbs.md`` read as H-2, from a player's black, red and master points.

H-2: the category is the highest row of the table (table order, lowest first) whose every stated minimum
is met; the empty black cells read "2000, as above" (the literal reading is the rule set's setting
``empty_black_cells = "no_minimum"``); empty red and master cells mean no minimum. A category the caller
holds (H-24: one transition rule 4 kept) is kept: the category shown is the higher of the computed and the held
one. "Next" is the next row in
table order, and also the cheapest higher row when that is a different one. The kinds never convert
into each other: every missing amount is needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from masterpoints.engine.common import Explanation, Number, RequestError
from masterpoints.engine.hbs.rules import HBS_DRAFT, KINDS, HbsRuleSet

NO_CATEGORY = "bez kategorije"


@dataclass(frozen=True)
class NextCategory:
    """A higher row and what is still missing for it, per kind (whole points, never negative)."""

    category: str
    missing: tuple[tuple[str, int], ...]

    def missing_of(self, kind: str) -> int:
        return dict(self.missing)[kind]

    @property
    def total_missing(self) -> int:
        return sum(amount for _, amount in self.missing)


@dataclass(frozen=True)
class CategoryStatus:
    """A player's category (H-2).

    ``category`` is the category shown (bare Croatian name in lower case, ``None`` = bez kategorije): the
    higher of ``computed`` (from the points) and ``held``. ``next`` is the next row in table order
    (``None`` at the top); ``cheapest`` the higher row with the fewest points missing in total, set only
    when it is not ``next``.
    """

    category: str | None
    computed: str | None
    held: str | None
    next: NextCategory | None
    cheapest: NextCategory | None
    explanation: Explanation

    @property
    def label(self) -> str:
        return self.category or NO_CATEGORY


def category_for(
    black: Number, red: Number, master: Number, rules: HbsRuleSet = HBS_DRAFT, held: str | None = None
) -> CategoryStatus:
    """The category of a player with these balances under ``rules`` (H-2), never below ``held``.

    Raises :class:`RequestError` for a negative balance or a held category not in the table.
    """
    balances = {"black": Fraction(black), "red": Fraction(red), "master": Fraction(master)}
    for kind, value in balances.items():
        if value < 0:
            raise RequestError(kind, f"'{kind}' must not be negative, not {value}")
    table = rules.category_minimums()
    names = [row[0] for row in table]
    if held is not None and held not in names:
        raise RequestError("held", f"unknown category {held!r}; the table has {', '.join(names)}")

    computed_index = -1
    for index, (_name, *minimums) in enumerate(table):
        if all(balances[kind] >= minimum for kind, minimum in zip(KINDS, minimums, strict=True)):
            computed_index = index
    held_index = names.index(held) if held is not None else -1
    shown = max(computed_index, held_index)

    def need(index: int) -> NextCategory:
        name, *minimums = table[index]
        return NextCategory(
            name,
            tuple(
                (kind, max(0, math.ceil(minimum - balances[kind])))
                for kind, minimum in zip(KINDS, minimums, strict=True)
            ),
        )

    higher = [need(index) for index in range(shown + 1, len(table))]
    nxt = higher[0] if higher else None
    cheapest = None
    if higher:
        # Fewest points missing in total; of equally cheap rows the higher one (it gives more for the same).
        best = min(range(len(higher)), key=lambda i: (higher[i].total_missing, -i))
        cheapest = higher[best] if best != 0 else None

    computed = names[computed_index] if computed_index >= 0 else None
    inputs = [(kind, str(balances[kind])) for kind in KINDS]
    inputs.append(("empty black cells", rules.empty_black_cells))
    if held is not None:
        inputs.append(("held", held))
    inputs.append(("computed", computed or NO_CATEGORY))
    return CategoryStatus(
        category=names[shown] if shown >= 0 else None,
        computed=computed,
        held=held,
        next=nxt,
        cheapest=cheapest,
        explanation=Explanation(("H-2",), tuple(inputs)),
    )

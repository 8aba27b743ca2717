"""The ladders: the rung a player's balances reach under one rule set, as pure integer rules.

DBf: the highest § 404A title whose condition holds, with the § 404B–C revaluation check multiplied out
into whole hundredths of MP (a property test pins it to :func:`masterpoints.engine.dbf.titles.title_rank`).
HBS: the highest row of the category table whose every minimum is met (H-2).

Both ladders take balances in integer units (DBf: whole BP, tenths of SP, hundredths of GP; HBS: whole
black, red and master points) and number their rungs from 1 (the lowest); 0 is no rung.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from masterpoints.engine.dbf.rules import DbfRuleSet, TitleRung
from masterpoints.engine.dbf.titles import Balance, holds
from masterpoints.engine.hbs.rules import HbsRuleSet


@dataclass(frozen=True)
class Rung:
    """One step of a ladder: ``rung`` 1 is the lowest; ``title`` the title or category name; ``etui`` what
    its holder receives in the club (DBf § 404A "Modtager", D-Q22; empty where the rule set names none, as
    HBS's categories)."""

    rung: int
    title: str
    stars: int = 0
    etui: str = ""


def _units(value: Fraction) -> int | None:
    """MP as whole hundredths, or ``None`` when the amount is not a whole number of hundredths."""
    scaled = Fraction(value) * 100
    return scaled.numerator if scaled.denominator == 1 else None


Check = Callable[[int, int, int], bool]


def _sg_check(x: int, m: int, a: int) -> Check:
    """§ 404B SGcheck in hundredths of MP: SP+GP ≥ m after revaluing missing SP from BP (a BP per SP)."""

    def check(bp: int, sp: int, gp: int) -> bool:
        need = max(0, m - (sp + gp))  # MP missing in SP+GP, in hundredths
        # BP used = need/10 SP × a; loss = need × (a − 10)/10 hundredths of MP.
        return need * a <= 10 * bp and 10 * (bp + sp + gp) - need * (a - 10) >= 10 * x

    return check


def _g_check(x: int, m: int, a: int, b: int) -> Check:
    """§ 404C Gcheck in hundredths of MP: GP ≥ m after revaluing SP (b per GP) and BP (a per SP)."""

    def check(bp: int, sp: int, gp: int) -> bool:
        g_need = max(0, m - gp)  # GP missing, in hundredths
        short = max(0, g_need * b - 10 * sp)  # SP missing for that, in hundredths of SP
        # BP used = short/100 × a; losses: g_need × (b − 10)/10 and short × (a − 10)/100 hundredths of MP.
        return short * a <= 100 * bp and 100 * (bp + sp + gp) - 10 * g_need * (b - 10) - short * (a - 10) >= 100 * x

    return check


def _dbf_check(rung: TitleRung, rules: DbfRuleSet) -> tuple[int, Check]:
    """(least total in hundredths of MP, check(bp, sp, gp)) of one § 404A rung, in integer arithmetic.

    Units: bp whole BP, sp tenths of SP, gp hundredths of GP, so each unit is 0.01 MP (§ 402) and
    T = bp + sp + gp. A rung whose amounts are not whole hundredths of MP falls back to the exact ``holds``.
    """
    x, m = _units(rung.total), _units(rung.minimum)
    alt = None if rung.alternative_total is None else _units(rung.alternative_total)
    a, b = rules.bp_per_sp, rules.sp_per_gp
    whole = (
        x is not None
        and m is not None
        and (rung.alternative_total is None or alt is not None)
        and isinstance(a, int)
        and isinstance(b, int)
    )
    if not whole:
        floor = int(Fraction(rung.total) * 100)
        return floor, lambda bp, sp, gp: holds(rung, Balance(bp, sp, gp), rules)
    if rung.basis == "total":
        return x, lambda bp, sp, gp: bp + sp + gp >= x
    if rung.basis == "bp_only":
        if rules.kun_bp_literal:
            return x, lambda bp, sp, gp: bp >= x  # D-Q11: only BP count
        return x, lambda bp, sp, gp: bp + sp + gp >= x
    if rung.basis == "sp_gp_or_total":
        return x, lambda bp, sp, gp: bp + sp + gp >= x and (sp + gp >= m or (alt is not None and bp + sp + gp >= alt))
    if rung.basis == "sp_gp":
        return x, _sg_check(x, m, a)
    if rung.basis == "gp":
        return x, _g_check(x, m, a, b)
    raise ValueError(f"unknown title basis {rung.basis!r}")


class DbfLadder:
    """The § 404A titles of one DBf rule set."""

    def __init__(self, rules: DbfRuleSet) -> None:
        self.rules = rules
        self.rungs = tuple(Rung(i, r.title, r.stars, r.etui) for i, r in enumerate(rules.titles, start=1))
        self._checks = [_dbf_check(rung, rules) for rung in rules.titles]
        floors = [floor for floor, _check in self._checks]
        # Rungs with a floor above T can never hold (§ 404C3): the search starts at the highest rung whose
        # floor T reaches (when floors rise up the ladder, as in every rule set; else at the top).
        self._floors = floors if floors == sorted(floors) else None

    def rung_of(self, number: int) -> Rung | None:
        return self.rungs[number - 1] if 1 <= number <= len(self.rungs) else None

    def computed(self, balances: Sequence[int]) -> int:
        """The title rung (0 = none) of ``(bp, sp, gp)``; negative balances count as 0 (§ 404A)."""
        a, b, c = (max(value, 0) for value in balances)
        total = a + b + c
        # The title is the highest rung whose condition holds (§ 404A): try from the top. Every rung needs
        # T ≥ its total (§ 404C3), a cheap test that spares most players the revaluation checks.
        top = len(self._checks) if self._floors is None else bisect.bisect_right(self._floors, total)
        for index in range(top - 1, -1, -1):
            floor, check = self._checks[index]
            if floor <= total and check(a, b, c):
                return index + 1
        return 0

    def measures(self, number: int, balances: Sequence[int]) -> list[tuple[int, Fraction]]:
        """(have, needed) for rung ``number`` from ``(bp, sp, gp)``: the total in hundredths of MP against the
        title's total T (§ 404A, § 404C3), the one amount every title's conditions start from."""
        return [(sum(balances), Fraction(self.rules.titles[number - 1].total) * 100)]


class HbsLadder:
    """The H-2 categories of one HBS rule set."""

    def __init__(self, rules: HbsRuleSet) -> None:
        self.rules = rules
        self._table = rules.category_minimums()
        self.rungs = tuple(Rung(i, row[0]) for i, row in enumerate(self._table, start=1))

    def rung_of(self, number: int) -> Rung | None:
        return self.rungs[number - 1] if 1 <= number <= len(self.rungs) else None

    def computed(self, balances: Sequence[int]) -> int:
        """The category rung (0 = none) of ``(black, red, master)``: the highest row whose every minimum is
        met (H-2); negative balances count as 0."""
        a, b, c = (max(value, 0) for value in balances)
        found = 0
        for index, (_name, black, red, master) in enumerate(self._table, start=1):
            if a >= black and b >= red and c >= master:
                found = index
        return found

    def measures(self, number: int, balances: Sequence[int]) -> list[tuple[int, Fraction]]:
        """(have, needed) for rung ``number`` from ``(black, red, master)``: each kind against the row's
        minimum of it (H-2: the kinds never convert)."""
        _name, *minimums = self._table[number - 1]
        return [(have, Fraction(minimum)) for have, minimum in zip(balances, minimums, strict=True)]

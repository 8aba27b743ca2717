"""Titles from the three balances, with the BP→SP→GP revaluation check (§ 404; ``dbf.md`` § 2.15).

Balances are integer units: BP whole, SP in tenths, GP in hundredths, so one unit of each kind is
0.01 MP and the total in hundredths of MP is simply their sum. The revaluation (§ 404B) is a check only:
balances are never changed (§ 404C). It is the minimal, continuous revaluation: 20 BP count as 1 SP and
20 SP as 1 GP, and only what is missing is revalued.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil

from masterpoints.engine.common import Explanation, RequestError, format_units
from masterpoints.engine.dbf.rules import DBF_2023, DbfRuleSet, TitleRung
from masterpoints.engine.dbf.scale import fmt

KINDS: tuple[str, ...] = ("BP", "SP", "GP")
_DECIMALS = {"BP": 0, "SP": 1, "GP": 2}
#: Searching further than this many units means that kind alone never reaches the title.
_SEARCH_LIMIT = 10**13


@dataclass(frozen=True)
class Balance:
    """A player's balances in integer units: ``bp`` BP, ``sp`` tenths of SP, ``gp`` hundredths of GP."""

    bp: int = 0
    sp: int = 0
    gp: int = 0

    def __post_init__(self) -> None:
        for kind in ("bp", "sp", "gp"):
            value = getattr(self, kind)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RequestError(kind, f"'{kind}' must be a whole number of units")
            if value < 0:
                raise RequestError(kind, f"a balance cannot be negative ({kind} = {value})")

    @property
    def total_units(self) -> int:
        """T in hundredths of MP: 1 BP = 0.1 SP = 0.01 GP = 0.01 MP (§ 402)."""
        return self.bp + self.sp + self.gp

    def plus(self, kind: str, units: int) -> Balance:
        return Balance(
            self.bp + (units if kind == "BP" else 0),
            self.sp + (units if kind == "SP" else 0),
            self.gp + (units if kind == "GP" else 0),
        )


@dataclass(frozen=True)
class NextTitle:
    """The title above the current one and, for each kind alone, the least units that reach it or a higher
    title (``None`` where that kind alone never does)."""

    title: str
    stars: int
    missing: tuple[tuple[str, int | None], ...]
    #: For each kind, the title its missing amount actually reaches: ``(title, stars)``, or ``None`` where
    #: that kind alone never does. It is higher than ``title`` where the rung above is reached only one way
    #: (Klubmester ★★ by BP alone, D-Q11) and another title needs less of that kind.
    reaches: tuple[tuple[str, tuple[str, int] | None], ...] = ()

    def missing_amounts(self) -> dict[str, str | None]:
        return {
            kind.lower(): (None if units is None else format_units(units, _DECIMALS[kind]))
            for kind, units in self.missing
        }

    def reached_titles(self) -> dict[str, dict[str, str | int] | None]:
        """``{"bp": {"title": ..., "stars": ...}, ...}``: what each kind's missing amount reaches."""
        return {
            kind.lower(): (None if reached is None else {"title": reached[0], "stars": reached[1]})
            for kind, reached in self.reaches
        }


@dataclass(frozen=True)
class TitleStatus:
    title: str | None
    stars: int
    rank: int
    total_units: int
    next: NextTitle | None
    explanation: Explanation

    @property
    def total_mp(self) -> str:
        return format_units(self.total_units, 2)


def _mp(balance: Balance) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(Bc in BP, Sc in SP, Gc in GP, T in MP) as exact numbers."""
    bc = Fraction(balance.bp)
    sc = Fraction(balance.sp, 10)
    gc = Fraction(balance.gp, 100)
    return bc, sc, gc, Fraction(balance.total_units, 100)


def _hundredths(amount: Fraction) -> int | Fraction:
    """``amount`` MP in hundredths of MP, the balances' unit: a whole number where the rule's amount has at
    most two decimals (every amount of § 404A), else the exact fraction; comparing either with integer units
    is exact."""
    value = amount * 100
    return value.numerator if value.denominator == 1 else value


@dataclass(frozen=True)
class _Bar:
    """A rung's amounts in hundredths of MP (:func:`_hundredths`), worked out once per rung."""

    total: int | Fraction
    minimum: int | Fraction
    alternative: int | Fraction | None


#: What is worked out once per rung (its bar) and per rule set (its rungs' totals), by the object's identity
#: (kept with the object, so an id is never another's): hashing a rung hashes its fractions, which cost more
#: than the judgement (a player's page judges about 200 balances).
_kept: dict[int, tuple[object, object]] = {}


def _by_identity(source, build):
    found = _kept.get(id(source))
    if found is not None and found[0] is source:
        return found[1]
    value = build(source)
    if len(_kept) >= 256:  # rule sets read again (a ladder book per process and 5 minutes) leave old rungs
        _kept.clear()
    _kept[id(source)] = (source, value)
    return value


def _measured(rung: TitleRung) -> _Bar:
    alternative = rung.alternative_total
    return _Bar(
        _hundredths(rung.total),
        _hundredths(rung.minimum),
        None if alternative is None else _hundredths(alternative),
    )


def _bar(rung: TitleRung) -> _Bar:
    return _by_identity(rung, _measured)


def _totals(rules: DbfRuleSet) -> tuple[int | Fraction, ...]:
    """Each rung's total T in hundredths of MP, in the ladder's order."""
    return _by_identity(rules, lambda ruleset: tuple(_bar(rung).total for rung in ruleset.titles))


def _sg_holds(balance: Balance, minimum, total, rules: DbfRuleSet) -> bool:
    """:func:`sg_check` in units (``minimum`` and ``total`` in hundredths of MP): ``need`` units of SP+GP are
    missing, ``need × bp_per_sp / 10`` BP become ``need / 10`` SP, losing ``need × (bp_per_sp − 10) / 1000``
    MP; both conditions multiplied out to whole numbers."""
    need = max(0, minimum - (balance.sp + balance.gp))
    return need * rules.bp_per_sp <= 10 * balance.bp and (
        10 * balance.total_units - need * (rules.bp_per_sp - 10) >= 10 * total
    )


def _g_holds(balance: Balance, minimum, total, rules: DbfRuleSet) -> bool:
    """:func:`g_check` in units: ``g_need`` hundredths of GP are missing, taken from ``g_need × sp_per_gp / 10``
    tenths of SP; of those, ``short`` hundredths of SP are not there and come from ``short × bp_per_sp / 100``
    BP. The loss, ``(10·g_need·(sp_per_gp − 10) + short·(bp_per_sp − 10)) / 10000`` MP, is multiplied out."""
    g_need = max(0, minimum - balance.gp)
    short = max(0, g_need * rules.sp_per_gp - 10 * balance.sp)
    loss = 10 * g_need * (rules.sp_per_gp - 10) + short * (rules.bp_per_sp - 10)
    return short * rules.bp_per_sp <= 100 * balance.bp and 100 * balance.total_units - loss >= 100 * total


def sg_check(balance: Balance, minimum: Fraction, total: Fraction, rules: DbfRuleSet = DBF_2023) -> bool:
    """SGcheck (§ 404B1, C1): the MP missing in SP+GP come from BP at 20 BP per SP; what remains counts.

    ``need = max(0, req − SG)``; holds when the BP to revalue exist and T − loss ≥ threshold, the loss
    being 0.1 MP per SP gained (20 BP = 0.2 MP become 1 SP = 0.1 MP). Worked in whole units
    (:func:`_sg_holds`): the same conditions, exactly.
    """
    return _sg_holds(balance, _hundredths(minimum), _hundredths(total), rules)


def g_check(balance: Balance, minimum: Fraction, total: Fraction, rules: DbfRuleSet = DBF_2023) -> bool:
    """Gcheck (§ 404B1–2, C2–C5): GP missing come from SP at 20 SP per GP, SP missing for that from BP at
    20 BP per SP; holds when T minus both losses still reaches the threshold (in whole units:
    :func:`_g_holds`)."""
    return _g_holds(balance, _hundredths(minimum), _hundredths(total), rules)


def holds(rung: TitleRung, balance: Balance, rules: DbfRuleSet = DBF_2023) -> bool:
    """Whether ``balance`` meets ``rung`` (thresholds inclusive, § 404C3). Compared in units: a player page
    and every standings change judge many balances, and fractions cost tens of times more.

    D-Q11, decided (§ 404A "1★ Klubmester 5 MP (kun BP)", "2★ Klubmester 20 MP (kun BP)"; the same column gives
    "Distriktsmester 15 MP (min. 5 MP i SP eller GP, eller min. 30 MP i alt)"): the bracket of that column says
    which MP the row's figure counts, so "kun BP" reads "only BP": Bc/100 ≥ 5 and ≥ 20. Where the book means MP
    of every kind it says so ("min. 30 MP i alt"), and where BP alone suffice it writes "Med udelukkende BP
    bliver man …" (§ 404C3–5), neither of which it writes here. A player with SP or GP goes on from Klubmester
    by § 404A's next row (15 MP with 5 MP in SP or GP). The rule set's ``kun_bp_literal`` (on by default) keeps
    the other reading (total MP, no SP/GP minimum) for the federation to choose; vector D-N1 (500 BP: 2★ needs
    1,500 BP, while 100.0 SP reach Distriktsmester) agrees with this reading."""
    bar = _bar(rung)
    total = balance.total_units
    if rung.basis == "total":
        return total >= bar.total
    if rung.basis == "bp_only":
        # D-Q11 (decided above): "5 MP (kun BP)" counts only BP; the rule set may choose total MP.
        return (balance.bp if rules.kun_bp_literal else total) >= bar.total
    if rung.basis == "sp_gp_or_total":
        alternative = bar.alternative
        return total >= bar.total and (
            balance.sp + balance.gp >= bar.minimum or (alternative is not None and total >= alternative)
        )
    if rung.basis == "sp_gp":
        return _sg_holds(balance, bar.minimum, bar.total, rules)
    if rung.basis == "gp":
        return _g_holds(balance, bar.minimum, bar.total, rules)
    raise ValueError(f"unknown title basis {rung.basis!r}")


def title_rank(balance: Balance, rules: DbfRuleSet = DBF_2023) -> int:
    """1 + the index of the highest rung held, 0 for no title: the player holds the **highest** title whose
    condition holds (§ 404A)."""
    rank = 0
    for index, rung in enumerate(rules.titles, start=1):
        if holds(rung, balance, rules):
            rank = index
    return rank


def _reaches(balance: Balance, target_rank: int, rules: DbfRuleSet) -> bool:
    """``title_rank(balance) >= target_rank``, without judging the rungs below the target, nor those whose
    total T the balance does not reach (none of them holds where the revaluation never adds MP, see
    :func:`_fewest_missing`; a search for what is missing judges about thirty balances a kind)."""
    above = rules.titles[target_rank - 1 :]
    if rules.bp_per_sp >= 10 and rules.sp_per_gp >= 10:
        total = balance.total_units
        above = [rung for rung, bar in zip(above, _totals(rules)[target_rank - 1 :], strict=True) if bar <= total]
    return any(holds(rung, balance, rules) for rung in above)


def _fewest_missing(balance: Balance, target_rank: int, rules: DbfRuleSet) -> int:
    """A lower bound of :func:`missing_units`: every condition of § 404A needs T ≥ the rung's total, since
    the revaluation never adds MP (20 BP = 0.2 MP become 1 SP = 0.1 MP, § 404B), and units of any kind add
    to T one hundredth each; so fewer units than the smallest shortfall of T reach no rung at or above
    ``target_rank``. 0 (no bound) for a rule set whose rates would let a revaluation gain MP."""
    if rules.bp_per_sp < 10 or rules.sp_per_gp < 10:
        return 0
    totals = [rung.total for rung in rules.titles[target_rank - 1 :]]
    return max(0, ceil(min(totals) * 100 - balance.total_units)) if totals else 0


def missing_units(balance: Balance, kind: str, target_rank: int, rules: DbfRuleSet = DBF_2023) -> int | None:
    """The least whole units of ``kind`` alone that bring ``balance`` to ``target_rank`` or higher, or
    ``None``. Each condition is monotone in each balance, so a search that doubles its step from the lower
    bound of :func:`_fewest_missing`, then halves, is exact (the bound itself reaches most rungs: one
    judgement where a search from 1 took about 26)."""
    if _reaches(balance, target_rank, rules):
        return 0
    low = max(0, _fewest_missing(balance, target_rank, rules) - 1)  # fails: below the bound, or 0
    step = 1
    high = low + step
    while not _reaches(balance.plus(kind, high), target_rank, rules):
        low, step = high, step * 2
        high = low + step
        if high > _SEARCH_LIMIT:
            return None
    while high - low > 1:
        mid = (low + high) // 2
        if _reaches(balance.plus(kind, mid), target_rank, rules):
            high = mid
        else:
            low = mid
    return high


def reached_with(balance: Balance, kind: str, units: int | None, rules: DbfRuleSet) -> tuple[str, int] | None:
    """The title ``units`` more of ``kind`` give (§ 404A: the highest whose condition holds)."""
    if units is None:
        return None
    rank = title_rank(balance.plus(kind, units), rules)
    rung = rules.titles[rank - 1]
    return (rung.title, rung.stars)


def title_for(bp: int, sp: int, gp: int, rules: DbfRuleSet = DBF_2023) -> TitleStatus:
    """The title of a player with ``bp`` BP, ``sp`` tenths of SP and ``gp`` hundredths of GP (§ 404), and
    what is missing for the next one in BP, SP and GP terms (``dbf.md`` § 2.15)."""
    balance = Balance(bp, sp, gp)
    rank = title_rank(balance, rules)
    ladder = rules.titles
    current = ladder[rank - 1] if rank else None
    following = None
    if rank < len(ladder):
        rung = ladder[rank]
        missing = tuple((kind, missing_units(balance, kind, rank + 1, rules)) for kind in KINDS)
        reaches = tuple((kind, reached_with(balance, kind, units, rules)) for kind, units in missing)
        following = NextTitle(rung.title, rung.stars, missing, reaches)
    bc, sc, gc, t = _mp(balance)
    inputs = [("BP", fmt(bc)), ("SP", fmt(sc)), ("GP", fmt(gc)), ("T", fmt(t)), ("SG", fmt(sc / 10 + gc))]
    rule_ids = ["§ 404A", "§ 404B", "§ 404C"]
    if (current is not None and current.basis == "bp_only") or (
        following is not None and ladder[rank].basis == "bp_only"
    ):
        rule_ids.append("D-Q11")
    expl = Explanation(tuple(rule_ids), tuple(inputs))
    return TitleStatus(
        current.title if current else None,
        current.stars if current else 0,
        rank,
        balance.total_units,
        following,
        expl,
    )

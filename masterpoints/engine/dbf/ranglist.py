"""DBf's ranking list ("ranglisten"): the MP of the last three years, the older ones weighted less.

DBf publishes the list beside the lifetime points and explains it on its own site (not in the rule book):
the MP registered in the last 12 months count fully, those registered 12–24 months ago half, 24–36 months
ago a third, and the sum is multiplied by 6 and divided by 11 so that it reads as MP per year (a player who
registers the same MP every year stands at exactly that figure: (1 + 1/2 + 1/3) · 6/11 = 1).

Pure and exact: amounts are integer hundredths of MP (every DBf unit is 0.01 MP, § 402: 1 MP = 1 GP =
10 SP = 100 BP, D-Q56), weights are ``Fraction``; the registration days come in, no clock is read.

Readings (D-Q57, D-Q59): a day is registered "within the last 12 months" of ``today`` when it lies after
the same calendar day one year before (``today`` minus one year; 29 February steps back to 28 February);
12–24 months and 24–36 months alike, each period exactly one calendar year long. So on 1 December 2026 an
award registered on 1 December 2025 (exactly 12 months ago) counts half, one of 1 December 2023 (exactly
36 months ago) no longer counts, and one of 2 December 2023 a third. Calendar years, not 365 days: the
periods then never drift against the calendar, and a leap year's period is 366 days long.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property


@dataclass(frozen=True)
class RankingListRule:
    """The weights of the periods, newest first (each one calendar year), and the factor on their sum."""

    weights: tuple[Fraction, ...]
    scale: Fraction

    @cached_property
    def denominator(self) -> int:
        """The smallest integer that makes every weighted amount of whole hundredths whole: the stored
        figure is the figure in hundredths of MP times this (DBf: 11; D-Q60)."""
        return math.lcm(*((weight * self.scale).denominator for weight in self.weights))

    @cached_property
    def multipliers(self) -> tuple[int, ...]:
        """Each period's weight times the scale and :attr:`denominator`, whole (DBf: 6, 3, 2), so that a
        figure is summed in integers and divided once."""
        return tuple(int(weight * self.scale * self.denominator) for weight in self.weights)


#: DBf's list: 1, 1/2 and 1/3 for the three years, times 6/11 (DBf's own explanation of "ranglisten").
DBF_RANKING_LIST = RankingListRule(weights=(Fraction(1), Fraction(1, 2), Fraction(1, 3)), scale=Fraction(6, 11))


@dataclass(frozen=True)
class RankingFigure:
    """A player's figure on ``today``: exact, in hundredths of MP, and the first later day on which it would
    change with no new award (an award moving into an older period or out of the list); ``None``: never."""

    hundredths: Fraction
    changes_on: datetime.date | None


def years_before(day: datetime.date, years: int) -> datetime.date:
    """The same calendar day ``years`` years earlier; 29 February becomes 28 February in a common year."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def period_bounds(today: datetime.date, periods: int) -> list[datetime.date]:
    """The periods' older ends on ``today``: period k holds the days after ``today`` minus k + 1 years."""
    return [years_before(today, period + 1) for period in range(periods)]


def period_in(registered: datetime.date, bounds: list[datetime.date]) -> int | None:
    """The period (0 = the last 12 months) ``registered`` lies in, by :func:`period_bounds`; ``None``: older
    than all (D-Q57: a day exactly k years back lies in period k)."""
    return next((period for period, bound in enumerate(bounds) if registered > bound), None)


def period_of(registered: datetime.date, today: datetime.date, periods: int) -> int | None:
    """The period ``registered`` lies in on ``today`` (:func:`period_in` of that day's bounds)."""
    return period_in(registered, period_bounds(today, periods))


def first_day_in_period(registered: datetime.date, period: int) -> datetime.date:
    """The first day on which ``registered`` lies in ``period`` or an older one: the smallest ``t`` with
    ``years_before(t, period) >= registered``."""
    try:
        candidate = registered.replace(year=registered.year + period)
    except ValueError:  # 29 February into a common year
        candidate = registered.replace(year=registered.year + period, day=28)
    if years_before(candidate, period) < registered:
        candidate += datetime.timedelta(days=1)
    return candidate


def ranking_figure(
    days: Iterable[tuple[datetime.date, int]], today: datetime.date, rule: RankingListRule = DBF_RANKING_LIST
) -> RankingFigure:
    """The figure of one player on ``today`` from (registration day, hundredths of MP registered that day):
    Σ weight(period) · amount · scale, exact. Days after ``today`` count as registered today.

    The periods' boundaries are fixed for ``today``, so the days are summed per period in integers and
    weighted once; the figure changes first when the oldest counted day of some period moves on
    (:func:`first_day_in_period` grows with the day), so only each period's oldest day is kept."""
    periods = len(rule.weights)
    bounds = period_bounds(today, periods)
    sums = [0] * periods
    oldest: list[datetime.date | None] = [None] * periods
    for registered, hundredths in days:
        if not hundredths:  # a day whose entries cancel out changes nothing
            continue
        registered = min(registered, today)
        period = period_in(registered, bounds)
        if period is None:
            continue
        sums[period] += hundredths
        if oldest[period] is None or registered < oldest[period]:
            oldest[period] = registered
    return figure_of_periods(sums, oldest, rule)


def figure_of_periods(
    sums: Sequence[int], oldest: Sequence[datetime.date | None], rule: RankingListRule = DBF_RANKING_LIST
) -> RankingFigure:
    """The figure from each period's hundredths of MP and its oldest counted day (``None``: no day), newest
    period first, as :func:`ranking_figure` sums them (the standings read them so from the database)."""
    scaled = sum(multiplier * amount for multiplier, amount in zip(rule.multipliers, sums, strict=True))
    changes = [first_day_in_period(day, period + 1) for period, day in enumerate(oldest) if day is not None]
    return RankingFigure(Fraction(scaled, rule.denominator), min(changes) if changes else None)


def shown_hundredths(score: int, rule: RankingListRule = DBF_RANKING_LIST) -> int:
    """A stored score (hundredths of MP times ``rule.denominator``) as whole hundredths of MP for a page,
    rounded half up, a half away from zero for a negative figure (D-Q60: stored exactly, shown to 2 decimals)."""
    whole, rest = divmod(abs(score), rule.denominator)
    rounded = whole + (2 * rest >= rule.denominator)
    return rounded if score >= 0 else -rounded

"""DBf's ranking list ("ranglisten", issue 18): the periods by calendar year (D-Q57), leap days, the exact
figure and its rounding for a page (D-Q60)."""

from __future__ import annotations

import datetime
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from masterpoints.engine.dbf.ranglist import (
    DBF_RANKING_LIST,
    RankingFigure,
    first_day_in_period,
    period_of,
    ranking_figure,
    shown_hundredths,
)

D = datetime.date


def test_a_day_exactly_k_years_back_lies_in_period_k_d_q57():
    today = D(2026, 12, 1)
    assert period_of(D(2026, 12, 1), today, 3) == 0
    assert period_of(D(2025, 12, 2), today, 3) == 0
    assert period_of(D(2025, 12, 1), today, 3) == 1  # exactly 12 months ago: half
    assert period_of(D(2023, 12, 2), today, 3) == 2
    assert period_of(D(2023, 12, 1), today, 3) is None  # exactly 36 months ago: out


def test_a_leap_day_counts_fully_until_the_first_of_march_a_year_on_d_q57():
    """29 February 2024 lies in the last 12 months on 28 February 2025 (one year back is 28 February 2024)
    and in the half period from 1 March 2025, the day its figure is due to change."""
    leap = D(2024, 2, 29)
    assert period_of(leap, D(2025, 2, 28), 3) == 0
    assert period_of(leap, D(2025, 3, 1), 3) == 1
    assert first_day_in_period(leap, 1) == D(2025, 3, 1)
    assert first_day_in_period(leap, 4) == D(2028, 2, 29)
    # Today a leap day: one year back is 28 February.
    assert period_of(D(2027, 2, 28), D(2028, 2, 29), 3) == 1
    assert period_of(D(2027, 3, 1), D(2028, 2, 29), 3) == 0


def test_the_same_mp_every_year_reads_as_that_many_mp_per_year():
    """(1 + 1/2 + 1/3) · 6/11 = 1: 10.00 MP in each of three years stand at 10.00 MP per year."""
    today = D(2026, 6, 1)
    days = [(D(2026, 1, 1), 1000), (D(2025, 1, 1), 1000), (D(2024, 1, 1), 1000)]
    figure = ranking_figure(days, today)
    assert figure.hundredths == 1000
    # On 1 January 2027 each day moves one period on (the oldest leaves the list): the figure changes then.
    assert figure.changes_on == D(2027, 1, 1)


def test_a_page_shows_the_exact_figure_rounded_half_up_to_two_decimals_d_q60():
    assert DBF_RANKING_LIST.denominator == 11
    assert shown_hundredths(5737) == 522  # 521 6/11
    assert shown_hundredths(5731) == 521  # exactly 521
    assert shown_hundredths(5731 + 5) == 521  # 521 5/11 < a half
    assert shown_hundredths(-5737) == -522
    assert ranking_figure([(D(2026, 1, 1), 1)], D(2026, 1, 1)).hundredths == Fraction(6, 11)


def _figure_row_by_row(days, today, rule=DBF_RANKING_LIST):
    """The definition, one day at a time: each day weighted by its period, the figure changing first on the
    earliest day any counted day moves on (D-Q57, D-Q59)."""
    total, changes = Fraction(0), []
    for registered, hundredths in days:
        registered = min(registered, today)
        period = period_of(registered, today, len(rule.weights))
        if period is None or not hundredths:
            continue
        total += rule.weights[period] * hundredths
        changes.append(first_day_in_period(registered, period + 1))
    return RankingFigure(total * rule.scale, min(changes) if changes else None)


@settings(max_examples=300)
@given(
    today=st.dates(min_value=D(2020, 1, 1), max_value=D(2032, 12, 31)),
    offsets=st.lists(st.tuples(st.integers(-5, 1500), st.integers(-300, 3000)), max_size=40),
)
def test_the_summed_figure_equals_the_figure_day_by_day_d_q59(today, offsets):
    """The figure summed per period (the rebuild's speed) is exactly the day-by-day definition, leap days,
    future days, cancelling days and boundaries included."""
    days = [(today - datetime.timedelta(days=back), hundredths) for back, hundredths in offsets]
    assert ranking_figure(days, today) == _figure_row_by_row(days, today)

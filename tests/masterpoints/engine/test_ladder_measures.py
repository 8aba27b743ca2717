"""What the next rung needs, per ladder, as the title mail's "close to the next title" list reads it (§ 451B
with our 80 % choice): DBf measures the total T against the title's T (§ 404A, dbf.md § 404 table), HBS
each kind against the category row's minimum (H-2: the kinds never convert)."""

from __future__ import annotations

from fractions import Fraction

from masterpoints.engine.dbf.rules import DEFAULT_RULE_SETS
from masterpoints.engine.hbs.rules import HBS_DRAFT
from masterpoints.engine.ladders import DbfLadder, HbsLadder


def test_dbf_measures_the_total_in_hundredths_of_mp_against_the_titles_t_404a():
    ladder = DbfLadder(DEFAULT_RULE_SETS[-1])
    assert ladder.rung_of(4).title == "distriktsmester"
    # Distriktsmester: T >= 15 MP; 1000 BP + 200 SP-units + 100 GP-units = 13.00 MP.
    assert ladder.measures(4, (1000, 200, 100)) == [(1300, Fraction(1500))]


def test_hbs_measures_each_kind_against_the_category_rows_minimum_h2():
    ladder = HbsLadder(HBS_DRAFT)
    assert ladder.rung_of(6).title == "tref ekspert"
    # tref ekspert: 2000 black and 100 red points, no master points.
    assert ladder.measures(6, (2100, 50, 7)) == [(2100, Fraction(2000)), (50, Fraction(100)), (7, Fraction(0))]

"""Titles and the BP→SP→GP revaluation check (§ 404; ``dbf.md`` § 2.15; D-Q11)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from masterpoints.engine.common import RequestError
from masterpoints.engine.dbf import DBF_2023, TitleRung, title_for
from masterpoints.engine.dbf.rules import DbfRuleSet
from masterpoints.engine.dbf.titles import Balance, g_check, missing_units, sg_check, title_rank
from masterpoints.engine.ladders import DbfLadder


def title(bp=0, sp=0, gp=0, rules=DBF_2023):
    """``bp`` BP, ``sp`` SP and ``gp`` GP in their own units as whole or decimal numbers."""
    status = title_for(int(bp), int(Fraction(sp) * 10), int(Fraction(gp) * 100), rules)
    return status.title, status.stars


def test_the_examples_of_section_404c_give_their_titles_dbf_2_15():
    # C2: 9,200 BP, 863 SP, 28 GP is Forbundsmester; C3: 7,500 BP Kredsmester; C4: 37,500 BP Forbundsmester;
    # C5: 125,000 BP Stormester.
    assert title(9200, 863, 28) == ("forbundsmester", 0)
    assert title(7500) == ("kredsmester", 0)
    assert title(37500) == ("forbundsmester", 0)
    assert title(125000) == ("stormester", 0)


def test_thresholds_are_inclusive_dbf_2_15():
    # Exactly 7,500 BP qualifies (C3); 7,499 does not (then 74.99 MP ≥ 30: Distriktsmester).
    assert title(7500) == ("kredsmester", 0)
    assert title(7499) == ("distriktsmester", 0)
    assert title(200) == ("klubmester", 0)
    assert title(199) == (None, 0)


def test_example_c1_is_the_sp_gp_check_dbf_2_15():
    # § 404C1: above 50 MP with under 25 in SP+GP, the deficit × 200 is taken from BP and at least 2,500 BP must
    # remain. That literal rule equals SGcheck(25, 50) on random balances.
    rng = random.Random(404)
    for _ in range(20000):
        balance = Balance(rng.randint(0, 20000), rng.randint(0, 250), rng.randint(0, 2500))
        bc, sg = Fraction(balance.bp), Fraction(balance.sp + balance.gp, 100)
        literal = bc - 200 * max(Fraction(0), 25 - sg) >= 2500 if sg < 25 else bc / 100 + sg >= 50
        assert sg_check(balance, Fraction(25), Fraction(50)) == literal


def test_gp_revaluation_of_example_c2_dbf_2_15():
    # 9,200 BP, 863 SP, 28 GP: 47 GP missing = 940 SP; 77 SP short = 1,540 BP. T − 47 − 7.7 = 151.6 ≥ 150 (holds);
    # Stormester needs 222 GP more: 3,577 SP short = 71,540 BP > 9,200 (fails).
    balance = Balance(9200, 8630, 2800)
    assert g_check(balance, Fraction(75), Fraction(150))
    assert not g_check(balance, Fraction(75), Fraction(300))
    assert not g_check(balance, Fraction(250), Fraction(500))


def _section_404b(balance: Balance, minimum: Fraction, total: Fraction, rules: DbfRuleSet, *, gold: bool) -> bool:
    """§ 404B1–2 as the rule book words it, in MP as exact fractions: the GP (gold) or SP+GP missing come
    from SP and BP at the rule set's rates; the title holds when the BP to revalue exist and T minus what
    the revaluation loses still reaches ``total``."""
    bc, sc, gc = Fraction(balance.bp), Fraction(balance.sp, 10), Fraction(balance.gp, 100)
    t = Fraction(balance.total_units, 100)
    if not gold:
        need_sp = max(Fraction(0), minimum - (sc / 10 + gc)) * 10
        bp_used = need_sp * rules.bp_per_sp
        return bp_used <= bc and t - (bp_used / 100 - need_sp / 10) >= total
    g_need = max(Fraction(0), minimum - gc)
    sp_used = g_need * rules.sp_per_gp
    sp_short = max(Fraction(0), sp_used - sc)
    bp_used = sp_short * rules.bp_per_sp
    loss = (sp_used / 10 - g_need) + (bp_used / 100 - sp_short / 10)
    return bp_used <= bc and t - loss >= total


@pytest.mark.parametrize(
    "rules",
    [DBF_2023, dataclasses.replace(DBF_2023, bp_per_sp=25, sp_per_gp=15), dataclasses.replace(DBF_2023, bp_per_sp=7)],
    ids=["20:1 and 20:1", "25:1 and 15:1", "a rate that gains MP"],
)
def test_the_checks_in_whole_units_equal_section_404b_in_fractions_dbf_2_15(rules):
    # The checks work in whole units (hundredths of MP); thresholds with more decimals than a unit stay exact.
    rng = random.Random(4042)
    for _ in range(5000):
        balance = Balance(rng.randint(0, 40000), rng.randint(0, 4000), rng.randint(0, 6000))
        minimum = Fraction(rng.randint(0, 30000), rng.choice((1, 10, 100, 1000, 3)))
        total = Fraction(rng.randint(0, 60000), rng.choice((1, 10, 100, 1000, 7)))
        assert sg_check(balance, minimum, total, rules) == _section_404b(balance, minimum, total, rules, gold=False)
        assert g_check(balance, minimum, total, rules) == _section_404b(balance, minimum, total, rules, gold=True)


def test_distriktsmester_needs_five_mp_in_sp_gp_or_thirty_in_all_without_revaluation_dbf_2_15():
    assert title(1000, 50) == ("distriktsmester", 0)  # T 15, SG 5
    assert title(1500) == ("klubmester", 1)  # T 15, SG 0, T < 30: no revaluation to SP
    assert title(3000) == ("distriktsmester", 0)  # T 30


def test_revaluation_never_changes_the_balances_dbf_2_15():
    status = title_for(9200, 8630, 2800)
    assert status.total_mp == "206.30"


def test_next_title_says_what_is_missing_in_each_kind_dbf_2_15():
    # 7,400 BP: Kredsmester needs +100 BP, or +5.0 SP, or +0.50 GP (dbf.md § 2.15).
    status = title_for(7400, 0, 0)
    assert (status.next.title, status.next.stars) == ("kredsmester", 0)
    assert status.next.missing_amounts() == {"bp": "100", "sp": "5.0", "gp": "0.50"}


def test_missing_amounts_are_the_least_that_reach_the_next_title_dbf_2_15():
    rng = random.Random(15)
    for _ in range(200):
        balance = Balance(rng.randint(0, 200000), rng.randint(0, 20000), rng.randint(0, 50000))
        status = title_for(balance.bp, balance.sp, balance.gp)
        if status.next is None:
            continue
        for kind, units in status.next.missing:
            assert units is not None and units >= 1
            assert title_rank(balance.plus(kind, units)) >= status.rank + 1
            assert title_rank(balance.plus(kind, units - 1)) <= status.rank


@pytest.mark.parametrize(
    "rules",
    [DBF_2023, dataclasses.replace(DBF_2023, kun_bp_literal=False), dataclasses.replace(DBF_2023, bp_per_sp=5)],
    ids=["literal kun BP", "kun BP as total (D-Q11)", "rates without a bound"],
)
def test_missing_units_to_any_rung_are_the_least_that_reach_it_dbf_2_15(rules):
    # A held title above the computed one asks for the rung above the held one (any target, § 404, H-2);
    # the search starts at the shortfall of T, which every condition needs (§ 404B never adds MP).
    rng = random.Random(404)
    for _ in range(150):
        balance = Balance(rng.randint(0, 60000), rng.randint(0, 6000), rng.randint(0, 9000))
        target = rng.randint(1, len(rules.titles))
        for kind in ("BP", "SP", "GP"):
            units = missing_units(balance, kind, target, rules)
            assert units is not None
            assert title_rank(balance.plus(kind, units), rules) >= target
            assert units == 0 or title_rank(balance.plus(kind, units - 1), rules) < target


def test_a_higher_title_reached_by_another_kind_counts_as_reaching_the_next_dbf_2_15():
    # 500 BP is 1★ Klubmester; 2★ needs 1,500 BP more, but SP alone reach Distriktsmester (higher) at 100.0 SP.
    status = title_for(500, 0, 0)
    assert status.next.missing_amounts() == {"bp": "1500", "sp": "100.0", "gp": "10.00"}


def test_there_is_no_next_title_above_three_star_stormester_dbf_2_15():
    status = title_for(0, 0, 400000)
    assert (status.title, status.stars, status.next) == ("stormester", 3, None)


def test_kun_bp_counts_only_bronze_points_by_default_d_q11():
    # 1,800 BP + 40 SP: literal reading 18 MP of BP → 1★; total reading 22 MP → 2★ (dbf.md D-Q11).
    assert title(1800, 40) == ("klubmester", 1)
    total_reading = dataclasses.replace(DBF_2023, kun_bp_literal=False)
    assert title(1800, 40, rules=total_reading) == ("klubmester", 2)


def test_kun_bp_counts_only_bronze_points_for_both_starred_klubmester_rows_as_404a_reads_d_q11():
    """§ 404A "1★ Klubmester 5 MP (kun BP)", "2★ Klubmester 20 MP (kun BP)": the bracket says which MP count."""
    assert title(200, 30) == ("klubmester", 0)  # 5 MP in all, 2 of them BP: not 1★
    assert title(500, 30) == ("klubmester", 1)  # 5 MP of BP
    assert title(1900, 49) == ("klubmester", 1)  # 23.9 MP, 19 of BP and 4.9 of SP: neither 2★ nor Distriktsmester
    assert title(1900, 50) == ("distriktsmester", 0)  # 5 MP in SP: § 404A's next row
    # Vector D-N1 follows this reading: from 500 BP the 2★ needs 1,500 BP, and SP count only towards the row above.
    assert title_for(500, 0, 0).next.missing_amounts() == {"bp": "1500", "sp": "100.0", "gp": "10.00"}


def test_the_title_ladder_is_data_of_the_rule_set_dbf_2_15():
    shorter = dataclasses.replace(DBF_2023, titles=(TitleRung("klubmester", 0, "total", Fraction(3)),))
    assert title(200, rules=shorter) == (None, 0)
    assert title(300, rules=shorter) == ("klubmester", 0)


def test_negative_balances_are_refused_dbf_2_15():
    with pytest.raises(RequestError) as caught:
        title_for(-1, 0, 0)
    assert caught.value.field == "bp"


def test_each_rung_records_what_its_holder_receives_the_column_modtager_of_404a_d_q22():
    """§ 404A's table: "Titel / Antal MP / Modtager": grønt etui for Klubmester, a star on the etui for
    each star of the title, red, blue, orange and yellow for the higher titles."""
    rungs = DbfLadder(DBF_2023).rungs
    assert [(r.title, r.stars, r.etui) for r in rungs[:4]] == [
        ("klubmester", 0, "grønt etui"),
        ("klubmester", 1, "1★ grønt etui"),
        ("klubmester", 2, "2★ grønt etui"),
        ("distriktsmester", 0, "rødt etui"),
    ]
    assert {r.etui.split()[-2] for r in rungs} == {"grønt", "rødt", "blåt", "orange", "gult"}
    assert all(r.etui.startswith(f"{r.stars}★ ") == (r.stars > 0) for r in rungs)
    # Rule-set data, not code: a stored rule set names its own.
    stored = DBF_2023.to_dict()
    stored["titles"][0]["etui"] = "grønt etui med navn"
    assert DbfLadder(DbfRuleSet.from_dict(stored)).rung_of(1).etui == "grønt etui med navn"


def test_the_next_title_says_what_its_amounts_reach_issue_38():
    # 553 BP + 53 SP: Klubmester ★. Klubmester ★★ needs 20 MP in BP alone (1,447 BP more); 417 BP, 41.7 SP or
    # 4.17 GP reach Distriktsmester first, and that is the title those amounts are named with.
    status = title_for(553, 530, 0)
    assert (status.title, status.stars) == ("klubmester", 1)
    assert (status.next.title, status.next.stars) == ("klubmester", 2)
    assert status.next.missing_amounts() == {"bp": "417", "sp": "41.7", "gp": "4.17"}
    assert status.next.reached_titles() == {k: {"title": "distriktsmester", "stars": 0} for k in ("bp", "sp", "gp")}

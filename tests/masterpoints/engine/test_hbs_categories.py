"""HBS categories: the ladder read as H-2 (highest row met, empty black cells = 2000, held kept, next)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from masterpoints.engine.common import RequestError
from masterpoints.engine.hbs import HBS_DRAFT, CategoryRow, category_for
from masterpoints.engine.hbs.rules import BLACK_NO_MINIMUM

LADDER = [row.name for row in HBS_DRAFT.categories]


def test_the_category_is_the_highest_row_whose_minimums_are_all_met_h_2():
    # 5000 black, 600 red, 40 master: majstor needs 50 master, so the highest row met is
    # majstorski kandidat (2000 black, 200 red, 10 master) — which lies above pik ekspert (500 red)
    assert category_for(5000, 600, 40).category == "majstorski kandidat"
    # 2000/100/0 meets tref ekspert exactly (its minimums are inclusive)
    assert category_for(2000, 100, 0).category == "tref ekspert"
    assert category_for(50, 0, 0).category == "vankategornik"
    assert category_for(1999, 0, 0).category == "herc"


def test_below_fifty_black_points_a_player_has_no_category_h_2():
    status = category_for(49, 0, 0)
    assert status.category is None
    assert status.label == "bez kategorije"
    assert status.next.category == "vankategornik"
    assert status.next.missing_of("black") == 1


def test_empty_black_cells_read_as_2000_as_above_h_2():
    # karo ekspert's black cell is empty: read as 2000, so 500 black with 200 red stays karo
    assert category_for(500, 200, 0).category == "karo"
    # a would-be velemajstor without black points has no category at all
    assert category_for(0, 2000, 200).category is None
    minimums = {name: black for name, black, _red, _master in HBS_DRAFT.category_minimums()}
    assert [minimums[name] for name in LADDER[6:]] == [2000] * 7


def test_the_literal_reading_of_empty_black_cells_is_a_setting_h_2():
    literal = replace(HBS_DRAFT, empty_black_cells=BLACK_NO_MINIMUM)
    assert category_for(500, 200, 0, literal).category == "karo ekspert"
    assert category_for(0, 2000, 200, literal).category == "velemajstor"


def test_the_next_row_and_the_points_missing_of_each_kind_h_2():
    # tref ekspert (2000/100/0): next karo ekspert (2000 black, 200 red) misses 100 red
    status = category_for(2000, 100, 0)
    assert status.next.category == "karo ekspert"
    assert dict(status.next.missing) == {"black": 0, "red": 100, "master": 0}
    # pik (2000 black): next tref ekspert misses 100 red
    assert dict(category_for(2000, 0, 0).next.missing) == {"black": 0, "red": 100, "master": 0}
    # velemajstor is the top row: no next
    top = category_for(2000, 2000, 200)
    assert top.category == "velemajstor"
    assert top.next is None
    assert top.cheapest is None


def test_the_cheapest_higher_row_is_shown_when_it_is_not_the_next_one_h_2():
    # herc ekspert (2000/300/0): next pik ekspert misses 200 red; majstorski kandidat only 10 master
    status = category_for(2000, 300, 0)
    assert status.category == "herc ekspert"
    assert status.next.category == "pik ekspert"
    assert status.cheapest.category == "majstorski kandidat"
    assert dict(status.cheapest.missing) == {"black": 0, "red": 0, "master": 10}
    # tref ekspert (2000/100/0): next karo ekspert (100 missing) is also the cheapest
    assert category_for(2000, 100, 0).cheapest is None


def test_a_category_already_held_is_never_lowered_h_2():
    status = category_for(100, 0, 0, held="majstor")
    assert status.category == "majstor"
    assert status.computed == "vankategornik"
    # next after majstor: međunarodni majstor (2000 black, 1000 red, 100 master)
    assert status.next.category == "međunarodni majstor"
    assert dict(status.next.missing) == {"black": 1900, "red": 1000, "master": 100}
    # a held category below the computed one does not lower it either
    assert category_for(2000, 500, 50, held="tref").category == "majstor"


def test_an_unknown_held_category_is_refused():
    with pytest.raises(RequestError) as caught:
        category_for(0, 0, 0, held="grandmaster")
    assert caught.value.field == "held"


def test_the_category_table_is_data_h_2():
    rules = replace(
        HBS_DRAFT,
        categories=(CategoryRow("A", "početnik", 10), CategoryRow("B", "napredni", 100, 5)),
    )
    assert category_for(10, 0, 0, rules).category == "početnik"
    assert category_for(100, 5, 0, rules).category == "napredni"
    assert category_for(500, 4, 0, rules).next.missing_of("red") == 1


@given(
    black=st.integers(0, 6000),
    red=st.integers(0, 3000),
    master=st.integers(0, 300),
    extra=st.sampled_from(["black", "red", "master"]),
    more=st.integers(1, 1000),
)
def test_more_points_never_lower_the_category_h_2(black, red, master, extra, more):
    def rank(status):
        return -1 if status.category is None else LADDER.index(status.category)

    before = category_for(black, red, master)
    balances = {"black": black, "red": red, "master": master}
    balances[extra] += more
    after = category_for(**balances)
    # the rows are not nested (majstorski kandidat needs less red than pik ekspert), but the highest
    # row met can only move up when a balance grows
    assert rank(after) >= rank(before)

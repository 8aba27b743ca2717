"""Properties for random valid inputs (hypothesis): awards never increase with place, every paid place gets
at least the minimum unit, Q ≥ 2/3, ties pay equally and never less than the worst place they cover, and
titles are monotone in each balance."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from masterpoints.engine.dbf import ScaleRequest, TeamBonusRequest, entry_awards, scale, team_bonus
from masterpoints.engine.dbf.titles import Balance, title_rank

COMBOS = [("BP", o) for o in ("club", "district", "circle", "federation")]
COMBOS += [("SP", o) for o in ("club", "district", "circle", "federation")]
COMBOS += [("GP", "club"), ("GP", "federation")]


@st.composite
def scale_requests(draw) -> ScaleRequest:
    category, organizer = draw(st.sampled_from(COMBOS))
    n = draw(st.integers(1, 600))
    robots = category == "BP" and draw(st.booleans())
    met = None if robots else draw(st.none() | st.integers(0, n - 1))
    rows = draw(st.integers(1, 7))
    return ScaleRequest(
        form=draw(st.sampled_from(["pairs", "individual", "minihold"])),
        category=category,
        organizer=organizer,
        participants=n,
        boards=draw(st.integers(0, 200)),
        met=met,
        robots=robots,
        rows=rows,
        row=draw(st.integers(1, rows)),
        split=draw(st.sampled_from(["random", "strength"])),
        multiplier=draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(3, 2)])),
        quota=draw(st.sampled_from([None, "full", "half"])),
    )


@settings(max_examples=300, deadline=None)
@given(scale_requests())
def test_awards_never_increase_with_place(request):
    awards = scale(request).awards
    assert all(a >= b for a, b in pairwise(awards))


@settings(max_examples=300, deadline=None)
@given(scale_requests())
def test_every_paid_place_gets_at_least_the_minimum_unit(request):
    result = scale(request)
    assert len(result.awards) == result.places_paid
    assert all(units >= 1 for units in result.awards)


@settings(max_examples=300, deadline=None)
@given(scale_requests())
def test_q_is_never_below_two_thirds(request):
    result = scale(request)
    assert result.ratio is None or result.ratio >= Fraction(2, 3)


@st.composite
def scales_with_ties(draw):
    request = draw(scale_requests())
    n = request.participants
    # Split places 1…k into consecutive tie groups of random sizes.
    k = draw(st.integers(1, min(n, 250)))
    groups, place = [], 1
    while place <= k:
        size = draw(st.integers(1, min(6, k - place + 1)))
        groups.append((place, place + size - 1))
        place += size
    return request, groups


@settings(max_examples=300, deadline=None)
@given(scales_with_ties())
def test_tied_entries_get_equal_points_never_below_the_worst_place_they_cover(case):
    request, groups = case
    result = scale(request)
    ranks = [g for g in groups for _ in range(g[1] - g[0] + 1)]
    units = entry_awards(result, ranks)
    by_group: dict[tuple[int, int], set[int]] = {}
    for rank, value in zip(ranks, units, strict=True):
        by_group.setdefault(rank, set()).add(value)
    for (first, last), values in by_group.items():
        assert len(values) == 1
        (share,) = values
        worst = result.awards[last - 1] if last <= result.places_paid else 0
        best = result.awards[first - 1] if first <= result.places_paid else 0
        assert worst <= share <= best


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 30),
    st.integers(0, 60),
    st.integers(1, 40),
    st.sampled_from(["round_robin", "monrad"]),
)
def test_team_bonus_never_increases_with_place(matches, boards, teams, format):
    awards = team_bonus(TeamBonusRequest(matches=matches, boards=boards, teams=teams, format=format)).awards
    assert all(a >= b for a, b in pairwise(awards))
    assert all(units >= 1 for units in awards)


balances = st.builds(Balance, st.integers(0, 600_000), st.integers(0, 60_000), st.integers(0, 600_000))


@settings(max_examples=500, deadline=None)
@given(balances, st.sampled_from(["BP", "SP", "GP"]), st.integers(0, 200_000))
def test_titles_are_monotone_in_each_balance(balance, kind, extra):
    assert title_rank(balance.plus(kind, extra)) >= title_rank(balance)

"""A player's ranks are the counts of better standings in each scope, whether counted in the database (the
standings changed within SETTLED_SECONDS) or bisected in the rank index (``masterpoints.public.ranks``);
they follow every standings change at once, and the register within RANK_INDEX_SECONDS."""

from __future__ import annotations

import datetime
import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, ClubMembership
from federation.models import Player, official_list_q
from masterpoints.models import RankingListEntry, Standing
from masterpoints.public import ranks, selectors
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, post_award


@pytest.fixture(params=["counted", "indexed"])
def way(request, monkeypatch):
    """Both ways of reading a rank: standings that changed just now are counted, settled ones indexed."""
    monkeypatch.setattr(ranks, "SETTLED_SECONDS", 10**12 if request.param == "counted" else -1)
    return request.param


def player(world, number, fed=None, **fields):
    return make_player(fed or world.dbf, number, **fields)


def refresh(*players):
    standings_refresh_players(federation=players[0].federation, player_ids=[p.pk for p in players])


def ranks_of(p):
    return selectors.player_ranks(p, Standing.objects.get(player=p), selectors.home_club(p))


def test_a_district_counts_the_home_members_of_the_clubs_of_its_circles(world, way):
    # The district of a club in a circle is the circle's district (selectors.district_of); its rank counts
    # every listed player whose home club lies in the district or one of its circles, and no one else.
    circle_club = Club.objects.create(federation=world.dbf, number="1003", name="Kredsklubben")
    circle_club.regions.set([world.circle])
    players = [player(world, str(n)) for n in range(41, 46)]
    homes = [circle_club, world.club_a, world.club_b, circle_club, None]
    for p, units, home in zip(players, [900, 700, 800, 300, 1000], homes, strict=True):
        post_award(p, "BP", units)
        if home is not None:
            ClubMembership.objects.create(player=p, club=home, is_home=True)
    refresh(*players)
    last = ranks_of(players[3])  # 300 BP: below all four others
    assert (last.federation, last.federation_size) == (5, 5)
    assert (last.district, last.district_name) == (3, world.district.name)  # 900 (circle) and 700 (club A)
    assert last.club == 2
    other = ranks_of(players[2])  # 800 BP in club B, district Nord: alone there
    assert (other.federation, other.district) == (3, 1)


def test_a_club_ranks_its_current_members_whether_home_or_not(world, way):
    # The club rank counts the club's current members (selectors.in_club: home club or not, membership not
    # ended), bisected in the index's keys of each club as counted: a former member and a member of another
    # club are not counted, a second-club member is.
    players = [player(world, str(n)) for n in range(46, 51)]
    for p, units in zip(players, [900, 800, 700, 600, 500], strict=True):
        post_award(p, "BP", units)
    ClubMembership.objects.create(player=players[0], club=world.club_a, is_home=False, until=selectors.today())
    ClubMembership.objects.create(player=players[0], club=world.club_b, is_home=True)
    ClubMembership.objects.create(player=players[1], club=world.club_b, is_home=True)
    ClubMembership.objects.create(player=players[1], club=world.club_a, is_home=False)
    ClubMembership.objects.create(player=players[2], club=world.club_b, is_home=True)
    for p in players[3:]:
        ClubMembership.objects.create(player=p, club=world.club_a, is_home=True)
    refresh(*players)
    # Club A: the former member at 900 is not counted, the second-club member at 800 is.
    assert [(ranks_of(p).club, ranks_of(p).club_name) for p in players[3:]] == [
        (2, world.club_a.name),
        (3, world.club_a.name),
    ]
    assert [ranks_of(p).club for p in players[:3]] == [1, 2, 3]  # club B: all three at home there


def test_a_standings_change_shows_in_the_ranks_at_once(world, way):
    a, b = player(world, "51"), player(world, "52")
    post_award(a, "BP", 500)
    post_award(b, "BP", 400)
    refresh(a, b)
    assert ranks_of(b).federation == 2
    post_award(b, "BP", 200)
    refresh(b)  # raises the standings version: the kept index is not used again
    assert (ranks_of(b).federation, ranks_of(a).federation) == (1, 2)


def test_a_register_change_shows_within_the_index_time(world, monkeypatch):
    # A dues payment raises no standings version; the official list (HBS rule 3) follows it once the kept
    # index is older than RANK_INDEX_SECONDS.
    monkeypatch.setattr(ranks, "SETTLED_SECONDS", -1)
    today = selectors.today()
    paid = player(world, "61", world.hbs, dues_paid_until=today)
    late = player(world, "62", world.hbs, dues_paid_until=today - datetime.timedelta(days=1))
    post_award(paid, "black", 60)
    post_award(late, "black", 90)
    refresh(paid, late)
    assert (ranks_of(paid).federation, ranks_of(paid).federation_size) == (1, 1)
    assert ranks_of(late).federation is None
    Player.objects.filter(pk=late.pk).update(dues_paid_until=today)
    late.refresh_from_db()
    # Within the index time the newly listed player, whom the index does not hold, is counted.
    assert (ranks_of(late).federation, ranks_of(late).federation_size) == (1, 2)
    assert ranks_of(paid).federation_size == 1  # the others' ranks follow within RANK_INDEX_SECONDS
    clock = ranks.time.monotonic()
    monkeypatch.setattr(ranks.time, "monotonic", lambda: clock + ranks.RANK_INDEX_SECONDS + 1)
    assert (ranks_of(paid).federation, ranks_of(paid).federation_size) == (2, 2)
    assert ranks_of(late).federation == 1


def test_equal_figures_share_a_place_on_the_ranking_list_d_q60(world, way):
    players = [player(world, str(n)) for n in range(71, 75)]
    for p, score in zip(players, [900, 500, 500, 100], strict=True):
        RankingListEntry.objects.create(player=p, federation=world.dbf, score=score)
    assert [selectors.player_ranking_entry(p).place for p in players] == [1, 2, 2, 4]


@pytest.mark.parametrize(
    ("status", "paid", "asked"),
    list(itertools.product(["member", "guest", "lapsed"], [None, -1, 0, 1], [False, True])),
)
def test_one_players_official_list_is_the_lists_query_rules_3_4(world, status, paid, asked):
    today = selectors.today()
    until = None if paid is None else today + datetime.timedelta(days=paid)
    p = player(world, "81", world.hbs, status=status, dues_paid_until=until, listed_on_request=asked)
    assert p.on_official_list(today) == Player.objects.filter(official_list_q(today), pk=p.pk).exists()


def test_the_index_waits_for_the_standings_to_settle(world, monkeypatch):
    a = player(world, "91")
    post_award(a, "BP", 500)
    refresh(a)  # the standings changed just now
    assert ranks.rank_index(world.dbf, day=selectors.today(), official=False) is None
    now = ranks.time.time_ns()
    monkeypatch.setattr(ranks.time, "time_ns", lambda: now + (ranks.SETTLED_SECONDS + 1) * 10**9)
    index = ranks.rank_index(world.dbf, day=selectors.today(), official=False)
    assert index is not None and list(index.keys) == [Standing.objects.get(player=a).sort_key]


def test_the_rankings_are_told_their_length_by_the_index_or_count_it(world, personas, way, client):
    # Issue 16: the rankings of the whole list, of one region, one club or a name take their length from the
    # rank index, which holds what in_region finds (a district with its circles' clubs), what in_club finds (a
    # club's current members) and the folded names as matching compares them (a hidden name by number only,
    # HBS rule 4); any other filter or combination, another list than the default one (DBf lists everyone) or
    # no index yet: counted. Either way the same.
    circle_club = Club.objects.create(federation=world.dbf, number="1003", name="Kredsklubben")
    circle_club.regions.set([world.circle])
    homes = [world.club_a, world.club_b, circle_club, None, world.club_a, circle_club]
    names = [("Søren", "Jensen"), ("Jørgen", "Holm"), ("Karen", "Jensen"), ("Ole", "Dahl"), ("Søren", "Dahl")]
    names.append(("Bo", "Jensen"))
    players = [
        player(world, str(n), first=first, last=last, hide_name=n == 106)
        for n, (first, last) in zip(range(101, 107), names, strict=True)
    ]
    for p, home, units in zip(players, homes, [600, 500, 400, 300, 200, 100], strict=True):
        post_award(p, "BP", units)
        if home is not None:
            ClubMembership.objects.create(player=p, club=home, is_home=True)
    ClubMembership.objects.create(player=players[1], club=world.club_a, is_home=False)  # a second club
    ClubMembership.objects.create(player=players[2], club=world.club_a, is_home=False, until=selectors.today())
    refresh(*players)
    base = f"/rankings/?federation={world.dbf.pk}"
    indexed = {
        "": 6,
        f"&region={world.district.pk}": 4,  # club A twice, the circle's club twice
        f"&region={world.circle.pk}": 4,  # club A lies in the circle too
        f"&region={world.other_district.pk}": 1,
        "&region=abc": 6,  # no id: the filter ignores it
        "&q=jensen": 2,  # Bo Jensen hides his name
        "&q=Soren": 2,  # folded as the register folds it
        "&q=dahl+SØREN": 1,
        "&q=xyz": 0,
        f"&club={world.club_a.pk}": 3,  # its current members, home or not; not the one who left
        "&club=abc": 6,
    }
    counted = {
        f"&club={world.club_a.pk}&q=dahl": 1,
        "&official=yes": 0,  # DBf's default is everyone; nobody here has paid dues
        "&q=106": 1,  # a number finds the hidden name
        f"&q=jensen&region={world.district.pk}": 2,
        "&rung=1": sum(Standing.objects.get(player=p).title_rung == 1 for p in players),
    }
    for query, rows in {**indexed, **counted}.items():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(base + query)
        assert response.status_code == 200
        assert response.context["table"].paginator.count == rows, query
        sql = [q["sql"] for q in queries.captured_queries]
        assert any("COUNT(" in q and "masterpoints_standing" in q for q in sql) == (
            way == "counted" or query in counted
        ), query
    client.force_login(personas.secretariat)  # the secretariat finds hidden names too
    assert client.get(base + "&q=jensen").context["table"].paginator.count == 3


def test_the_public_pages_ladder_book_is_kept_for_rank_index_seconds_then_read_again(world, monkeypatch):
    # § 404, H-2: a player's page judges the title by the rule sets on record. The book of ladders is kept in
    # each process for RANK_INDEX_SECONDS, so a rule set the secretariat adds shows within that time.
    import datetime as dt

    from federation.models import RuleSet

    clock = itertools.count(1000.0, ranks.RANK_INDEX_SECONDS / 2)
    monkeypatch.setattr(ranks.time, "monotonic", lambda: next(clock))
    first = selectors.kept_ladders(world.dbf)
    assert selectors.kept_ladders(world.dbf) is first  # half that time later: the same book
    RuleSet.objects.create(federation=world.dbf, valid_from=dt.date(2030, 1, 1), name="2030", payload={})
    again = selectors.kept_ladders(world.dbf)  # RANK_INDEX_SECONDS after it was built: read again
    assert again is not first
    assert dt.date(2030, 1, 1) in again._starts and dt.date(2030, 1, 1) not in first._starts
    assert selectors.kept_ladders(world.hbs).federation == world.hbs


def test_a_home_club_newer_than_the_kept_clubs_is_read_with_its_district(world):
    # The clubs are kept per process (selectors.kept_clubs); a club founded since is read on its own, with the
    # district of its circle, so a player's page never loses a home club or its district rank.
    p = player(world, "4100")
    assert selectors.home_club(p) is None
    kept = selectors.kept_clubs(world.dbf)
    assert kept[world.club_a.pk].name == world.club_a.name
    new = Club.objects.create(federation=world.dbf, number="4199", name="Nyklubben")
    new.regions.set([world.circle])
    ClubMembership.objects.create(player=p, club=new, is_home=True)
    assert new.pk not in selectors.kept_clubs(world.dbf)  # kept before it was founded
    found = selectors.home_club(p)
    assert (found.pk, found.name, found.district) == (new.pk, "Nyklubben", (world.district.pk, world.district.name))
    assert found.district == selectors.district_of(new)

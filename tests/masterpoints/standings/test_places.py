"""A player's places are derived by the database's window functions and stored
(``masterpoints.standings.places``): one plus the number of better standings in each scope, equal keys sharing
a place; the rankings' default list is read by its stored positions at any depth."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs.models import Club, ClubMembership
from federation.models import Outbox
from masterpoints.models import RankingListEntry, Standing, StandingPlace, StandingPlaces, StandingsVersion
from masterpoints.public import selectors
from masterpoints.standings.places import PLACES_TASK, places_due, places_refresh
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, post_award


def refresh(*players):
    standings_refresh_players(federation=players[0].federation, player_ids=[p.pk for p in players])


def ranks_of(p):
    return selectors.player_ranks(p, Standing.objects.get(player=p), selectors.home_club(p))


def test_equal_keys_share_a_place_and_positions_count_every_row(world):
    players = [make_player(world.dbf, str(n)) for n in range(11, 15)]
    for p, units in zip(players, [900, 500, 500, 100], strict=True):
        post_award(p, "BP", units)
    refresh(*players)
    assert [ranks_of(p).federation for p in players] == [1, 2, 2, 4]
    rows = StandingPlace.objects.filter(federation=world.dbf).order_by("position")
    assert [(row.standing_id, row.position) for row in rows] == [(p.pk, i) for i, p in enumerate(players, 1)]
    assert ranks_of(players[0]).federation_size == 4


def test_a_district_counts_the_home_members_of_the_clubs_of_its_circles(world):
    # The district of a club in a circle is the circle's district; its place counts every listed player whose
    # home club lies in the district or one of its circles, and no one else.
    circle_club = Club.objects.create(federation=world.dbf, number="1003", name="Kredsklubben")
    circle_club.regions.set([world.circle])
    players = [make_player(world.dbf, str(n)) for n in range(41, 46)]
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


def test_a_club_ranks_its_current_members_whether_home_or_not(world):
    # A former member and a member of another club are not counted, a second-club member is.
    players = [make_player(world.dbf, str(n)) for n in range(46, 51)]
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
    assert [(ranks_of(p).club, ranks_of(p).club_name) for p in players[3:]] == [
        (2, world.club_a.name),
        (3, world.club_a.name),
    ]
    assert [ranks_of(p).club for p in players[:3]] == [1, 2, 3]


def test_equal_figures_share_a_place_on_the_ranking_list_d_q60(world):
    players = [make_player(world.dbf, str(n)) for n in range(71, 75)]
    for p, score in zip(players, [900, 500, 500, 100], strict=True):
        Standing.objects.create(player=p, federation=world.dbf)
        RankingListEntry.objects.create(player=p, federation=world.dbf, score=score)
    places_refresh(world.dbf, day=selectors.today())
    assert [selectors.player_ranking_entry(p).place for p in players] == [1, 2, 2, 4]


def test_hbs_places_hold_only_the_official_list_and_follow_the_day_rule_3(world):
    # HBS publishes only the official list (rule 3): dues paid until yesterday leave it the next day.
    today = selectors.today()
    paid = make_player(world.hbs, "61", status="member", dues_paid_until=today + datetime.timedelta(days=1))
    ending = make_player(world.hbs, "62", status="member", dues_paid_until=today)
    unpaid = make_player(world.hbs, "63", status="member", dues_paid_until=None)
    for p, units in ((paid, 100), (ending, 200), (unpaid, 300)):
        post_award(p, "black", units)
    refresh(paid, ending, unpaid)
    assert (ranks_of(ending).federation, ranks_of(paid).federation, ranks_of(unpaid).federation) == (1, 2, None)
    assert world.hbs.pk in places_due(today + datetime.timedelta(days=1))
    places_refresh(world.hbs, day=today + datetime.timedelta(days=1))
    assert list(StandingPlace.objects.filter(federation=world.hbs).values_list("standing_id", "place")) == [
        (paid.pk, 1)
    ]


def test_a_refresh_writes_only_what_changed_and_raises_the_version_only_then(world):
    players = [make_player(world.dbf, str(n)) for n in range(21, 24)]
    for p, units in zip(players, [300, 200, 100], strict=True):
        post_award(p, "BP", units)
    refresh(*players)
    run = StandingPlaces.objects.get(federation=world.dbf)
    assert world.dbf.pk not in places_due(selectors.today())
    assert places_refresh(world.dbf, day=selectors.today()) == 0  # nothing new: not even read again
    post_award(players[2], "BP", 250)  # 350: first; the two others move down one place
    standings_refresh_players(federation=world.dbf, player_ids=[players[2].pk])
    assert [ranks_of(p).federation for p in players] == [2, 3, 1]
    assert StandingPlaces.objects.get(federation=world.dbf).version != run.version


@pytest.mark.places_queued
def test_a_standings_change_queues_one_refresh_after_commit_and_the_task_derives_the_places(
    world, django_capture_on_commit_callbacks
):
    a, b = make_player(world.dbf, "31"), make_player(world.dbf, "32")
    post_award(a, "BP", 100)
    post_award(b, "BP", 200)
    with django_capture_on_commit_callbacks(execute=True):
        refresh(a, b)
        refresh(a)  # a second change while one is queued: not queued twice
    assert Outbox.objects.filter(payload__task=PLACES_TASK).count() == 1
    assert [ranks_of(p).federation for p in (b, a)] == [1, 2]  # the eager drain ran the task after commit
    assert StandingPlaces.objects.get(federation=world.dbf).refreshed_at <= timezone.now()


def test_the_default_list_reads_a_deep_page_by_its_positions_not_by_an_offset(world, client):
    players = [make_player(world.dbf, str(n), last=f"P{n}") for n in range(300, 360)]
    for units, p in enumerate(players, 1):
        post_award(p, "BP", units * 10)  # the last made is first
        ClubMembership.objects.create(player=p, club=world.club_a, is_home=True)
    refresh(*players)
    base = f"/rankings/?federation={world.dbf.pk}&per_page=25"
    with CaptureQueriesContext(connection) as queries:
        response = client.get(base + "&page=3")
    table = response.context["table"]
    assert table.paginator.count == 60
    assert [row.record.place for row in table.paginator.page(3).object_list] == list(range(51, 61))
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert "OFFSET" not in sql and "RANK()" not in sql.upper()
    district = client.get(f"{base}&page=2&region={world.district.pk}").context["table"]
    assert [row.record.place for row in district.paginator.page(2).object_list][:2] == [26, 27]
    sorted_by_name = client.get(base + "&sort=name").context["table"]
    assert sorted_by_name.paginator.count == 60  # another order: ranked as read


@pytest.mark.postgres
@pytest.mark.places_queued
@pytest.mark.django_db(transaction=True)
def test_a_refresh_never_waits_for_a_running_one_and_a_change_it_missed_stays_due(world, monkeypatch):
    """A worker blocked on another refresh's lock would hold a slot the standings updates need: the second
    refresh returns at once, and the change committed while the first ran is not recorded as derived, so
    the beat's next minute derives it (PLACES_BOUND_SECONDS)."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite has no row locks, its single writer serialises all")
    from masterpoints.standings import places
    from tests.masterpoints.standings.test_row_locks import Held, start, waiting_for_a_lock

    a, b = make_player(world.dbf, "41"), make_player(world.dbf, "42")
    post_award(a, "BP", 100)
    post_award(b, "BP", 200)
    refresh(a, b)  # the eager drain derives the places after the commit
    StandingsVersion.objects.filter(federation=world.dbf).update(version=F("version") + 1)  # due again
    held, errors = Held(monkeypatch, places, "_district_sizes"), []
    first = start("first", lambda: places_refresh(world.dbf, day=selectors.today()), errors)
    assert held.reached.wait(30)
    assert places_refresh(world.dbf, day=selectors.today()) == 0 and not waiting_for_a_lock()
    post_award(a, "BP", 150)  # 250: a passes b, committed while the first refresh runs
    refresh(a)  # queues no refresh of its own: one was queued within PLACES_BOUND_SECONDS
    held.release.set()
    first.join(30)
    assert not errors and not first.is_alive()
    assert world.dbf.pk in places_due(selectors.today())
    assert places_refresh(world.dbf, day=selectors.today()) > 0
    assert [ranks_of(p).federation for p in (a, b)] == [1, 2]


@pytest.mark.places_queued
def test_changes_after_a_queued_refresh_wait_for_the_beat_within_the_bound(world, django_capture_on_commit_callbacks):
    """A burst of uploads costs one refresh: a change after the queued one is not queued again within
    PLACES_BOUND_SECONDS, and the beat's minute (places_due) finds its federation due."""
    a, b = make_player(world.dbf, "41"), make_player(world.dbf, "42")
    post_award(a, "BP", 100)
    post_award(b, "BP", 200)
    with django_capture_on_commit_callbacks(execute=True):
        refresh(a, b)
    post_award(a, "BP", 150)  # 250: first now
    with django_capture_on_commit_callbacks(execute=True):
        refresh(a)
    assert Outbox.objects.filter(payload__task=PLACES_TASK).count() == 1
    assert [ranks_of(p).federation for p in (b, a)] == [1, 2]  # not yet derived: the places lag the points
    assert world.dbf.pk in places_due(selectors.today())
    places_refresh(world.dbf, day=selectors.today())  # what the beat runs
    assert [ranks_of(p).federation for p in (a, b)] == [1, 2]

"""Standings derived from the ledger: seasons (§ 451C), titles and categories never lost (§ 404,
H-2), the official list (HBS rules 3 and 4), incremental updates after uploads and the full rebuild."""

from __future__ import annotations

import datetime
import io
import random
import threading
import time

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection, transaction
from django.db.models import F, Sum
from django.db.models.functions import TruncDate
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.models import ClubMembership
from federation.models import AuditEvent, Player
from federation.schemes import scheme_of
from masterpoints.engine.common import format_units
from masterpoints.engine.dbf.rules import DBF_2023
from masterpoints.engine.dbf.titles import Balance, title_rank
from masterpoints.engine.hbs.categories import category_for
from masterpoints.engine.hbs.rules import HBS_DRAFT
from masterpoints.engine.ladders import DbfLadder, HbsLadder
from masterpoints.models import Award, RankingListEntry, SeasonStanding, Standing, StandingsProof, TitleAchievement
from masterpoints.public import selectors
from masterpoints.standings import rebuild
from masterpoints.standings import services as standings
from masterpoints.standings.services import standings_rebuild, standings_refresh_players
from masterpoints.standings.tasks import standings_update_players
from masterpoints.standings.titles import title_status
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from rulebooks.hbs.ordering import hbs_sort_key
from tests.factories import pairs_from_numbers, registered_on, usebio_pairs

DAY = datetime.date(2025, 3, 4)
DBF, HBS = scheme_of("dbf"), scheme_of("hbs")


def player(world, number, fed=None, **fields):
    fed = fed or world.dbf
    return Player.objects.create(federation=fed, number=number, first_name="Ole", last_name=f"L{number}", **fields)


def post(p, kind, units, day=DAY, source=Award.Source.MANUAL, reason="entered by the office", registered=None):
    """An entry dated ``day`` and registered that day, or on ``registered``."""
    with registered_on(registered or day):
        return Award.objects.create(
            federation_id=p.federation_id,
            player=p,
            kind=kind,
            units=units,
            source=source,
            reason=reason,
            awarded_on=day,
        )


def refresh(*players):
    standings_refresh_players(federation=players[0].federation, player_ids=[p.pk for p in players])


# --- seasons ------------------------------------------------------------------------------------------------


def test_the_dbf_season_runs_from_16_may_to_15_may_451c():
    assert DBF.season_of(datetime.date(2025, 5, 15)) == 2024
    assert DBF.season_of(datetime.date(2025, 5, 16)) == 2025
    assert DBF.season_of(datetime.date(2026, 1, 1)) == 2025
    assert DBF.season_dates(2025) == (datetime.date(2025, 5, 16), datetime.date(2026, 5, 15))
    assert DBF.season_label(2025) == "2025/26"


def test_the_hbs_season_is_the_calendar_year():
    assert HBS.season_of(datetime.date(2025, 1, 1)) == 2025
    assert HBS.season_of(datetime.date(2025, 12, 31)) == 2025
    assert HBS.season_label(2025) == "2025"


def test_the_database_puts_awards_in_the_same_seasons_as_season_of_451c(world):
    p = player(world, "1")
    days = [
        datetime.date(2025, 5, 15),
        datetime.date(2025, 5, 16),
        datetime.date(2024, 12, 31),
        datetime.date(2026, 1, 1),
    ]
    for day in days:
        post(p, "BP", 1, day)
    refresh(p)
    seasons = dict(SeasonStanding.objects.filter(player=p).values_list("season", "kind1"))
    expected: dict[int, int] = {}
    for day in days:
        expected[DBF.season_of(day)] = expected.get(DBF.season_of(day), 0) + 1
    assert seasons == expected == {2024: 2, 2025: 2}


# --- the ladders against the engine -----------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(
    bp=st.integers(0, 600_000),
    sp=st.integers(0, 60_000),
    gp=st.integers(0, 60_000) | st.integers(0, 600),
)
def test_the_bulk_title_check_equals_the_engine_title_rank_404(bp, sp, gp):
    assert DbfLadder(DBF_2023).computed((bp, sp, gp)) == title_rank(Balance(bp, sp, gp), DBF_2023)


@settings(max_examples=300, deadline=None)
@given(black=st.integers(0, 5000), red=st.integers(0, 3000), master=st.integers(0, 400))
def test_the_bulk_category_check_equals_the_engine_h_2(black, red, master):
    ladder = HbsLadder(HBS_DRAFT)
    computed = category_for(black, red, master, HBS_DRAFT).computed
    expected = [r.title for r in ladder.rungs].index(computed) + 1 if computed else 0
    assert ladder.computed((black, red, master)) == expected


# --- one player's standing ---------------------------------------------------------------------------------


def test_a_standing_sums_each_kind_and_the_total_in_hundredths_of_mp(world):
    p = player(world, "2")
    post(p, "BP", 24)
    post(p, "SP", 307)  # 30.7 SP
    post(p, "GP", 267, DAY + datetime.timedelta(days=3))  # 2.67 GP
    refresh(p)
    standing = Standing.objects.get(player=p)
    assert (standing.points("BP"), standing.points("SP"), standing.points("GP"), standing.total) == (24, 307, 267, 598)
    assert [
        (b.label, format_units(getattr(standing, b.column), b.decimals)) for b in world.dbf.scheme_info.balances
    ] == [("MP", "5.98"), ("BP", "24"), ("SP", "30.7"), ("GP", "2.67")]
    assert standing.sort_key == 598
    assert standing.award_count == 3
    assert standing.last_award_on == DAY + datetime.timedelta(days=3)
    # T = 5.98 MP: Klubmester (2 MP); 1 star needs 5 MP in BP alone (D-Q11), 24 BP are not enough.
    assert (standing.title, standing.stars, standing.title_rung) == ("klubmester", 0, 1)
    # 3.31 MP on DAY already made a Klubmester: gained on that day's registration (§ 404A, D-Q21).
    assert standing.title_reached_on == DAY


def test_a_title_once_registered_is_never_lost_404(world):
    p = player(world, "3")
    post(p, "SP", 100)  # 10 SP = 1 MP
    post(p, "BP", 1500)  # 15 MP in BP: T = 16 MP, SG = 1 MP < 5: Klubmester ★★ (20 MP kun BP fails)
    refresh(p)
    post(p, "SP", 400, DAY + datetime.timedelta(days=10))  # SG = 5 MP, T = 20 MP: Distriktsmester
    refresh(p)
    standing = Standing.objects.get(player=p)
    assert (standing.title, standing.title_reached_on) == ("distriktsmester", DAY + datetime.timedelta(days=10))
    # A correction takes 4 SP back: the points alone no longer make a Distriktsmester, the title stays.
    post(p, "SP", -400, DAY + datetime.timedelta(days=20), source=Award.Source.CORRECTION, reason="entered twice")
    refresh(p)
    standing = Standing.objects.get(player=p)
    assert standing.title == "distriktsmester"
    assert standing.title_rung == 4
    assert standing.computed_rung < standing.title_rung
    assert standing.title_reached_on == DAY + datetime.timedelta(days=10)
    assert list(TitleAchievement.objects.filter(player=p).values_list("title", "stars")) == [
        ("klubmester", 1),
        ("distriktsmester", 0),
    ]
    status = title_status(p, standing)
    assert status.held_above_computed
    assert status.next.title == "Kredsmester"


def test_an_hbs_category_reached_by_points_follows_them_when_corrected_away_h_24(world):
    """H-24 (replacing H-2's "a category once held is kept"): only transition rule 4 keeps categories; karo
    reached by 520 black points falls to tref when a correction takes 100 away. The register keeps karo."""
    p = player(world, "4", world.hbs)
    post(p, "black", 520)
    refresh(p)
    assert Standing.objects.get(player=p).title == "karo"
    post(p, "black", -100, source=Award.Source.CORRECTION, reason="counted twice")
    refresh(p)
    standing = Standing.objects.get(player=p)
    assert (standing.title, standing.computed_rung, standing.title_rung) == ("tref", 2, 2)
    assert TitleAchievement.objects.filter(player=p, title="karo").exists()
    status = title_status(p, standing)
    assert status.title == "Tref" and status.computed == "Tref" and not status.held_above_computed
    assert status.next.title == "Karo" and dict(status.next.missing)["black"] == "80"


def test_the_register_of_titles_is_append_only_and_records_each_rung_once(world):
    p = player(world, "5")
    post(p, "BP", 300)
    refresh(p)
    refresh(p)
    (achievement,) = TitleAchievement.objects.filter(player=p)
    with pytest.raises(TypeError):
        achievement.delete()
    with pytest.raises(TypeError):
        TitleAchievement.objects.filter(player=p).update(title="stormester")
    assert TitleAchievement.objects.filter(player=p).update(announced_at=datetime.datetime.now(datetime.UTC)) == 1


def test_hbs_ranks_by_category_then_master_red_and_black_points(world):
    a = player(world, "11", world.hbs)
    b = player(world, "12", world.hbs)
    c = player(world, "13", world.hbs)
    post(a, "black", 250)  # tref
    post(b, "black", 199)  # vankategornik, but many master points
    post(b, "master", 40)
    post(c, "black", 240)  # tref, fewer black points than a but one red point
    post(c, "red", 1)
    refresh(a, b, c)
    ordered = [s.player.number for s in selectors.ranked(Standing.objects.all(), scheme="hbs", kind=None)]
    assert ordered == ["13", "11", "12"]
    assert hbs_sort_key((0, 1, 0), 2) > hbs_sort_key((10**6, 0, 0), 2)


def test_equal_points_share_a_place_and_ranks_count_the_better_players(world):
    numbers = ["21", "22", "23", "24"]
    players = [player(world, n) for n in numbers]
    for p, units in zip(players, [500, 300, 300, 100], strict=True):
        post(p, "BP", units)
        ClubMembership.objects.create(player=p, club=world.club_a, is_home=True)
    refresh(*players)
    rows = list(selectors.ranked(Standing.objects.filter(federation=world.dbf), scheme="dbf", kind=None))
    assert [(r.player.number, r.place) for r in rows] == [("21", 1), ("22", 2), ("23", 2), ("24", 4)]
    standing = Standing.objects.get(player=players[3])
    ranks = selectors.player_ranks(players[3], standing, world.club_a)
    assert (ranks.federation, ranks.district, ranks.club) == (4, 4, 4)
    assert ranks.district_name == world.district.name


def test_the_official_list_holds_paid_members_and_guests_who_asked_rule_3_rule_4(world):
    today = selectors.today()
    paid = player(world, "31", world.hbs, dues_paid_until=today)
    unpaid = player(world, "32", world.hbs, dues_paid_until=today - datetime.timedelta(days=1))
    guest = player(world, "33", world.hbs, status="guest")
    listed = player(world, "34", world.hbs, status="guest", listed_on_request=True)
    for p in (paid, unpaid, guest, listed):
        post(p, "black", 60)
    refresh(paid, unpaid, guest, listed)
    official = selectors.on_official_list(Standing.objects.all(), today)
    assert sorted(s.player.number for s in official) == ["31", "34"]
    assert selectors.player_ranks(unpaid, Standing.objects.get(player=unpaid), None).federation is None


# --- after an upload ----------------------------------------------------------------------------------------

DBF_NUMBERS = [str(70001 + i) for i in range(24)]
SEASON_EDGES = [datetime.date(2024, 5, 15), datetime.date(2024, 5, 16), datetime.date(2024, 12, 31)]
SEASON_EDGES += [datetime.date(2025, 1, 1), datetime.date(2025, 9, 3)]
HBS_NUMBERS = [str(7001 + i) for i in range(24)]


def upload(world, numbers, *, day, seed, scheme="dbf", name="Mandagsturnering"):
    fed, club = (world.dbf, world.club_a) if scheme == "dbf" else (world.hbs, world.club_hr)
    data = usebio_pairs(
        club_number=club.number,
        date=day,
        name=name,
        sections=[pairs_from_numbers(numbers, seed=seed)],
        boards=24,
    )
    facts = {"organiser_kind": "club", "form": "", "boards": None}
    facts.update({"category": "BP", "met": None} if scheme == "dbf" else {"category": "black", "strength": "1"})
    created = results_upload_create(
        actor=None, federation=fed, club=club, region=None, data=data, filename="r.xml", facts=facts, trusted=True
    )
    return created


@pytest.fixture
def registers(world):
    for number in DBF_NUMBERS:
        player(world, number)
    for number in HBS_NUMBERS:
        player(world, number, world.hbs)


def test_confirming_an_upload_updates_its_players_standings_after_commit(
    world, registers, django_capture_on_commit_callbacks
):
    created = upload(world, DBF_NUMBERS, day=DAY, seed=3)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        results_upload_confirm(actor=None, upload=created, acknowledge_warnings=True, trusted=True)
    assert [type(callback).__name__ for callback in callbacks].count("_DrainAfterCommit") == 1  # one queued update
    winners = Standing.objects.filter(player__number__in=DBF_NUMBERS[:2])
    assert sorted(s.points("BP") for s in winners) == [24, 24]  # D-P1: 12 pairs, 24 boards
    assert Standing.objects.filter(federation=world.dbf).count() == 8  # four pairs paid


def test_a_reupload_updates_the_players_of_both_versions(world, registers, django_capture_on_commit_callbacks):
    first = upload(world, DBF_NUMBERS, day=DAY, seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        results_upload_confirm(actor=None, upload=first, acknowledge_warnings=True, trusted=True)
    before = {s.player.number for s in Standing.objects.filter(kind1__gt=0)}
    second = upload(world, list(reversed(DBF_NUMBERS)), day=DAY, seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        results_upload_confirm(actor=None, upload=second, acknowledge_warnings=True, trusted=True)
    after = {s.player.number for s in Standing.objects.filter(kind1__gt=0)}
    assert before.isdisjoint(after)
    assert all(s.points("BP") == 0 for s in Standing.objects.filter(player__number__in=before))
    assert_rebuild_equals_incremental()


# --- the full rebuild equals the incremental updates ---------------------------------------------------------


def snapshot():
    standings = sorted(
        Standing.objects.values_list(
            "player_id",
            "federation_id",
            "kind1",
            "kind2",
            "kind3",
            "total",
            "sort_key",
            "last_award_on",
            "award_count",
            "computed_rung",
            "title_rung",
            "title",
            "stars",
            "title_reached_on",
        )
    )
    seasons = sorted(
        SeasonStanding.objects.values_list(
            "player_id",
            "federation_id",
            "season",
            "kind1",
            "kind2",
            "kind3",
            "total",
            "sort_key",
            "last_award_on",
            "award_count",
        )
    )
    titles = sorted(TitleAchievement.objects.values_list("player_id", "rung", "title", "stars", "reached_on"))
    # DBf's ranking list (issue 18, D-Q59): computed with the standings, for today in both paths.
    ranking = sorted(RankingListEntry.objects.values_list("player_id", "federation_id", "score", "changes_on"))
    return standings, seasons, titles, ranking


def assert_rebuild_equals_incremental():
    incremental = snapshot()
    assert incremental[3], "DBf awards registered within three years give ranking list rows to compare"
    # Over the incrementally kept rows (the nightly run): nothing changes.
    standings_rebuild()
    assert snapshot() == incremental
    # Damaged derived rows are repaired: a wrong balance, a missing season, a season without awards.
    damaged = Standing.objects.order_by("player_id").first()
    Standing.objects.filter(pk=damaged.pk).update(kind1=F("kind1") + 1, title="stormester")
    SeasonStanding.objects.filter(pk=SeasonStanding.objects.order_by("pk").first().pk).delete()
    SeasonStanding.objects.create(player_id=damaged.player_id, federation_id=damaged.federation_id, season=1999)
    # A wrong ranking figure and a figure of a player with none (issue 18).
    RankingListEntry.objects.filter(pk__in=RankingListEntry.objects.order_by("pk").values("pk")[:1]).update(score=1)
    stray = Player.objects.filter(ranking_entry__isnull=True).order_by("pk").first()
    RankingListEntry.objects.create(player=stray, federation_id=stray.federation_id, score=7)
    standings_rebuild()
    assert snapshot() == incremental
    # From scratch: the derived rows go; the register of titles stays (titles are never lost, § 404, H-2).
    Standing.objects.all().delete()
    SeasonStanding.objects.all().delete()
    RankingListEntry.objects.all().delete()
    standings_rebuild()
    assert snapshot() == incremental


def replayed_titles() -> list[tuple[int, int, datetime.date]]:
    """(player, rung, day) of each player's highest rung by the ledger, replayed registration day by day with
    the built-in ladder: the rung the final balances reach, dated by the first day whose registered balances
    reached it (§ 404A "efter registrering", D-Q21). Independent of the standings code."""
    daily: dict[int, list] = {}
    rows = Award.objects.annotate(registered=TruncDate("created_at"))
    rows = rows.values("player_id", "player__federation__scheme", "registered", "kind")
    for row in rows.annotate(units=Sum("units")).order_by("player_id", "registered"):
        daily.setdefault(row["player_id"], []).append(row)
    replayed = []
    for player_id, entries in daily.items():
        info = scheme_of(entries[0]["player__federation__scheme"])
        ladder = info.ladder(info.current_rules)
        totals = dict.fromkeys(info.kinds, 0)
        days = []
        for row in entries:
            totals[row["kind"]] += row["units"]
            if days and days[-1][0] == row["registered"]:
                days.pop()
            days.append((row["registered"], ladder.computed(tuple(totals[k] for k in info.kinds))))
        top = days[-1][1]
        if top:
            replayed.append((player_id, top, next(day for day, rung in days if rung >= top)))
    return sorted(replayed)


def assert_rebuilt_register_dates_follow_the_ledger():
    """D-Q21 in the rebuild: with the register gone, every title is registered again on the first registration
    day whose balances reach it (a day's entries together, reversals on the day they were registered)."""
    TitleAchievement.objects.all()._raw_delete(TitleAchievement.objects.db)
    standings_rebuild()
    assert sorted(TitleAchievement.objects.values_list("player_id", "rung", "reached_on")) == replayed_titles()
    assert sorted(
        Standing.objects.filter(title_rung__gt=0).values_list("player_id", "title_rung", "title_reached_on")
    ) == (replayed_titles())


#: The registration days of the random steps: after every opening balance and tournament date.
REGISTERED_FROM = datetime.date(2026, 1, 5)


def _random_step(world, rng, step, confirmed, django_capture_on_commit_callbacks):
    """One step of the random history, registered on a day of its own (D-Q21, whatever the tournament's
    date): a commission correction, a re-upload of a confirmed event or an upload."""
    action, today = step
    with registered_on(today):
        _random_action(world, rng, action, today, len(confirmed), confirmed, django_capture_on_commit_callbacks)


def _random_action(world, rng, action, today, step, confirmed, django_capture_on_commit_callbacks):
    if action == "correction":
        scheme, day, _name, numbers = rng.choice(confirmed)
        fed = world.dbf if scheme == "dbf" else world.hbs
        target = Player.objects.get(federation=fed, number=rng.choice(numbers))
        kind = rng.choice(["BP", "SP", "GP"] if scheme == "dbf" else ["black", "red", "master"])
        units = rng.choice([-7, -2, 3, 40, 250])
        post(target, kind, units, day, source=Award.Source.CORRECTION, reason="commission", registered=today)
        standings_update_players.delay(fed.pk, [target.pk])
        return
    if action == "reupload":
        scheme, day, name, numbers = rng.choice(confirmed)
        numbers = rng.sample(numbers, len(numbers))
    else:
        scheme = rng.choice(["dbf", "hbs"])
        pool = DBF_NUMBERS if scheme == "dbf" else HBS_NUMBERS
        numbers = rng.sample(pool, rng.choice([12, 16, 20, 24]))
        # Dates across season ends: 15/16 May (DBf, § 451C) and the new year (HBS).
        day = rng.choice(SEASON_EDGES)
        name = f"Turnering {step}"
    created = upload(world, numbers, day=day, seed=rng.randrange(100), scheme=scheme, name=name)
    with django_capture_on_commit_callbacks(execute=True):
        results_upload_confirm(actor=None, upload=created, acknowledge_warnings=True, trusted=True)
    confirmed.append((scheme, day, name, numbers))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_full_rebuild_equals_random_uploads_corrections_and_reuploads(
    world, registers, django_capture_on_commit_callbacks, seed
):
    rng = random.Random(seed)
    # Opening balances just short of the first rung (1.80 of Klubmester's 2 MP; 45 of vankategornik's 50
    # black points): the uploads and corrections then reach titles on many different days (D-Q21).
    for fed, kind, units in ((world.dbf, "BP", 180), (world.hbs, "black", 45)):
        for p in Player.objects.filter(federation=fed, number__in=DBF_NUMBERS + HBS_NUMBERS):
            post(p, kind, units, SEASON_EDGES[0], reason="opening balance")
        standings_update_players.delay(fed.pk, list(Player.objects.filter(federation=fed).values_list("pk", flat=True)))
    actions = ["upload"] * 4 + ["reupload"] * 3 + ["correction"] * 3
    actions = ["upload", *rng.sample(actions, len(actions))]
    confirmed = []
    for step, action in enumerate(actions):
        today = REGISTERED_FROM + datetime.timedelta(days=step)
        _random_step(world, rng, (action, today), confirmed, django_capture_on_commit_callbacks)
    assert Award.objects.filter(source=Award.Source.REVERSAL).exists()
    assert Award.objects.filter(source=Award.Source.CORRECTION).exists()
    assert_rebuild_equals_incremental()
    assert_rebuilt_register_dates_follow_the_ledger()


def test_the_rebuild_repairs_season_figures_whose_career_sums_are_right(world):
    """Damage that leaves every season row consistent in itself and every career sum right: points or an
    award counted in the wrong season (§ 451C), points under another kind. The rebuild compares season by
    season, so it repairs them."""
    p = player(world, "42")
    for day in (datetime.date(2024, 5, 15), datetime.date(2024, 5, 15), DAY, DAY):
        post(p, "BP", 30, day)
        post(p, "SP", 20, day)
    standings_rebuild()
    kept = snapshot()
    early, late = SeasonStanding.objects.filter(player=p).order_by("season")
    assert (early.season, late.season, early.points("BP"), late.award_count) == (2023, 2024, 60, 4)
    damages = [
        (
            {"kind1": F("kind1") - 1, "total": F("total") - 1, "sort_key": F("sort_key") - 1},
            {"kind1": F("kind1") + 1, "total": F("total") + 1, "sort_key": F("sort_key") + 1},
        ),
        ({"award_count": F("award_count") - 1}, {"award_count": F("award_count") + 1}),
        ({"kind1": F("kind1") - 10, "kind2": F("kind2") + 10}, {"kind1": F("kind1") + 10, "kind2": F("kind2") - 10}),
    ]
    for from_early, to_late in damages:
        early, late = SeasonStanding.objects.filter(player=p).order_by("season")  # rewritten rows are new rows
        SeasonStanding.objects.filter(pk=early.pk).update(**from_early)
        SeasonStanding.objects.filter(pk=late.pk).update(**to_late)
        assert snapshot() != kept
        standings_rebuild()
        assert snapshot() == kept


def test_the_rebuild_is_audited_and_the_command_runs_it(world):
    p = player(world, "41")
    post(p, "BP", 250)
    call_command("recompute_standings", "--full", stdout=io.StringIO())
    assert Standing.objects.get(player=p).points("BP") == 250
    assert AuditEvent.objects.filter(action="standings.rebuild").count() == 2  # one per federation
    post(p, "BP", 5)
    call_command("recompute_standings", "--federation", "dbf", stdout=io.StringIO())
    assert Standing.objects.get(player=p).points("BP") == 255


# --- concurrency: two uploads confirmed at once (PostgreSQL) -------------------------------------------------


ROTATED = DBF_NUMBERS[4:] + DBF_NUMBERS[:4]


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite runs one writer at a time, so nothing races")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_uploads_confirmed_at_once_lose_no_standings_update(postgres, world, monkeypatch):
    for number in DBF_NUMBERS:
        Player.objects.create(federation=world.dbf, number=number, first_name="Else", last_name=number)
    rounds = [
        (
            upload(world, DBF_NUMBERS, day=datetime.date(2025, 3, 3 + r), seed=r, name=f"Mandag {r}"),
            # Places follow the list: the second list overlaps the first one's paid players by two pairs.
            upload(world, ROTATED, day=datetime.date(2025, 4, 3 + r), seed=r + 50, name=f"Torsdag {r}"),
        )
        for r in range(3)
    ]
    # Widen the window between reading the ledger and writing the standings, so that the other upload
    # commits (and its update starts) while this one still holds what it read.
    read_ledger = standings._season_rows

    def slow_read(*args, **kwargs):
        read_ledger(*args, **kwargs)
        time.sleep(0.3)

    monkeypatch.setattr(standings, "_season_rows", slow_read)
    errors: list[BaseException] = []

    def confirm(created, barrier):
        try:
            barrier.wait(timeout=10)
            results_upload_confirm(actor=None, upload=created, acknowledge_warnings=True, trusted=True)
        except BaseException as error:  # reported below, in the test's own thread
            errors.append(error)
        finally:
            connection.close()

    for pair in rounds:
        barrier = threading.Barrier(2)
        threads = [threading.Thread(target=confirm, args=(created, barrier)) for created in pair]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in threads)
    assert not errors, errors

    ledger = dict(
        Award.objects.filter(federation=world.dbf, kind="BP")
        .values("player_id")
        .annotate(t=Sum("units"))
        .values_list("player_id", "t")
    )
    assert len(ledger) == 12  # the first four pairs of each list are paid (D-P1); two pairs are in both
    assert dict(Standing.objects.filter(federation=world.dbf).values_list("player_id", "kind1")) == ledger
    assert_rebuild_equals_incremental()


@pytest.fixture
def second_connection(monkeypatch):
    """Every federation counts as large enough to be rebuilt in two halves; records each half read on a
    second connection as (federation code, first player id)."""
    monkeypatch.setattr(rebuild, "SPLIT_PLAYERS", 2)
    calls: list[tuple[str, int]] = []
    read_apart = rebuild._rebuild_part_apart

    def spy(federation, players):
        calls.append((federation.code, players[0]))
        return read_apart(federation, players)

    monkeypatch.setattr(rebuild, "_rebuild_part_apart", spy)
    return calls


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_rebuild_in_two_halves_at_once_gives_and_repairs_what_one_pass_gives(postgres, world, second_connection):
    """A large federation's rebuild reads its second half of players on a second connection at the same
    time. Seasons across § 451C's 15/16 May, titles (§ 404) and damage on both sides of the cut must come
    out exactly as from the rebuild in one pass."""
    players = [player(world, str(80001 + i)) for i in range(30)]
    for i, p in enumerate(players):
        for day in SEASON_EDGES[: 1 + i % len(SEASON_EDGES)]:
            post(p, "BP", 40 * (i + 1), day)
            post(p, "SP", 3 * (i % 7) + 1, day)
        if i % 5 == 0:
            post(p, "GP", 2, SEASON_EDGES[-1])
    with transaction.atomic():
        standings._recompute(world.dbf, None)  # one pass, on this connection alone
    kept = snapshot()
    assert not second_connection

    first, last = players[0], players[-1]
    Standing.objects.filter(player=first).update(kind1=F("kind1") + 1)
    Standing.objects.filter(player=last).delete()
    SeasonStanding.objects.filter(player=last).order_by("season").first().delete()
    SeasonStanding.objects.filter(player=first).update(award_count=F("award_count") + 1)
    SeasonStanding.objects.create(player_id=last.pk, federation_id=world.dbf.pk, season=1999)
    StandingsProof.objects.all().delete()  # nothing proven (a first rebuild): every season is read, in halves
    standings_rebuild(federation=world.dbf)
    halfway = sorted(Player.objects.filter(federation=world.dbf).values_list("pk", flat=True))[31 // 2]
    assert second_connection == [("dbf", halfway)]
    assert first.pk < halfway <= last.pk
    assert snapshot() == kept

    Standing.objects.all().delete()
    SeasonStanding.objects.all().delete()
    standings_rebuild(federation=world.dbf)
    assert snapshot() == kept


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_without_a_second_connection_the_rebuild_reads_everything_itself_and_a_failure_writes_nothing(
    postgres, world, second_connection, monkeypatch
):
    """No second connection to be had (the server's limit): one pass, the same result. Any other failure of
    the second half: the rebuild fails as a whole and writes nothing."""
    players = [player(world, str(81001 + i)) for i in range(6)]
    for i, p in enumerate(players):
        post(p, "BP", 30 * (i + 1), SEASON_EDGES[i % len(SEASON_EDGES)])
    with transaction.atomic():
        standings._recompute(world.dbf, None)
    kept = snapshot()
    Standing.objects.filter(player=players[-1]).update(kind1=F("kind1") + 1)

    def refused(federation, players):
        raise OperationalError("sorry, too many clients already")

    monkeypatch.setattr(rebuild, "_rebuild_part_apart", refused)
    StandingsProof.objects.all().delete()  # nothing proven: every season is read, in halves where it can be
    standings_rebuild(federation=world.dbf)
    assert snapshot() == kept

    Standing.objects.filter(player=players[-1]).update(kind1=F("kind1") + 1)
    damaged = snapshot()

    def broken(federation, players):
        raise RuntimeError("the second half broke")

    monkeypatch.setattr(rebuild, "_rebuild_part_apart", broken)
    StandingsProof.objects.all().delete()
    with pytest.raises(RuntimeError):
        standings_rebuild(federation=world.dbf)
    assert snapshot() == damaged


@pytest.mark.postgres
def test_a_rebuild_after_awards_of_its_own_transaction_reads_them_in_one_pass(postgres, world, second_connection):
    """A second connection would not see awards this transaction has not committed: the rebuild then
    reads the whole ledger on its own connection."""
    p = player(world, "7")
    q = player(world, "8")
    post(p, "BP", 120)
    post(q, "SP", 4)
    standings_rebuild()
    assert not second_connection
    assert dict(Standing.objects.values_list("player_id", "kind1")) == {p.pk: 120, q.pk: 0}
    assert Standing.objects.get(player=q).points("SP") == 4


# --- the admin -------------------------------------------------------------------------------------------------


def test_the_secretariat_starts_a_full_rebuild_from_the_admin(
    world, personas, client, django_capture_on_commit_callbacks
):
    p = player(world, "51")
    post(p, "BP", 250)
    client.force_login(personas.secretariat)
    listing = client.get("/admin/masterpoints/standing/")
    assert listing.status_code == 200
    assert "Rebuild every standing from the ledger" in listing.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/admin/masterpoints/standing/rebuild/")
    assert response.status_code == 302
    assert Standing.objects.get(player=p).points("BP") == 250
    client.force_login(personas.director_a)
    # A club director is not staff: the admin sends them to its login, and nothing is rebuilt.
    refused = client.post("/admin/masterpoints/standing/rebuild/")
    assert refused.status_code == 302 and refused.url.startswith("/admin/login/")
    listing = client.get("/admin/masterpoints/titleachievement/")
    assert listing.status_code == 302 and listing.url.startswith("/admin/login/")


# --- seed_demo --awards -------------------------------------------------------------------------------------------


def test_seed_demo_writes_seasons_of_awards_through_the_engine_and_their_standings(db):
    call_command("seed_demo", players=80, clubs=4, hbs_players=40, awards=1200, seasons=2, stdout=io.StringIO())
    awards = Award.objects.count()
    assert 1000 <= awards <= 1500
    result = Award.objects.filter(source=Award.Source.RESULT).select_related("tournament").first()
    assert result.explanation_data["rules"] and result.tournament.name
    assert Award.objects.filter(source=Award.Source.TRANSITION).exists()  # opening balances
    assert Award.objects.filter(source=Award.Source.REVERSAL).exists()  # a re-upload of the demo
    assert Standing.objects.filter(federation__code="dbf").exists()
    assert Standing.objects.filter(federation__code="hbs").exists()
    seasons = set(SeasonStanding.objects.filter(federation__code="dbf").values_list("season", flat=True))
    assert len(seasons) >= 2
    assert_rebuild_equals_incremental()
    call_command("seed_demo", players=80, clubs=4, hbs_players=40, awards=1200, seasons=2, stdout=io.StringIO())
    assert Award.objects.count() == awards  # idempotent

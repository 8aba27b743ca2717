"""A history of demo tournaments and awards through the engine (``seed_demo --awards``).

:func:`seed_history` plans seasons of club, regional and national pairs events (:mod:`demo.planning`),
scores each field with the engine (:mod:`demo.scales`) and writes tournaments and awards in bulk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, time, timedelta

from django.db import connection, transaction

from clubs.models import Club, ClubMembership, PlayingTime
from demo.corrections import corrections_create
from demo.data import demo_opening_balance
from demo.planning import DemoEvent, DemoHost, demo_seasons, plan_season
from demo.profiles import DEMO_PROFILES
from demo.scales import DemoScales
from federation.models import Federation, Player, Region, RuleSet
from federation.rulesets import rules_for
from masterpoints.ledger import explanations_store
from masterpoints.models import Award
from masterpoints.standings.services import standings_rebuild
from tournaments.models import Entry, Participation, RankingGroup, Tournament

#: The latest seasons whose tournaments' results (rows, pairs, players) are stored in full, at most
#: :data:`DETAILED_TOURNAMENTS` of each season (its latest); older ones keep only the tournament and its
#: awards, so ten years of history stay quick to build. Four: the default history (``seed_demo``) in full, so
#: its tournament pages show their rankings and the what-if run replays them (transition rule 8, H-13).
DETAILED_SEASONS = 4
DETAILED_TOURNAMENTS = 5000
#: Rows per ``bulk_create`` batch.
BATCH_SIZE = 2000


def seed_history(*, federation: Federation, awards: int, seasons: int, log: Callable[[str], object] = print) -> int:
    """Plan about ``awards`` awards over ``seasons`` seasons of club, regional and national pairs events,
    score each field with the engine and write tournaments and awards in bulk (COPY on PostgreSQL).

    Every player first gets an opening balance dated the day before the history. Standings are rebuilt
    after each season, so titles are registered as the seasons pass; the last season also gets a few
    corrections. Returns the number of awards written; 0 when the federation already has demo tournaments
    (idempotent).
    """
    if Tournament.objects.filter(federation=federation, event_key__startswith="demo:").exists():
        log(f"{federation.code}: demo tournaments exist already; no awards generated.")
        return 0
    bounds = demo_seasons(seasons, federation.scheme_info, date.today())
    _rules_for_history(federation, bounds[0][0])
    hosts = _hosts(federation)
    scales = DemoScales(federation)
    written = _opening_balances(federation, bounds[0][0] - timedelta(days=1))
    for index, season in enumerate(bounds):
        last = index == len(bounds) - 1
        # A season still running (today) gets its share by days played so far.
        days = [(end - start).days + 1 for start, end in bounds[index:]]
        wanted = (awards - written) * days[0] // sum(days)
        events = plan_season(federation.scheme, index, season, hosts, wanted, scales.paid_places)
        recent = index >= len(bounds) - DETAILED_SEASONS
        detailed = max(0, len(events) - DETAILED_TOURNAMENTS) if recent else len(events)
        with transaction.atomic():
            written += _write_events(federation, index, events, scales, detailed_from=detailed)
            if last:
                written += corrections_create(federation)
        standings_rebuild(actor=None, federation=federation)
        log(f"{federation.code}: season {season[0]:%Y-%m-%d}: {len(events)} tournaments, {written} awards so far")
    return written


def _registered(day: date, now: datetime, *, days_later: int = 1) -> datetime:
    """When a demo entry of ``day`` was registered: the director uploads the evening after the tournament
    (19:00 UTC), never later than now. Titles count from registration (§ 404A, D-Q21)."""
    return min(now, datetime.combine(day + timedelta(days=days_later), time(19), UTC))


def _opening_balances(federation: Federation, day: date) -> int:
    """Write the balances brought from the previous system, as opening-balance awards on ``day``; returns
    how many."""
    registered = _registered(day, datetime.now(UTC), days_later=0)
    reason = "Opening balance from the previous system (demo)"
    rows = [
        (federation.pk, pk, kind, units, "transition", "", reason, day, registered)
        for pk, number in Player.objects.filter(federation=federation).order_by("pk").values_list("pk", "number")
        for kind, units in demo_opening_balance(federation.scheme, number)
    ]
    columns = ("federation_id", "player_id", "kind", "units", "source", "part", "reason", "awarded_on")
    _copy(Award, (*columns, "created_at"), rows)
    return len(rows)


def _rules_for_history(federation: Federation, first_day: date) -> None:
    """Make a rule set valid on ``first_day``: where the built-in rules start later (DBf's on 1 September
    2023), a stored rule set from ``first_day`` computes the older history by today's rules."""
    try:
        rules_for(federation, first_day)
    except LookupError:
        RuleSet.objects.get_or_create(
            federation=federation,
            valid_from=first_day,
            defaults={"name": "Demo history under today's rules", "note": "Written by seed_demo --awards."},
        )


def _hosts(federation: Federation) -> dict[str, list[DemoHost]]:
    """The hosts by organiser: clubs with members (on their playing weekdays, Saturday if none), districts
    with their clubs' members and the federation with everyone (both on weekends), in primary-key order."""
    members: dict[int, list[int]] = {}
    for club_id, player_id in ClubMembership.objects.filter(club__federation=federation).values_list(
        "club_id", "player_id"
    ):
        members.setdefault(club_id, []).append(player_id)
    weekdays: dict[int, set[int]] = {}
    for club_id, weekday in PlayingTime.objects.filter(club__federation=federation).values_list("club_id", "weekday"):
        weekdays.setdefault(club_id, set()).add(weekday)
    clubs = list(Club.objects.filter(federation=federation).order_by("pk").values_list("pk", flat=True))
    hosts = {
        "club": [
            DemoHost("club", pk, tuple(sorted(weekdays.get(pk, {5}))), tuple(sorted(members.get(pk, []))))
            for pk in clubs
            if members.get(pk)
        ]
    }
    districts = []
    for region in Region.objects.filter(federation=federation, kind="district").order_by("pk"):
        players = sorted({p for club in region.clubs.all() for p in members.get(club.pk, [])})
        if players:
            districts.append(DemoHost("district", region.pk, (5, 6), tuple(players)))
    hosts["district"] = districts
    everyone = tuple(sorted({p for ids in members.values() for p in ids}))
    hosts["federation"] = [DemoHost("federation", federation.pk, (5, 6), everyone)] if everyone else []
    return hosts


def _playing_times(federation: Federation) -> dict[tuple[int, int], int]:
    """(club, weekday) → the club's first playing time that weekday: the session a demo club event records
    (§ 452A)."""
    sessions: dict[tuple[int, int], int] = {}
    for pk, club_id, weekday in PlayingTime.objects.filter(club__federation=federation).values_list(
        "pk", "club_id", "weekday"
    ):
        sessions.setdefault((club_id, weekday), pk)
    return sessions


def _write_events(
    federation: Federation, season: int, events: Sequence[DemoEvent], scales: DemoScales, *, detailed_from: int
) -> int:
    """Write the tournaments (bulk) and their awards (COPY on PostgreSQL), with full results for the events
    from ``detailed_from`` on; returns the number of awards."""
    profile = DEMO_PROFILES[federation.scheme]
    sessions = _playing_times(federation)
    tournaments = Tournament.objects.bulk_create(
        [
            Tournament(
                federation=federation,
                organiser_kind=event.host.organiser,
                club_id=event.host.index if event.host.organiser == "club" else None,
                region_id=event.host.index if event.host.organiser == "district" else None,
                playing_time_id=sessions.get((event.host.index, event.day.weekday()))
                if event.host.organiser == "club"
                else None,
                name=f"{profile.tournament_names[event.host.organiser]} {event.day:%d.%m.%Y}",
                event_key=f"demo:{season}:{number}",
                date=event.day,
                form="pairs",
                category=event.category,
                boards=event.boards,
                strengths={event.category: profile.event_strength} if profile.event_strength else {},
                file_info={"demo": True},
            )
            for number, event in enumerate(events)
        ],
        batch_size=BATCH_SIZE,
    )
    now = datetime.now(UTC)
    paid: list[tuple] = []
    for tournament, event in zip(tournaments, events, strict=True):
        places = scales.places(event.host.organiser, event.category, len(event.pairs), event.boards)
        for place, (pair, (units, explanation, part)) in enumerate(zip(event.pairs, places, strict=True), start=1):
            if not units:
                break
            paid.append((tournament, event, place, pair, units, explanation, part))
    # One explanation per paid place (a pair's players share it), stored apart from the ledger, whose rows stay narrow.
    refs = explanations_store([((t.pk, part), explanation) for t, _e, _p, _pair, _u, explanation, part in paid])
    rows: list[tuple] = []
    for (tournament, event, place, pair, units, _explanation, part), ref in zip(paid, refs, strict=True):
        registered = _registered(event.day, now)
        kind, tid, day = event.category, tournament.pk, event.day
        rows += [
            (federation.pk, player, kind, units, "result", tid, part, place, place, ref, "", day, registered)
            for player in pair
        ]
    columns = ("federation_id", "player_id", "kind", "units", "source", "tournament_id", "part", "place_first")
    columns += ("place_last", "explanation_ref_id", "reason", "awarded_on", "created_at")
    _copy(Award, columns, rows)
    _details(tournaments[detailed_from:], events[detailed_from:])
    return len(rows)


def _copy(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert ``rows`` (values of ``columns``) into ``model``'s table: COPY on PostgreSQL (millions of rows
    in seconds), an INSERT of the same values elsewhere."""
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    # The same values as COPY writes, as they are: no field's pre_save (``created_at`` is the registration day
    # the seed chose, not the moment of seeding).
    fields = [model._meta.get_field(column) for column in columns]
    table = connection.ops.quote_name(model._meta.db_table)
    placeholders = ", ".join(["%s"] * len(columns))
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({placeholders})"  # noqa: S608 - the model's own names
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH_SIZE):
            batch = rows[start : start + BATCH_SIZE]
            cursor.executemany(
                sql, [[f.get_db_prep_value(v, connection) for f, v in zip(fields, row, strict=True)] for row in batch]
            )


def _details(tournaments: Sequence[Tournament], events: Sequence[DemoEvent]) -> None:
    """Write one ranking group per tournament with its pairs (placed as planned) and their players, as a
    confirmed upload stores them."""
    groups = RankingGroup.objects.bulk_create(
        [
            RankingGroup(tournament=t, key="A", name="", field_size=len(e.pairs))
            for t, e in zip(tournaments, events, strict=True)
        ],
        batch_size=BATCH_SIZE,
    )
    entries, pairs = [], []
    for group, event in zip(groups, events, strict=True):
        for place, pair in enumerate(event.pairs, start=1):
            entries.append(Entry(group=group, key=f"e{place}", number=str(place), place_first=place, place_last=place))
            pairs.append(pair)
    entries = Entry.objects.bulk_create(entries, batch_size=BATCH_SIZE)
    Participation.objects.bulk_create(
        [
            Participation(entry=entry, player_id=player_id, resolution="member")
            for entry, pair in zip(entries, pairs, strict=True)
            for player_id in pair
        ],
        batch_size=BATCH_SIZE,
    )

"""Standings benchmark (issue 16): the rebuild against a plain GROUP BY and the physical floor, the pages under
50 clients against a trivial view, confirm → page with a real worker, and the incremental update.

    DATABASE_URL=postgres://… .venv/bin/python bench/standings.py [--players 100000] [--awards 5000000]
        [--requests 2000] [--seconds 120] [--clients 50] [--workers 4] [--confirms 20] [--after-rounds 3]
        [--parts rebuild,incremental,latency,lists,export] [--keep] [--reuse]

One run prints each figure on its own line as ``name=value`` (human-readable lines around them):

- ``loadavg`` (start and end, /proc/loadavg), ``cores``; ``steal_start_pct`` (the two seconds before the run)
  and ``steal_run_pct`` (the whole run, printed at its end), as ``steal_pct`` below;
- ``award_row_bytes``: ``avg(pg_column_size(award.*))``, the ledger row's average width;
- ``groupby_s``: ``SELECT player_id, kind, SUM(units) FROM masterpoints_award GROUP BY player_id, kind``
  (median of ``--repeat``); ``floor_groupby_s``: the same GROUP BY over a minimal (player, date, kind, units)
  table copied from the ledger in this run (``CREATE TABLE … AS SELECT``, ``ANALYZE``): the physical floor;
- ``rebuild_s``: the nightly full rebuild (``standings_rebuild_recorded`` per federation, as
  ``recompute_standings --full`` runs it) on built standings; ``rebuild_vs_groupby``, ``rebuild_vs_floor``:
  ``rebuild_s`` over ``groupby_s`` and over ``floor_groupby_s`` (the rows proven right by the last rebuild's
  fingerprints are not regrouped: ``masterpoints.standings.proof``); ``rebuild_after_uploads_s``: the same
  rebuild after a 40-pair tournament of today was confirmed (median of 3), which regroups the current season
  and verifies the standings and the ranking list again; ``rebuild_empty_s``: the rebuild into empty
  standings tables (nothing proven);
- ``incremental_ms``: the standings update after one 40-pair tournament (median of 7), without the places'
  refresh it queues (a task of its own on a worker), which ``places_refresh_s`` times (median of 3);
- gunicorn (``--workers``, Redis cache), ``--clients`` threads, each page scenario between two runs of a
  trivial view answering "ok" (their mean is the scenario's baseline: a shared machine's speed drifts by a
  third within minutes as other machines take its cores, ``steal_pct``, so each ratio compares figures of
  the same minute): ``trivial_p95_ms`` (the rankings' baseline);
  ``rankings_p50_ms``, ``rankings_p95_ms`` (filters, repeat URLs: cached); ``rankings_vs_trivial`` and
  ``rankings_uncached_vs_trivial`` (every query string distinct): throughput as a fraction of the trivial
  view's (0.5 = half); ``rankings_p95_vs_trivial``: p95 over the trivial p95; ``player_p95_ms``,
  ``player_vs_trivial`` (the same few players) and ``player_uncached_vs_trivial`` (many distinct players);
  ``steal_pct``: the share of the cores' time the hypervisor gave other machines during the scenarios
  (``/proc/stat``), and ``disk_read_mb``: what the kernel read from disk meanwhile (``/proc/vmstat``), to
  judge how far a run's figures can be trusted.
  Each request names a client address of its own (``X-Forwarded-For``, the bench's gunicorn trusting one
  proxy), so that the per-address limits of the rendered lists and the API count readers, not the bench.
  The clients accept gzip, as browsers do; ``rankings_identity_vs_trivial`` (no target) is the cached
  rankings for clients that do not. The servers are warmed once the standings have settled (:func:`settle`);
- ``confirm_to_page_p95_ms``: an upload confirmed through the upload service until its new balance shows
  on the public player page (through gunicorn, a real ``celery -A config worker`` on Redis), p95 of
  ``--confirms``, quiet; ``confirm_to_page_loaded_p95_ms``: the same while 20 clients load the rankings;
  ``after_confirm_p95_vs_quiet``: player and rankings pages (the confirm's players, 20 others, the rankings
  above, the bench club's list), each rendered (a parameter the page ignores), from twice ``--workers``
  clients during the 10 s after a confirm (the Celery worker updating the standings meanwhile), p95 over the
  same pages' p95 in the 10 s before it, when the standings had settled; ``--after-rounds`` rounds pooled
  (``after_confirm_p95_ms``: the p95 after);
- part ``lists`` (``bench/_lists.py``): ``lists_mix_uncached_vs_trivial``: a mix of rankings lists, the page's
  and the API's (``/api/rankings``), with random kind, season, filter (region, club, name, rung, the official
  list where it is the default), order (the table's sortable columns), page size and page up to the list's
  last, each address distinct: throughput over the trivial view's, measured as the page scenarios
  (``lists_mix_p50_ms``, ``lists_mix_p95_ms``, ``lists_mix_errors``: answers other than 200);
- part ``export``: ``export_rows_per_s``: the largest federation's whole rankings CSV
  (``/rankings/?federation=…&export=csv``) read as an anonymous browser reads a download (gzip, streamed, the
  lines counted, nothing kept), rows a second (``export_rows``: the rows it held);
- after the parts above: ``worker_rss_mb``, the largest gunicorn web worker's resident memory (``VmRSS`` of the
  master's children in ``/proc``), and ``worker_peak_rss_mb``, the largest peak (``VmHWM``).

Before the rebuild and before the page scenarios the database's tables and indexes are read into the
operating system's page cache (``pg_prewarm(…, 'read')``, ``prewarm_s``): a database server keeps its working
set (1.6 GB here) in memory, but the kernel of a shared machine reclaims the cache of files left idle for a
few minutes, and a run after such a pause measured random disk reads of the player pages' ledgers (a p95 of
1.3 s), not the server.

Builds a throw-away test database (``test_<name>``) seeded by the bench's own fixed generator
(``bench/_seed.py``; ``--reuse`` keeps one left by ``--keep`` and skips the seeding when it holds awards).
Servers listen on 127.0.0.1 only; the clients send a bounded number of requests with a time limit.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import statistics
import time

from _confirms import (
    AFTER_SECONDS,
    after_confirm,
    bench_club,
    confirm_to_page,
    member_numbers,
    settle,
    upload_confirmed,
)
from _latency import DiskReads, Figures, Steal, background_load, celery_worker, gunicorn, load, p95
from _lists import export_figures, lists_figures, memory_figures

BASELINE = "SELECT player_id, kind, SUM(units) FROM {table} GROUP BY player_id, kind"


def emit(name: str, value: float | int, digits: int = 3) -> None:
    print(f"{name}={value:.{digits}f}" if isinstance(value, float) else f"{name}={value}", flush=True)


def loadavg() -> str:
    with open("/proc/loadavg") as source:
        return " ".join(source.read().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--awards", type=int, default=5_000_000)
    parser.add_argument("--clubs", type=int, default=None, help="clubs (default: one per 100 players)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of the rebuild and of each GROUP BY")
    parser.add_argument("--requests", type=int, default=2000, help="requests per latency scenario")
    parser.add_argument("--seconds", type=float, default=120, help="time limit per latency scenario")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--confirms", type=int, default=20, help="confirms per confirm → page figure")
    parser.add_argument("--cache-url", default="redis://127.0.0.1:6379/15", help="CACHE_URL (emptied first)")
    parser.add_argument("--broker-url", default="redis://127.0.0.1:6379/14", help="the worker's broker (emptied)")
    parser.add_argument("--keep", action="store_true", help="keep the test database for a later --reuse")
    parser.add_argument("--reuse", action="store_true", help="reuse a kept test database")
    parser.add_argument("--after-rounds", type=int, default=3, help="confirms followed by pages (after_confirm)")
    parser.add_argument("--parts", default="rebuild,incremental,latency,lists,export", help="which figures")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    if connection.vendor != "postgresql":
        parser.error("the standings bench needs PostgreSQL (DATABASE_URL)")
    print(f"loadavg={loadavg()}")
    emit("cores", os.cpu_count() or 1)
    whole, moment = Steal(), Steal()
    time.sleep(2)
    emit("steal_start_pct", moment.percent(), 1)  # the two seconds before the run
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    # serialize=False: no copy of the whole database in memory (that is for TransactionTestCase only).
    connection.creation.create_test_db(verbosity=0, autoclobber=not args.reuse, keepdb=args.reuse, serialize=False)
    try:
        run(args)
    finally:
        if not args.keep:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        emit("steal_run_pct", whole.percent(), 1)
        print(f"loadavg={loadavg()}")


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def run(args) -> None:
    from _seed import bench_seed
    from django.db import connection

    from masterpoints.models import Award, SeasonStanding, Standing
    from masterpoints.standings.services import standings_rebuild

    print(f"database: {connection.settings_dict['NAME']}")
    if not Award.objects.exists():
        seconds, written = timed(lambda: bench_seed(players=args.players, awards=args.awards, clubs=args.clubs))
        built, _ = timed(standings_rebuild)
        print(f"bench seed: {written:,} awards in {seconds:.0f} s; first standings build {built:.0f} s")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    prewarm()
    print(f"ledger: {Award.objects.count():,} awards; {Standing.objects.count():,} standings; ", end="")
    print(f"{SeasonStanding.objects.count():,} season rows")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT avg(pg_column_size(a.*)) FROM {Award._meta.db_table} a")
        emit("award_row_bytes", round(cursor.fetchone()[0] or 0))
    parts = set(args.parts.split(","))
    if "rebuild" in parts:
        rebuild_figures(args)
    if "incremental" in parts:
        incremental_figures()
    if parts & {"latency", "lists", "export"}:
        server_figures(args, parts)


def prewarm() -> None:
    """Read every table and index of the database into the page cache (see the module)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        start = time.perf_counter()
        cursor.execute(
            "SELECT coalesce(sum(pg_prewarm(c.oid, 'read')), 0) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')"
        )
        blocks = cursor.fetchone()[0]
    seconds = time.perf_counter() - start
    print(f"prewarm: {blocks * 8 / 1024:,.0f} MB of tables and indexes read into the page cache")
    emit("prewarm_s", seconds)


# --- rebuild against GROUP BY and the floor -------------------------------------------------------------------


def group_by(table: str) -> int:
    """The plain GROUP BY over ``table``, with the session setting the rebuild uses (no spill to disk)."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL work_mem = '256MB'")
        cursor.execute(BASELINE.format(table=table))
        return len(cursor.fetchall())


def nightly_rebuild() -> None:
    """The full rebuild as ``recompute_standings --full`` runs it: a recorded job per federation."""
    from federation.models import Federation
    from masterpoints.standings.jobs import standings_rebuild_recorded

    for federation in Federation.objects.order_by("pk"):
        standings_rebuild_recorded(federation=federation)


def rebuild_figures(args) -> None:
    from django.db import connection

    from masterpoints.models import Award

    ledger = Award._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_floor")
        cursor.execute(f"CREATE TABLE bench_floor AS SELECT player_id, awarded_on, kind, units FROM {ledger}")
        cursor.execute("ANALYZE bench_floor")
    plain, floor, rebuild = [], [], []
    try:
        for _ in range(args.repeat):  # interleaved, so that a busy moment hits all alike
            plain.append(timed(lambda: group_by(ledger))[0])
            floor.append(timed(lambda: group_by("bench_floor"))[0])
            rebuild.append(timed(nightly_rebuild)[0])
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE bench_floor")

    def runs(times):
        return ", ".join(f"{t:.2f}" for t in times)

    base, least, full = statistics.median(plain), statistics.median(floor), statistics.median(rebuild)
    print(f"\nGROUP BY over the ledger, runs {runs(plain)} s; over the minimal table, runs {runs(floor)} s")
    print(f"nightly full rebuild on built standings, runs {runs(rebuild)} s")
    emit("groupby_s", base)
    emit("floor_groupby_s", least)
    emit("rebuild_s", full)
    emit("rebuild_vs_groupby", full / base)
    emit("rebuild_vs_floor", full / least)
    club = bench_club()
    numbers = member_numbers(club)
    after = []
    for index in range(3):  # a day of uploads before each night: the current season and the lists to verify
        chosen = (numbers[index * 80 :] + numbers)[:80]
        upload_confirmed(club, chosen, datetime.date.today(), f"Bench day {index}", seed=10 + index)
        after.append(timed(nightly_rebuild)[0])
    print(f"nightly full rebuild after a 40-pair tournament of today, runs {runs(after)} s")
    emit("rebuild_after_uploads_s", statistics.median(after))
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE masterpoints_standing, masterpoints_seasonstanding, masterpoints_standingsproof")
    emit("rebuild_empty_s", timed(nightly_rebuild)[0])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE masterpoints_standing")
        cursor.execute("VACUUM ANALYZE masterpoints_seasonstanding")


# --- uploads ---------------------------------------------------------------------------------------------------


def incremental_figures() -> None:
    from masterpoints.standings.services import standings_refresh_tournament

    club = bench_club()
    confirm, tournament = timed(
        lambda: upload_confirmed(club, member_numbers(club)[:80], datetime.date.today(), "Bench 40 pairs")
    )
    with places_held(tournament.federation_id):  # the places' refresh is its own task on a worker: timed apart
        runs = [timed(lambda: standings_refresh_tournament(tournament_id=tournament.pk)) for _ in range(7)]
    print(f"\nincremental update after one 40-pair tournament ({runs[0][1]} players paid), runs ", end="")
    print(f"{', '.join(f'{t * 1000:.0f}' for t, _ in runs)} ms; the confirm itself (update eager): {confirm:.2f} s")
    emit("incremental_ms", statistics.median(t for t, _ in runs) * 1000, 1)
    places_figures(tournament.federation)


@contextlib.contextmanager
def places_held(federation_id: int):
    """While held, a standings change queues no places' refresh (the mark ``places_soon`` sets is taken)."""
    from django.core.cache import cache

    from masterpoints.standings import places

    key = places._QUEUED.format(federation_id)
    cache.set(key, 1, 3600)
    try:
        yield
    finally:
        cache.delete(key)


def places_figures(federation) -> None:
    """``places_refresh_s``: the task that derives the federation's stored places after a change (median of 3;
    a standings change is made before each, so every run derives and compares every place)."""
    from django.db.models import F
    from django.utils import timezone

    from masterpoints.models import StandingsVersion
    from masterpoints.standings.places import places_refresh
    from masterpoints.standings.versions import forget_standings_version

    runs = []
    for _ in range(3):
        StandingsVersion.objects.filter(federation=federation).update(version=F("version") + 1)
        forget_standings_version(federation)
        runs.append(timed(lambda: places_refresh(federation, day=timezone.localdate())))
    print(f"places' refresh, runs {', '.join(f'{t:.2f} s ({n} rows changed)' for t, n in runs)}")
    emit("places_refresh_s", statistics.median(t for t, _ in runs))


# --- pages under load, confirm → page ------------------------------------------------------------------------


def ranking_urls() -> list[str]:
    """Realistic filters: clubs, districts, names, the current season, other kinds, later pages, a rung,
    sorted by name; the default list too."""
    import random

    from clubs.models import Club
    from federation.models import Federation, Region

    rng = random.Random(7)
    federation = Federation.objects.order_by("pk").first()
    clubs = list(Club.objects.filter(federation=federation).values_list("pk", flat=True))
    districts = list(Region.objects.filter(federation=federation, kind="district").values_list("pk", flat=True))
    info = federation.scheme_info
    season = info.season_of(datetime.date.today())
    base = f"/rankings/?federation={federation.pk}"
    urls = [base, f"{base}&page=3", f"{base}&kind={info.kinds[1]}", f"{base}&season={season}"]
    for _ in range(12):
        urls.append(f"{base}&club={rng.choice(clubs)}")
        urls.append(f"{base}&region={rng.choice(districts)}")
        urls.append(f"{base}&q={rng.choice(('Jensen', 'Nielsen', 'Holm', 'Dahl', 'Bach', 'Krogh', 'Lund'))}")
    urls += [f"{base}&rung={rung}" for rung in (2, 4, 6, 8)]
    urls += [f"{base}&club={rng.choice(clubs)}&sort=name", f"{base}&region={districts[0]}&season={season}"]
    return urls


def player_urls(count: int) -> list[str]:
    from federation.models import Player

    players = Player.objects.select_related("federation").order_by("?")[:count]
    return [f"/players/{p.federation.code}/{p.number}/" for p in players]


def server_figures(args, parts: set[str]) -> None:
    """The parts that need the site served (``latency``, ``lists``, ``export``) under one gunicorn, warmed once
    the standings have settled; then the web workers' memory (``worker_rss_mb``)."""
    rankings, players = ranking_urls(), player_urls(2000)
    prewarm()  # what the kernel reclaimed during the figures before
    with gunicorn(workers=args.workers, cache_url=args.cache_url) as port:
        settle()
        load(port, [*rankings, *players[:5], "/bench/trivial"], 300, args.clients, 60)  # warm workers and caches
        print(f"\ngunicorn {args.workers} workers, {args.clients} clients, cache {args.cache_url or 'per worker'}:")
        if "latency" in parts:
            page_figures(port, args, rankings, players)
            confirm_figures(port, args, rankings, players)
        if "lists" in parts:
            lists_figures(port, args)
        if "export" in parts:
            export_figures(port)
        memory_figures(port)


def page_figures(port: int, args, rankings: list[str], players: list[str]) -> None:
    scenarios = {
        "rankings": (rankings, False, True),
        "rankings_identity": (rankings, False, False),
        "rankings_uncached": (rankings, True, True),
        "player": (players[:5], False, True),
        "player_uncached": (players, False, True),
    }
    figures: dict[str, Figures] = {}
    trivial: dict[str, Figures] = {}  # each scenario's trivial view, measured right before and after it
    stolen, disk = Steal(), DiskReads()
    for name, (paths, unique, gzip) in scenarios.items():
        before = load(port, ["/bench/trivial"], args.requests, args.clients, args.seconds)
        figures[name] = load(port, paths, args.requests, args.clients, args.seconds, unique=unique, gzip=gzip)
        after = load(port, ["/bench/trivial"], args.requests, args.clients, args.seconds)
        trivial[name] = Figures.mean(before, after)
        print(before.line(f"trivial before {name}"))
        print(figures[name].line(name))
        print(after.line(f"trivial after {name}"))
    print(f"steal: {stolen.percent():.1f} % of the cores' time went to other machines during these scenarios")
    emit("steal_pct", stolen.percent(), 1)
    emit("disk_read_mb", disk.megabytes(), 1)
    emit("trivial_p95_ms", trivial["rankings"].p95_ms, 1)
    emit("rankings_p50_ms", figures["rankings"].p50_ms, 1)
    emit("rankings_p95_ms", figures["rankings"].p95_ms, 1)
    for name in ("rankings", "rankings_uncached"):
        emit(f"{name}_vs_trivial", figures[name].rps / trivial[name].rps)
    emit("rankings_p95_vs_trivial", figures["rankings"].p95_ms / trivial["rankings"].p95_ms)
    emit("rankings_identity_vs_trivial", figures["rankings_identity"].rps / trivial["rankings_identity"].rps)
    emit("player_p95_ms", figures["player"].p95_ms, 1)
    for name in ("player", "player_uncached"):
        emit(f"{name}_vs_trivial", figures[name].rps / trivial[name].rps)


def confirm_figures(port: int, args, rankings: list[str], players: list[str]) -> None:
    """Confirm → page quiet and under load, then the pages after a confirm against the same pages quiet."""
    from tournaments.models import Tournament

    with celery_worker(broker_url=args.broker_url, cache_url=args.cache_url):
        # A reused database holds the confirms of earlier runs: the same tournament again would change no
        # balance, so each run confirms new ones, on days before theirs.
        done = Tournament.objects.filter(name__startswith="Bench confirm ").count()
        quiet = confirm_to_page(port, args.confirms, first=done)
        with background_load(port, rankings, 20):
            loaded = confirm_to_page(port, args.confirms, first=done + args.confirms)
        clients = 2 * args.workers
        calm, after = after_confirm(
            port, [*players[:20], *rankings], first=done + 2 * args.confirms, rounds=args.after_rounds, clients=clients
        )
    print(f"confirm → page (ms), quiet: {', '.join(f'{t:.0f}' for t in quiet)}")
    print(f"confirm → page (ms), 20 clients on the rankings: {', '.join(f'{t:.0f}' for t in loaded)}")
    emit("confirm_to_page_p95_ms", p95(quiet), 1)
    emit("confirm_to_page_loaded_p95_ms", p95(loaded), 1)
    print(f"player and rankings pages, each rendered, {clients} clients, {args.after_rounds} rounds:")
    print(calm.line(f"quiet ({AFTER_SECONDS} s each)"))
    print(after.line(f"the {AFTER_SECONDS} s after a confirm"))
    emit("after_confirm_p95_ms", after.p95_ms, 1)
    emit("after_confirm_p95_vs_quiet", after.p95_ms / calm.p95_ms if calm.p95_ms else 0.0)


if __name__ == "__main__":
    main()

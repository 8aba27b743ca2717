"""Standings benchmark: full rebuild against a plain GROUP BY, the incremental update after one
40-pair tournament, and the rankings page's latency under 20 concurrent clients against gunicorn.

    DATABASE_URL=postgres://… .venv/bin/python bench/standings.py [--players 100000] [--awards 5000000]
        [--clubs 1000] [--requests 1000] [--workers 4] [--keep] [--reuse]

Builds a throw-away test database (``test_<name>``) with ``seed_demo`` (``--reuse`` keeps one left by
``--keep`` and skips the seeding when it holds awards). Gunicorn listens on 127.0.0.1 only; the clients
send a bounded number of requests with a time limit. Prints figures and ratios; asserts nothing.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from _django import ROOT

BENCH = ROOT / "bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--awards", type=int, default=5_000_000)
    parser.add_argument("--clubs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="runs of the rebuild and of the GROUP BY")
    parser.add_argument("--requests", type=int, default=1000, help="requests per latency scenario")
    parser.add_argument("--seconds", type=float, default=120, help="time limit per latency scenario")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument(
        "--cache-url",
        default="redis://127.0.0.1:6379/15",
        help="CACHE_URL for gunicorn (emptied first; '' for a cache in each worker's memory)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the test database for a later --reuse")
    parser.add_argument("--reuse", action="store_true", help="reuse a kept test database")
    parser.add_argument(
        "--parts", default="rebuild,incremental,latency", help="which figures (comma-separated; default all)"
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    # serialize=False: no copy of the whole database in memory (that is for TransactionTestCase only).
    connection.creation.create_test_db(verbosity=0, autoclobber=not args.reuse, keepdb=args.reuse, serialize=False)
    try:
        run(args)
    finally:
        if not args.keep:
            connection.creation.destroy_test_db(old_name, verbosity=0)


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def run(args) -> None:
    from django.core.management import call_command
    from django.db import connection

    from masterpoints.models import Award, SeasonStanding, Standing

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}; cores: {os.cpu_count()}")
    if not Award.objects.exists():
        with open(os.devnull, "w") as quiet:
            seconds, _ = timed(
                lambda: call_command(
                    "seed_demo", players=args.players, clubs=args.clubs, awards=args.awards, stdout=quiet
                )
            )
        print(f"seed_demo --players {args.players} --clubs {args.clubs} --awards {args.awards}: {seconds:.0f} s")
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    awards = Award.objects.count()
    players = Standing.objects.count()
    print(f"ledger: {awards:,} awards; {players:,} standings; {SeasonStanding.objects.count():,} season rows")
    if connection.vendor == "postgresql":
        # The ledger row's width (issue 16: at most 128 bytes; the explanation is stored apart).
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT avg(pg_column_size(a.*)) FROM {Award._meta.db_table} a")
            print(f"award_row_bytes={round(cursor.fetchone()[0] or 0)}")
    parts = set(args.parts.split(","))
    if "rebuild" in parts:
        print()
        rebuild_figures(args)
    if "incremental" in parts:
        print()
        incremental_figures()
    if "latency" in parts:
        print()
        latency_figures(args)


# --- rebuild against GROUP BY ---------------------------------------------------------------------------------

BASELINE = "SELECT player_id, kind, SUM(units) FROM masterpoints_award GROUP BY player_id, kind"


def rebuild_figures(args) -> None:
    from django.db import connection, transaction

    from masterpoints.models import SeasonStanding, Standing
    from masterpoints.standings.services import standings_rebuild

    def group_by(parallel: bool = False):
        # The same session setting the rebuild uses for its own GROUP BY (so neither spills to disk).
        # ``parallel``: PostgreSQL's parallel workers forced on, so that the aggregate uses every core as
        # the rebuild does (the planner does not choose them for this query by itself).
        with transaction.atomic(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET LOCAL work_mem = '256MB'")
                if parallel:
                    for name in ("parallel_setup_cost", "parallel_tuple_cost", "min_parallel_table_scan_size"):
                        cursor.execute(f"SET LOCAL {name} = 0")
                    cursor.execute(f"SET LOCAL max_parallel_workers_per_gather = {os.cpu_count() or 1}")
            cursor.execute(BASELINE)
            return len(cursor.fetchall())

    from federation.models import Federation
    from masterpoints.standings.sums import _season_sums

    def season_sums():
        # The rebuild's first step alone: the ledger by player and season (the sums the season rows hold),
        # kept in the database as the rebuild keeps them (a temporary table), with the rebuild's settings.
        with transaction.atomic(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET LOCAL work_mem = '256MB'")
                cursor.execute("SET LOCAL jit = off")
                cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
            for federation in Federation.objects.all():
                sql, params = _season_sums(federation, None)
                cursor.execute("DROP TABLE IF EXISTS bench_season_sums")
                cursor.execute(f"CREATE TEMPORARY TABLE bench_season_sums ON COMMIT DROP AS {sql}", params)

    baseline, parallel, own, rebuild = [], [], [], []
    for _ in range(args.repeat):  # interleaved, so that a busy moment hits all alike
        baseline.append(timed(group_by)[0])
        parallel.append(timed(lambda: group_by(parallel=True))[0])
        own.append(timed(season_sums)[0])
        rebuild.append(timed(standings_rebuild)[0])
    base, wide = statistics.median(baseline), statistics.median(parallel)
    sums, full = statistics.median(own), statistics.median(rebuild)

    def runs(times):
        return ", ".join(f"{t:.2f}" for t in times)

    print(f"GROUP BY over the ledger ({BASELINE!r}), as the planner runs it:")
    print(f"  median {base:.2f} s   (runs: {runs(baseline)})")
    print("the same GROUP BY with parallel workers forced on (every core, as the rebuild uses them):")
    print(f"  median {wide:.2f} s   (runs: {runs(parallel)})")
    print("the rebuild's first step in one pass on one connection (GROUP BY player and season into a")
    print("temporary table; what a small federation's rebuild does):")
    print(f"  median {sums:.2f} s   (runs: {runs(own)})   ratio {sums / base:.2f}×")
    print("full rebuild, standings in place (the nightly run: every row recomputed and checked;")
    print("a large federation in two halves on two connections):")
    print(f"  median {full:.2f} s   (runs: {runs(rebuild)})   ratio {full / base:.2f}×", end="")
    print(f"   (against the parallel GROUP BY: {full / wide:.2f}×)")

    def from_scratch():
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("TRUNCATE masterpoints_standing, masterpoints_seasonstanding")
            else:
                Standing.objects.all().delete()
                SeasonStanding.objects.all().delete()
        start = time.perf_counter()
        standings_rebuild()
        return time.perf_counter() - start

    scratch = from_scratch()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE masterpoints_standing")
        cursor.execute("VACUUM ANALYZE masterpoints_seasonstanding")
    print(f"full rebuild into empty standings tables (first build): {scratch:.2f} s   ratio {scratch / base:.2f}×")


# --- one 40-pair tournament ----------------------------------------------------------------------------------------


def incremental_figures() -> None:
    from django.db.models import Count

    from clubs.models import Club, ClubMembership
    from masterpoints.standings.services import standings_refresh_tournament
    from masterpoints.uploads.services import results_upload_confirm, results_upload_create
    from tests.factories import pairs_from_numbers, usebio_pairs

    club = (
        Club.objects.filter(federation__code="dbf")
        .annotate(n=Count("memberships"))
        .filter(n__gte=80)
        .order_by("pk")
        .first()
    )
    numbers = list(
        ClubMembership.objects.filter(club=club).order_by("player__number").values_list("player__number", flat=True)
    )[:80]
    data = usebio_pairs(
        club_number=club.number,
        date=datetime.date.today(),
        name="Bench 40 pairs",
        sections=[pairs_from_numbers(numbers, seed=4)],
        boards=26,
    )
    upload = results_upload_create(
        actor=None,
        federation=club.federation,
        club=club,
        region=None,
        data=data,
        filename="bench.xml",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None},
        trusted=True,
    )
    confirm, tournament = timed(
        lambda: results_upload_confirm(actor=None, upload=upload, acknowledge_warnings=True, trusted=True)
    )
    runs = [timed(lambda: standings_refresh_tournament(tournament_id=tournament.pk)) for _ in range(7)]
    players = runs[0][1]
    median = statistics.median(t for t, _ in runs)
    print(f"incremental update after one 40-pair tournament ({players} players paid: standings, seasons, titles;")
    print("  ranks are read, not stored, so no other row changes):")
    print(f"  median {median * 1000:.0f} ms   (runs: {', '.join(f'{t * 1000:.0f}' for t, _ in runs)} ms)")
    print(f"  (the upload's confirm itself, with the update queued after commit and run eagerly: {confirm:.2f} s)")


# --- latency under 20 concurrent clients ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ranking_urls() -> list[str]:
    """Realistic filters: a club, a district, a title, a name, the current season, another kind, a later page,
    sorted by name; the default list too."""
    from clubs.models import Club
    from federation.models import Federation, Region
    from masterpoints.models import Standing

    rng = random.Random(7)
    dbf = Federation.objects.get(code="dbf")
    clubs = list(Club.objects.filter(federation=dbf).values_list("pk", flat=True))
    districts = list(Region.objects.filter(federation=dbf, kind="district").values_list("pk", flat=True))
    surnames = ["Jensen", "Nielsen", "Holm", "Dahl", "Bach", "Krogh", "Lund"]
    season = dbf.scheme_info.season_of(datetime.date.today())
    base = f"/rankings/?federation={dbf.pk}"
    urls = [base, f"{base}&page=3", f"{base}&kind=SP", f"{base}&season={season}"]
    for _ in range(12):
        urls.append(f"{base}&club={rng.choice(clubs)}")
        urls.append(f"{base}&region={rng.choice(districts)}")
        urls.append(f"{base}&q={rng.choice(surnames)}")
    urls += [f"{base}&rung={rung}" for rung in (2, 4, 6, 8)]
    urls += [f"{base}&club={rng.choice(clubs)}&sort=name", f"{base}&region={districts[0]}&season={season}"]
    urls += [f"{base}&q={Standing.objects.filter(federation=dbf).order_by('-sort_key')[10].player.number}"]
    return urls


def load(
    port: int, paths: list[str], total: int, clients: int, seconds: float, *, unique: bool = False
) -> tuple[list[float], int]:
    """``total`` GET requests from ``clients`` threads (stopping at ``seconds``); ``unique`` adds a parameter
    the page ignores, so that no two requests share a cache entry."""
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    errors = 0
    counter = iter(range(total))

    def client(index: int) -> None:
        nonlocal errors
        rng = random.Random(index)
        for number in counter:
            if time.monotonic() > deadline:
                return
            url = f"http://127.0.0.1:{port}{rng.choice(paths)}" + (f"&miss={number}" if unique else "")
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(url, timeout=30) as response:
                    response.read()
                    ok = response.status == 200
            except OSError:
                ok = False
            latencies.append(time.perf_counter() - start)
            errors += not ok

    with concurrent.futures.ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(client, range(clients)))
    return latencies, errors


def latency_figures(args) -> None:
    from django.db import connection

    settings_dict = connection.settings_dict
    if connection.vendor != "postgresql":
        print("latency: skipped (needs PostgreSQL)")
        return
    urls = ranking_urls()
    database = (
        f"postgres://{settings_dict['USER']}@{settings_dict['HOST'] or '127.0.0.1'}:{settings_dict['PORT'] or 5432}/"
        f"{settings_dict['NAME']}"
    )
    static = tempfile.mkdtemp(prefix="bench-static-")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "_standings_site",
        "PYTHONPATH": f"{BENCH}{os.pathsep}{ROOT}",
        "DATABASE_URL": database,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-not-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "STATIC_ROOT": static,
        "DB_CONN_MAX_AGE": "600",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("REDIS_URL", None)
    env["CACHE_URL"] = args.cache_url
    if args.cache_url:
        import redis

        redis.Redis.from_url(args.cache_url).flushdb()
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT
    )
    port = free_port()
    gunicorn = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/trivial", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        load(port, [*urls, "/bench/trivial"], 200, args.clients, 60)  # warm every worker's connection and caches
        print(
            f"latency: gunicorn ({args.workers} sync workers) on 127.0.0.1, {args.clients} concurrent clients, "
            f"{args.requests} requests per scenario; cache: {args.cache_url or 'in each worker'}:"
        )
        rows = []
        scenarios = (
            ("rankings with filters", urls, False),
            ("  the same, no cache hit", urls, True),
            ("trivial Django view", ["/bench/trivial"], False),
        )
        for label, paths, unique in scenarios:
            start = time.perf_counter()
            latencies, errors = load(port, paths, args.requests, args.clients, args.seconds, unique=unique)
            elapsed = time.perf_counter() - start
            latencies.sort()
            p50 = statistics.median(latencies)
            p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
            rows.append((label, p50, p95))
            print(
                f"  {label:24} p50 {p50 * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms   "
                f"{len(latencies) / elapsed:6.1f} req/s   {len(latencies)} requests, {errors} errors"
            )
        (_, p50, p95), (_, c50, c95), (_, b50, b95) = rows
        print(f"  rankings / trivial: p50 {p50 / b50:.1f}×, p95 {p95 / b95:.1f}×  ({len(urls)} distinct ranking URLs)")
        print(f"  without cache hits / trivial: p50 {c50 / b50:.1f}×, p95 {c95 / b95:.1f}×")
    finally:
        gunicorn.terminate()
        gunicorn.wait(timeout=30)
        shutil.rmtree(static, ignore_errors=True)


if __name__ == "__main__":
    main()

"""History import benchmark (issue 38, part 3): a generated history of 25,000 players (opening balances, titles
with dates, 200,000 historic awards) brought into the ledger on PostgreSQL (``masterpoints.history``), then the
same files again, which must change nothing, and a full rebuild of the standings, which must agree.

    .venv/bin/python bench/history.py [--players 25000] [--awards 200000]
        [--server postgres://postgres@127.0.0.1:5432] [--seed 38]

Creates its own database ``bench_history_<pid>`` on ``--server``, migrates it, and drops it afterwards.
Prints ``name=value`` lines; the targets: ``history_totals_equal`` 1, ``history_second_run_posted`` 0 and
``history_rebuild_agrees`` 1. Asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time

from _django import ROOT  # noqa: F401  (puts the project on the path, sets the settings module)
from _history_files import history_files

AS_OF = datetime.date(2025, 5, 15)


def admin_dsn(server: str) -> str:
    return server.rstrip("/") + "/postgres"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=25_000)
    parser.add_argument("--awards", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    args = parser.parse_args()

    import psycopg

    name = f"bench_history_{os.getpid()}"
    with psycopg.connect(admin_dsn(args.server), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = f"{args.server.rstrip('/')}/{name}"
    try:
        run(args)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin_dsn(args.server), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _standings():
    from masterpoints.models import Standing

    return list(Standing.objects.order_by("pk").values_list())


def run(args) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from federation.models import Federation, Player
    from masterpoints.history.services import history_import
    from masterpoints.models import Award, Standing
    from masterpoints.standings.ladders import LadderBook
    from masterpoints.standings.services import standings_rebuild

    call_command("migrate", verbosity=0)
    federation = Federation.objects.create(name="DBf", code="dbf", scheme="dbf", default_language="da")
    numbers = [str(100000 + index) for index in range(args.players)]
    Player.objects.bulk_create(
        [Player(federation=federation, number=n, first_name="Old", last_name=n) for n in numbers], batch_size=5000
    )
    titles = [(rung.title, rung.stars) for rung in LadderBook(federation).on(AS_OF).rungs[:3]]
    history = history_files(numbers=numbers, awards=args.awards, titles=titles, as_of=AS_OF, seed=args.seed)
    files = {"balances": history.balances, "titles": history.titles, "awards": history.awards}
    print(f"history_database={connection.vendor} {connection.settings_dict['NAME']}")
    print(f"history_players={args.players}")
    print(f"history_awards={args.awards}")
    print(f"history_file_bytes={sum(len(data) for data in files.values())}")

    start = time.perf_counter()
    history_import(actor=None, federation=federation, as_of=AS_OF, dry_run=True, **files)
    print(f"history_dry_run_s={time.perf_counter() - start:.2f}")
    start, cpu = time.perf_counter(), time.process_time()
    first = history_import(actor=None, federation=federation, as_of=AS_OF, dry_run=False, **files)
    print(f"history_import_s={time.perf_counter() - start:.2f}")
    print(f"history_import_client_cpu_s={time.process_time() - cpu:.2f}")
    print(f"history_rows_posted={first.awards_posted + first.balances_posted}")
    print(f"history_titles_registered={first.titles_registered}")
    ids = dict(Player.objects.filter(federation=federation).values_list("pk", "number"))
    got = {
        ids[pk]: (bp, sp, gp) for pk, bp, sp, gp in Standing.objects.values_list("player", "kind1", "kind2", "kind3")
    }
    equal = all(got.get(n, (0, 0, 0)) == tuple(history.totals[(n, k)] for k in ("BP", "SP", "GP")) for n in numbers)
    print(f"history_totals_equal={int(equal)}")
    before, count = _standings(), Award.objects.count()
    start = time.perf_counter()
    second = history_import(actor=None, federation=federation, as_of=AS_OF, dry_run=False, **files)
    print(f"history_second_run_s={time.perf_counter() - start:.2f}")
    posted = second.awards_posted + second.balances_posted + second.titles_registered + Award.objects.count() - count
    print(f"history_second_run_posted={posted}")
    start = time.perf_counter()
    standings_rebuild(federation=federation)
    print(f"history_rebuild_s={time.perf_counter() - start:.2f}")
    print(f"history_rebuild_agrees={int(_standings() == before)}")
    print(f"history_cores={os.cpu_count()}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

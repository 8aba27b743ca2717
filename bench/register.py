"""Member register benchmark: a generated register of 25,000 players, 300 clubs and 30,000 memberships
imported on PostgreSQL (``office.register``), then the same file again, which must change nothing.

    .venv/bin/python bench/register.py [--players 25000] [--clubs 300] [--memberships 30000]
        [--server postgres://postgres@127.0.0.1:5432] [--seed 17]

Creates its own database ``bench_register_<pid>`` on ``--server``, migrates it, and drops it afterwards.
Prints ``name=value`` lines; the target is ``register_import_s`` under 10 and ``register_second_run_changes``
equal to 0. Asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time

from _django import ROOT  # noqa: F401  (puts the project on the path, sets the settings module)

FIRST_NAMES = ("Søren", "Karen", "Jørgen", "Mette", "Ana", "Ivan", "Đurđa", "Željko", "Åse", "Lars", "Ivana", "Niels")
LAST_NAMES = ("Jensen", "Nielsen", "Ærø", "Ødegård", "Horvat", "Kovačević", "Babić", "Hansen", "Šarić", "Petersen")


def generate(*, players: int, clubs: int, memberships: int, seed: int) -> bytes:
    """The register file (CSV, ``;``): its own fixed generator, the same bytes for the same arguments."""
    from office.register.reader import COLUMNS

    rng = random.Random(seed)
    lines = [";".join(COLUMNS)]

    def row(record: str, **cells) -> None:
        lines.append(";".join(record if c == "record" else str(cells.get(c, "")) for c in COLUMNS))

    club_numbers = [str(1000 + index) for index in range(clubs)]
    for number in club_numbers:
        row("club", club=number, name=f"Bridgeklub {number}", email=f"club{number}@example.org")
    numbers = [str(100000 + index) for index in range(players)]
    for number in numbers:
        paid = datetime.date(2025, 12, 31) if rng.random() < 0.9 else datetime.date(2024, 12, 31)
        row(
            "player",
            number=number,
            first_name=rng.choice(FIRST_NAMES),
            last_name=rng.choice(LAST_NAMES),
            email=f"p{number}@example.org" if rng.random() < 0.6 else "",
            birth_year=rng.randint(1930, 2010),
            status="member",
            dues_paid_until=paid.isoformat(),
        )
    second = rng.sample(numbers, max(0, memberships - players))
    first_club = {}
    for number in numbers:
        since = datetime.date(rng.randint(1980, 2024), rng.randint(1, 12), 1)
        first_club[number] = rng.choice(club_numbers)
        row("membership", number=number, club=first_club[number], since=since.isoformat(), home="1")
    for number in second:
        others = [club for club in rng.sample(club_numbers, 2) if club != first_club[number]]
        row("membership", number=number, club=others[0])  # a second club, not the home club
    return ("\n".join(lines) + "\n").encode("utf-8")


def admin_dsn(server: str) -> str:
    return server.rstrip("/") + "/postgres"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=25_000)
    parser.add_argument("--clubs", type=int, default=300)
    parser.add_argument("--memberships", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    args = parser.parse_args()

    import psycopg

    name = f"bench_register_{os.getpid()}"
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


def run(args) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from federation.models import AuditEvent, Federation
    from office.register.services import register_import

    call_command("migrate", verbosity=0)
    federation = Federation.objects.create(name="DBf", code="dbf", scheme="dbf", default_language="da")
    data = generate(players=args.players, clubs=args.clubs, memberships=args.memberships, seed=args.seed)
    rows = data.count(b"\n") - 1
    print(f"register_database={connection.vendor} {connection.settings_dict['NAME']}")
    print(f"register_rows={rows}")
    print(f"register_file_bytes={len(data)}")

    start = time.perf_counter()
    dry = register_import(actor=None, federation=federation, data=data, dry_run=True)
    print(f"register_dry_run_s={time.perf_counter() - start:.2f}")
    start, cpu = time.perf_counter(), time.process_time()
    first = register_import(actor=None, federation=federation, data=data, dry_run=False)
    print(f"register_import_s={time.perf_counter() - start:.2f}")
    print(f"register_import_client_cpu_s={time.process_time() - cpu:.2f}")
    print(f"register_import_changes={len(first.changes)} (dry run: {len(dry.changes)})")
    print(f"register_audit_rows={AuditEvent.objects.filter(action__startswith='register.').count()}")
    start = time.perf_counter()
    second = register_import(actor=None, federation=federation, data=data, dry_run=False)
    print(f"register_second_run_s={time.perf_counter() - start:.2f}")
    print(f"register_second_run_changes={len(second.changes)}")
    print(f"register_cores={os.cpu_count()}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

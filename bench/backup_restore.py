"""Backup and restore, proven (issue 33, operations; README § "Backup and restore"): the README's procedure run
on a small federation, and the restored standings compared with the original's row by row.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/backup_restore.py
        [--players 2000] [--awards 50000]

1. Seeds its own database ``bench_backup_<pid>`` (migrated) with the standings bench's generator
   (``bench/_seed.py``: two federations, clubs, players, seasons of awards) and a few result files in a
   throw-away ``MEDIA_ROOT``, and builds the standings with ``recompute_standings --full``.
2. Backs up as the README says: ``pg_dump --format=custom`` of the database, ``tar`` of ``MEDIA_ROOT``.
3. Restores into a new database (``createdb``, ``pg_restore``) and a new media folder (``tar -x``).
4. Empties the derived standings tables of the restored database (standings, season rows, ranking list, their
   proofs), so that nothing but the restored ledger can make them, and runs ``manage.py recompute_standings
   --full`` there, as an operator would, in its own process on the restored database.
5. Compares every row of the standings, season rows, ranking list and registered titles of the two databases
   (all columns but a season row's surrogate id), and every media file's SHA-256.

Prints ``name=value`` lines; ``standings_differences`` and ``media_differences`` must be 0 (the script exits 1
otherwise). Drops both databases and the temporary folders afterwards.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from _django import ROOT

MEDIA = Path(tempfile.mkdtemp(prefix="bench-media-"))
os.environ["MEDIA_ROOT"] = str(MEDIA)

#: The derived tables the restored database rebuilds from its ledger, and the tables compared afterwards.
EMPTIED = ("Standing", "SeasonStanding", "RankingListEntry", "StandingsProof")
COMPARED = ("Standing", "SeasonStanding", "RankingListEntry", "TitleAchievement")


def emit(name: str, value: float | int) -> None:
    print(f"{name}={value:.2f}" if isinstance(value, float) else f"{name}={value}", flush=True)


def run(*command: str, env: dict | None = None) -> float:
    """Run a command (its output shown on failure); returns its seconds."""
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"{command[0]} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return time.perf_counter() - start


def libpq_env(settings_dict: dict) -> dict:
    """The environment that points pg_dump, pg_restore and createdb at the server of ``settings_dict``."""
    env = dict(os.environ)
    for key, variable in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD")):
        if settings_dict.get(key):
            env[variable] = str(settings_dict[key])
    return env


def seed(players: int, awards: int) -> None:
    """The bench's federations and ledger, result files in ``MEDIA_ROOT`` and the standings built."""
    from _seed import bench_seed
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage
    from django.core.management import call_command

    start = time.perf_counter()
    emit("awards_seeded", bench_seed(players=players, awards=awards))
    for path in sorted((ROOT / "demo" / "files").iterdir()):
        default_storage.save(f"uploads/bench/{path.name}", ContentFile(path.read_bytes()))
    call_command("recompute_standings", "--full", stdout=io.StringIO())
    emit("seed_s", time.perf_counter() - start)


def table_rows(conninfo: str, model) -> collections.Counter:
    """Every row of ``model``'s table as a tuple of its columns (a season row's surrogate id left out)."""
    import psycopg

    columns = [field.column for field in model._meta.concrete_fields if not field.primary_key or field.is_relation]
    with psycopg.connect(conninfo) as connection:
        rows = connection.execute(f'SELECT {", ".join(columns)} FROM "{model._meta.db_table}"').fetchall()
    return collections.Counter(rows)


def file_digests(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def backup_and_restore(original: str, restored: str, env: dict, folder: Path) -> Path:
    """The README's procedure: dump and tar, then a new database and media folder restored from them."""
    dump, media_tar, media_restored = folder / "masterpoints.dump", folder / "media.tar.gz", folder / "media"
    emit("dump_s", run("pg_dump", "--format=custom", "--no-owner", f"--file={dump}", original, env=env))
    emit("dump_mb", round(dump.stat().st_size / 1e6, 2))
    emit("media_backup_s", run("tar", "-C", str(MEDIA), "-czf", str(media_tar), ".", env=env))
    media_restored.mkdir()
    restore_s = run("createdb", "--template=template0", restored, env=env)
    restore_s += run("pg_restore", "--no-owner", "--exit-on-error", f"--dbname={restored}", str(dump), env=env)
    emit("restore_s", restore_s)
    emit("media_restore_s", run("tar", "-C", str(media_restored), "-xzf", str(media_tar), env=env))
    return media_restored


def rebuild_restored(restored_url: str, restored_conninfo: str, media_restored: Path) -> None:
    """Empty the derived tables, then ``manage.py recompute_standings --full`` on the restored database."""
    import psycopg
    from django.apps import apps

    tables = ", ".join(f'"{apps.get_model("masterpoints", name)._meta.db_table}"' for name in EMPTIED)
    with psycopg.connect(restored_conninfo) as connection:
        emptied = sum(
            connection.execute(
                f'SELECT count(*) FROM "{apps.get_model("masterpoints", name)._meta.db_table}"'
            ).fetchone()[0]
            for name in EMPTIED
        )
        connection.execute(f"TRUNCATE {tables}")
    emit("derived_rows_emptied", emptied)
    env = dict(os.environ, DATABASE_URL=restored_url, MEDIA_ROOT=str(media_restored), REDIS_URL="", CACHE_URL="")
    env.setdefault("DEBUG", "1")
    manage = [sys.executable, str(ROOT / "manage.py"), "recompute_standings", "--full"]
    emit("recompute_s", run(*manage, env=env))


def compare(original_conninfo: str, restored_conninfo: str, media_restored: Path) -> int:
    """Rows and files that differ between the original and the restored copy (printed per table)."""
    from django.apps import apps

    differences = compared = 0
    for name in COMPARED:
        model = apps.get_model("masterpoints", name)
        before, after = table_rows(original_conninfo, model), table_rows(restored_conninfo, model)
        differing = sum(((before - after) + (after - before)).values())
        emit(f"rows_{model._meta.model_name}", sum(before.values()))
        compared += sum(before.values())
        differences += differing
    emit("rows_compared", compared)
    emit("standings_differences", differences)
    files_before, files_after = file_digests(MEDIA), file_digests(media_restored)
    media_differences = len(set(files_before.items()) ^ set(files_after.items()))
    emit("media_files", len(files_before))
    emit("media_differences", media_differences)
    return differences + media_differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--awards", type=int, default=50_000)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    if connection.vendor != "postgresql":
        parser.error("backup and restore are PostgreSQL's (pg_dump): set DATABASE_URL")
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    original = connection.settings_dict["TEST"]["NAME"] = f"bench_backup_{os.getpid()}"
    restored = f"{original}_restored"
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    env = libpq_env(connection.settings_dict)
    folder = Path(tempfile.mkdtemp(prefix="bench-backup-"))
    try:
        seed(args.players, args.awards)
        connection.close()
        media_restored = backup_and_restore(original, restored, env, folder)
        params = connection.get_connection_params()
        conninfo = {key: value for key, value in params.items() if key in ("host", "port", "user", "password")}
        restored_url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{restored}"))
        original_info = psycopg_conninfo(conninfo, original)
        restored_info = psycopg_conninfo(conninfo, restored)
        rebuild_restored(restored_url, restored_info, media_restored)
        failed = compare(original_info, restored_info, media_restored)
    finally:
        connection.close()
        run("dropdb", "--if-exists", restored, env=env)
        connection.creation.destroy_test_db(old_name, verbosity=0)
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(MEDIA, ignore_errors=True)
    sys.exit(1 if failed else 0)


def psycopg_conninfo(params: dict, dbname: str) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo(dbname=dbname, **{key: str(value) for key, value in params.items() if value})


if __name__ == "__main__":
    main()

"""Backup and restore (issue 33, operations): the README's procedure, run by ``bench/backup_restore.py`` on a
small federation, restores a database whose ``recompute_standings --full`` reproduces the standings exactly."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.postgres
def test_a_dump_and_media_copy_restored_into_a_new_database_rebuild_the_same_standings():
    if connection.vendor != "postgresql":
        pytest.skip("backup and restore are PostgreSQL's (pg_dump): DATABASE_URL is not set (.ci/run sets it)")
    if not all(shutil.which(tool) for tool in ("pg_dump", "pg_restore", "createdb", "dropdb")):
        pytest.skip("PostgreSQL's client programs (pg_dump, pg_restore, createdb, dropdb) are not installed")
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "backup_restore.py"), "--players", "300", "--awards", "4000"],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    assert int(figures["rows_standing"]) >= 300
    assert int(figures["derived_rows_emptied"]) > 0
    assert (figures["standings_differences"], figures["media_differences"]) == ("0", "0")

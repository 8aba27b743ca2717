"""``manage.py import_results``: the web upload's checks for files on the server."""

from __future__ import annotations

import datetime
import json
from io import StringIO

import pytest
from django.core.management import call_command

from federation.models import Player
from masterpoints.models import Award
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import ResultUpload, Tournament

NUMBERS = [str(3001 + i) for i in range(24)]


@pytest.fixture
def register(world):
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Player", last_name=number)


def write(tmp_path, name, numbers=NUMBERS, club="101"):
    data = usebio_pairs(
        club_number=club,
        date=datetime.date(2024, 11, 2),
        name=name,
        sections=[pairs_from_numbers(numbers, seed=3)],
        boards=24,
    )
    path = tmp_path / f"{name}.xml"
    path.write_bytes(data)
    return path


def run(*args):
    out = StringIO()
    try:
        call_command("import_results", *args, stdout=out)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue()


def test_json_reports_one_object_per_file_with_groups_and_awards(world, register, tmp_path):
    path = write(tmp_path, "jesen")
    code, out = run(str(path), "--club", "101", "--strength", "1", "--json", "--dry-run")
    assert code == 0
    (report,) = [json.loads(line) for line in out.splitlines()]
    assert report["format"] == "usebio"
    assert report["event"] == {"date": "2024-11-02", "name": "jesen", "form": "pairs"}
    assert [g["entries"] for g in report["groups"]] == [12]
    winners = [a for a in report["awards"] if a["place"] == 1]
    assert {(a["player"], a["points"], a["kind"]) for a in winners} == {
        ("3001", "10", "black"),
        ("3002", "10", "black"),
    }


def test_dry_run_writes_nothing(world, register, tmp_path):
    code, _out = run(str(write(tmp_path, "a")), "--club", "101", "--strength", "1", "--dry-run")
    assert code == 0
    assert not ResultUpload.objects.exists() and not Tournament.objects.exists() and not Award.objects.exists()


def test_a_file_with_errors_exits_1_and_writes_nothing_of_that_file(world, register, tmp_path):
    good = write(tmp_path, "good")
    bad = write(tmp_path, "bad", numbers=[*NUMBERS[:23], "404"])  # an unknown player is an error
    code, out = run(str(good), str(bad), "--club", "101", "--strength", "1")
    assert code == 1
    assert "PLAYER_UNKNOWN" in out
    assert Tournament.objects.count() == 1
    assert Tournament.objects.get().name == "good"


def test_an_unknown_club_is_refused_by_number(world, tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No club with number 555"):
        call_command("import_results", str(write(tmp_path, "x")), "--club", "555")

"""HBS transition rules 2 and 5 through ``manage.py import_results``: the results since 1991 imported with the
federation as organiser, awarding red and master points by the rule set valid on each file's date, idempotent.

Transition rule 2: "Na temelju svih dostupnih rezultata od 1991. god. odredit će se broj majstorskih poena."
Transition rule 5: "Startni broj crvenih poena izvest će se iz prethodnih rezultata, na temelju kriterija iz ovog
Pravilnika." (Black comes from the old list, rule 1: the import awards red and master only.)
"""

from __future__ import annotations

import datetime
import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from federation.models import Player, RuleSet
from masterpoints.models import Award
from masterpoints.standings.models import Standing
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import Tournament

NUMBERS = [str(3101 + i) for i in range(24)]
WINNERS = ("3101", "3102")


@pytest.fixture
def register(world):
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Player", last_name=number)


def history_file(tmp_path, name: str, date: datetime.date, *, club: str = "101", boards_in_file: bool = True):
    """A 12-pair USEBIO file of 24 boards; without ``boards_in_file`` the file does not say how many."""
    data = usebio_pairs(
        club_number=club, date=date, name=name, sections=[pairs_from_numbers(NUMBERS, seed=5)], boards=24
    )
    if not boards_in_file:
        data = re.sub(rb"<BOARDS_PLAYED>\d+</BOARDS_PLAYED>", b"", data)
    path = tmp_path / f"{name}.xml"
    path.write_bytes(data)
    return path


def run(*args) -> tuple[int, list[dict]]:
    out = StringIO()
    try:
        call_command("import_results", *args, "--json", stdout=out)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


FEDERATION = ("--federation", "hbs", "--organiser", "federation", "--kinds", "red,master", "--strength", "1")


@pytest.fixture
def nineties(tmp_path):
    return [
        history_file(tmp_path, "Kup Zagreba 1993", datetime.date(1993, 5, 8)),
        history_file(tmp_path, "Prvenstvo parova 1996", datetime.date(1996, 11, 16), club="205"),
        history_file(tmp_path, "Memorijal 1999", datetime.date(1999, 3, 20), boards_in_file=False),
    ]


def test_results_since_1991_give_red_and_master_points_transition_rules_2_and_5(
    client, world, register, nineties, django_capture_on_commit_callbacks
):
    """The federation organises (no club; the 1996 file's club 205 is no member club and is not asked for), so
    the rule set's organiser_awards let it award red and master (H-1); the draft, valid from 1991, computes each:
    12 pairs, 24 boards, S = 1: B = (3 + 12/5)·(1 + 24/12) − 7 = 9.2, the winners 10 of each kind. The 1999
    file does not say its boards: --boards 24 gives D. No black points: they come from the old list (rule 1).
    The ledger, the standings and the winner's public page carry them."""
    with django_capture_on_commit_callbacks(execute=True):
        code, reports = run(*map(str, nineties), *FEDERATION, "--boards", "24")
    assert code == 0, [(i["code"], i["message"]) for r in reports for i in r["issues"]]
    assert [r["status"] for r in reports] == ["imported"] * 3
    assert Tournament.objects.filter(organiser_kind="federation", club=None, is_current=True).count() == 3
    assert not Award.objects.filter(kind="black").exists()
    for kind in ("red", "master"):
        winners = Award.objects.filter(kind=kind, player__number__in=WINNERS, part="")
        assert sorted(winners.values_list("units", flat=True)) == [10] * 6
    standing = Standing.objects.get(player__number="3101")
    total_red = sum(Award.objects.filter(player__number="3101", kind="red").values_list("units", flat=True))
    assert (
        standing.points("red") == total_red == 30 and standing.points("master") == 30 and standing.points("black") == 0
    )
    page = client.get(reverse("public:player", args=[world.hbs.code, "3101"])).content.decode()
    assert "<dt>red</dt><dd>30</dd>" in page and "<dt>master</dt><dd>30</dd>" in page


def test_a_second_run_changes_nothing(client, world, register, nineties, django_capture_on_commit_callbacks):
    """Idempotent: each event (the re-upload key) is current from the very same file and facts, so the second
    run writes nothing, supersedes nothing and reports every file unchanged; the player's page stays."""
    with django_capture_on_commit_callbacks(execute=True):
        assert run(*map(str, nineties), *FEDERATION, "--boards", "24")[0] == 0
    awards, tournaments = Award.objects.count(), list(Tournament.objects.values_list("pk", "is_current"))
    with django_capture_on_commit_callbacks(execute=True):
        code, reports = run(*map(str, nineties), *FEDERATION, "--boards", "24")
    assert code == 0
    assert [r["status"] for r in reports] == ["unchanged"] * 3
    assert all(any(i["code"] == "IMPORT_UNCHANGED" for i in r["issues"]) for r in reports)
    assert Award.objects.count() == awards
    assert list(Tournament.objects.values_list("pk", "is_current")) == tournaments
    assert (
        Standing.objects.get(player__number="3101").points("red"),
        Standing.objects.get(player__number="3101").points("master"),
    ) == (
        30,
        30,
    )
    page = client.get(reverse("public:player", args=[world.hbs.code, "3101"])).content.decode()
    assert "<dt>red</dt><dd>30</dd>" in page and "<dt>master</dt><dd>30</dd>" in page


def test_the_dry_run_computes_the_points_and_writes_nothing(world, register, nineties):
    code, reports = run(*map(str, nineties), *FEDERATION, "--boards", "24", "--dry-run")
    assert code == 0 and [r["status"] for r in reports] == ["checked"] * 3
    winners = {(a["player"], a["kind"], a["points"]) for r in reports for a in r["awards"] if a["place"] == 1}
    assert winners == {(number, kind, "10") for number in WINNERS for kind in ("red", "master")}
    assert not Award.objects.exists() and not Tournament.objects.exists()


def test_a_file_that_does_not_say_its_boards_needs_boards(world, register, nineties):
    code, reports = run(str(nineties[2]), *FEDERATION)
    assert code == 1
    assert "BOARDS_UNKNOWN" in {i["code"] for i in reports[0]["issues"]}
    assert not Award.objects.exists()


def test_each_tournament_is_computed_by_the_rule_set_valid_on_its_date(world, register, nineties):
    """A rule set from 1998 (base 4 instead of 3) computes the 1999 file: B = (4 + 2.4)·3 − 7 = 12.2 → 13, while
    the 1993 and 1996 files keep the draft's 10. Before 1991 no rule set is valid: refused, nothing written."""
    RuleSet.objects.create(
        federation=world.hbs, valid_from=datetime.date(1998, 1, 1), name="1998", payload={"base": "4"}
    )
    early = history_file(nineties[0].parent, "Turnir 1990", datetime.date(1990, 6, 2))
    code, reports = run(*map(str, [*nineties, early]), *FEDERATION, "--boards", "24")
    assert code == 1
    assert [r["status"] for r in reports] == ["imported", "imported", "imported", "refused"]
    assert "RULESET_MISSING" in {i["code"] for i in reports[3]["issues"]}
    by_year = {
        t.date.year: sorted(set(Award.objects.filter(tournament=t, place_first=1).values_list("units", flat=True)))
        for t in Tournament.objects.all()
    }
    assert by_year == {1993: [10], 1996: [10], 1999: [13]}


def test_a_club_may_not_award_red_or_master_h_1(world, register, nineties):
    """The rule set's organiser_awards give a club black only: each other kind --kinds names is refused."""
    code, reports = run(str(nineties[0]), "--club", "101", "--kinds", "red,master", "--strength", "1")
    assert code == 1
    refused = [i["params"]["category"] for i in reports[0]["issues"] if i["code"] == "CATEGORY_NOT_ALLOWED"]
    assert refused == ["red", "master"]
    assert not Award.objects.exists()


def test_two_files_of_one_event_in_one_run_are_refused(world, register, tmp_path):
    """Two files with the federation as organiser, one date and one name are one event (the re-upload key): the
    second would replace the first, so it is refused, naming the first."""
    first = history_file(tmp_path, "Kup 1994", datetime.date(1994, 4, 4))
    second_dir = tmp_path / "b"
    second_dir.mkdir()
    second = history_file(second_dir, "Kup 1994", datetime.date(1994, 4, 4), club="205")
    code, reports = run(str(first), str(second), *FEDERATION)
    assert code == 1
    assert [r["status"] for r in reports] == ["imported", "refused"]
    assert "IMPORT_EVENT_TWICE" in {i["code"] for i in reports[1]["issues"]}
    assert Tournament.objects.count() == 1

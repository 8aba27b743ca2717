"""HBS transition rule 8 (the what-if run) against the ledger: with no parameter changed it gives every
player's points of every kind exactly as the ledger holds them (H-13), re-uploads (superseded versions) and
the commission's corrections included; it reports points, not only categories."""

from __future__ import annotations

import csv
import datetime
import io
from collections import defaultdict

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from federation.models import Federation, Player
from masterpoints.corrections.services import correction_decide, correction_request_file
from masterpoints.models import Award, CorrectionWindow
from masterpoints.transition.what_if import transition_what_if
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from office.services import officer_assign
from tests.factories import make_tournament, pairs_from_numbers, post_award, usebio_pairs
from tournaments.models import Tournament

DAY = datetime.date(2025, 3, 4)
NUMBERS = [str(2001 + i) for i in range(24)]
KINDS = ("black", "red", "master")


@pytest.fixture
def staff(world, django_user_model):
    """HBS's secretariat (uploads every organiser's events, runs the what-if) and a commission member."""
    tajnik = django_user_model.objects.create_user("tajnik", "t@example.com", "pw")
    officer_assign(actor=None, user=tajnik, role="secretariat", federation=world.hbs)
    commission = django_user_model.objects.create_user("povjerenstvo", "p@example.com", "pw")
    officer_assign(actor=None, user=commission, role="commission", federation=world.hbs)
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Igrač", last_name=number)
    return tajnik, commission


def confirm(world, actor, numbers, *, name, kind, organiser="club"):
    """An HBS pairs file of ``numbers`` (pairs in that order) uploaded and confirmed through the services."""
    data = usebio_pairs(
        club_number="101", date=DAY, name=name, sections=[pairs_from_numbers(numbers, seed=7)], boards=24
    )
    upload = results_upload_create(
        actor=actor,
        federation=world.hbs,
        club=world.club_hr if organiser == "club" else None,
        region=None,
        data=data,
        filename="results.xml",
        facts={"organiser_kind": organiser, "category": kind, "strength": "1", "form": "", "boards": None},
    )
    return results_upload_confirm(actor=actor, upload=upload, acknowledge_warnings=True)


def swapped(numbers):
    """The corrected file of a re-upload: the first two pairs change places."""
    return numbers[2:4] + numbers[0:2] + numbers[4:]


@pytest.fixture
def reuploaded(world, staff, settings, tmp_path):
    """Black, red and master points from three events, each uploaded and then re-uploaded corrected (the
    supersede path), and one award of the corrected red event reversed by the commission (rule 6)."""
    settings.MEDIA_ROOT = tmp_path
    tajnik, commission = staff
    for name, kind, organiser in (("Klupski", "black", "club"), ("Državni", "red", "federation")):
        old = confirm(world, tajnik, NUMBERS, name=name, kind=kind, organiser=organiser)
        new = confirm(world, tajnik, swapped(NUMBERS), name=name, kind=kind, organiser=organiser)
        assert new.supersedes == old and not Tournament.objects.get(pk=old.pk).is_current
    confirm(world, tajnik, NUMBERS, name="Prvenstvo", kind="master", organiser="federation")
    today = timezone.localdate()
    CorrectionWindow.objects.create(federation=world.hbs, opens_on=today, closes_on=today)
    award = Award.objects.filter(kind="red", source="result", tournament__is_current=True).order_by("pk").first()
    request = correction_request_file(
        actor=tajnik,
        player=award.player,
        award=award,
        text="Par nije igrao.",
        document=SimpleUploadedFile("zapisnik.pdf", b"%PDF-1.4 zapisnik"),
    )
    correction_decide(actor=commission, correction=request, grant=True, reason="Točno", reverse_award=True)
    return tajnik


def ledger(federation) -> dict[str, tuple[int, int, int]]:
    """Player number → (black, red, master): the sums of the ledger's rows, read independently."""
    sums: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(KINDS, 0))
    for number, kind, total in (
        Award.objects.filter(federation=federation)
        .values("player__number", "kind")
        .annotate(total=Sum("units"))
        .values_list("player__number", "kind", "total")
    ):
        sums[number][kind] = total
    return {number: tuple(kinds[kind] for kind in KINDS) for number, kinds in sums.items()}


def csv_points(text: str) -> tuple[dict[str, tuple[int, ...]], dict[str, tuple[int, ...]], list[str]]:
    """(number → points now, number → points under the alternative, the ``#`` lines) of a what-if CSV."""
    lines = text.splitlines()
    notes = [line for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    now = {row["number"]: tuple(int(row[kind]) for kind in KINDS) for row in rows}
    alt = {row["number"]: tuple(int(row[f"alt {kind}"]) for kind in KINDS) for row in rows}
    return now, alt, notes


def test_the_unchanged_what_if_is_the_ledger_for_every_player_and_kind_after_reuploads_rule_8_h13(
    client, world, reuploaded
):
    """Transition rule 8 / H-13: replayed with the rules in force, superseded versions and a commission's
    reversal of a current award (rule 6) left as the ledger holds them, every player's black, red and master
    points are the ledger's, in the service, on the page's CSV and from the command."""
    expected = ledger(world.hbs)
    assert {points[1] for points in expected.values()} - {0}, "the history has red points"
    assert {points[2] for points in expected.values()} - {0}, "the history has master points"
    result = transition_what_if(federation=world.hbs)
    assert {row.player.number: row.current for row in result.rows} == expected
    assert {row.player.number: row.alternative for row in result.rows} == expected
    assert result.tournaments == 3 and result.kept == []
    assert result.changed == 0 and result.listed == []

    client.force_login(reuploaded)
    url = reverse("transition:page") + f"?federation={world.hbs.pk}&what_if=1"
    page = client.get(url).content.decode()
    assert "3 tournaments replayed" in page and "0 players with other points" in page
    now, alt, notes = csv_points(client.get(url + "&export=csv").content.decode())
    assert now == alt == expected
    out = io.StringIO()
    call_command("hbs_transition", "what-if", "--csv", stdout=out)
    now, alt, notes = csv_points(out.getvalue())
    assert now == alt == expected and "0 with other points" in notes[0]


def test_a_tournament_whose_stored_results_do_not_give_its_points_is_kept_and_named_h13(client, world, staff):
    """H-13: a current tournament whose ranking and players were never stored cannot be replayed; it keeps
    its ledger points on both sides, whatever the parameters, and the report names it."""
    tajnik, _commission = staff
    bare = make_tournament(world.hbs, world.club_hr, category="red", key="bare", name="Bez rezultata")
    bare.strengths = {"red": "1"}
    bare.save(update_fields=["strengths"])
    player = Player.objects.get(number="2001")
    post_award(player, "red", 13, source="result", tournament=bare)
    confirm(world, tajnik, NUMBERS, name="Klupski", kind="black")
    expected = ledger(world.hbs)
    unchanged = transition_what_if(federation=world.hbs)
    assert {row.player.number: row.alternative for row in unchanged.rows} == expected
    assert unchanged.kept == [bare] and unchanged.tournaments == 1
    stronger = transition_what_if(federation=world.hbs, strengths={"red": "3", "black": "3"})
    row = next(row for row in stronger.rows if row.player == player)
    assert row.alternative[1] == 13 and row.alternative[0] > row.current[0]
    client.force_login(tajnik)
    url = reverse("transition:page") + f"?federation={world.hbs.pk}&what_if=1"
    page = client.get(url).content.decode()
    assert "1 tournament is kept at its ledger points" in page and "Bez rezultata" in page
    export = client.get(url + "&export=csv").content.decode()
    assert "# 1 tournaments kept at their ledger points" in export and f"#{bare.pk} Bez rezultata" in export


def test_the_report_lists_players_whose_points_change_in_the_same_category_rule_8(client, world, reuploaded):
    """Transition rule 8 checks parameters by their effect on points: a player whose red points change but
    whose category stays is listed (page and CSV), and counted, not reported as unchanged. A result the
    commission reversed (rule 6) stays reversed under the other S (H-13)."""
    result = transition_what_if(federation=world.hbs, strengths={"red": "1.2"})
    reversed_for = Award.objects.get(source="reversal", correction__isnull=False).player
    row = next(row for row in result.rows if row.player == reversed_for)
    assert row.current[1] == row.alternative[1] == 0
    moved = {row.player.number for row in result.rows if row.current != row.alternative}
    out = io.StringIO()
    call_command("hbs_transition", "what-if", "--strength", "red=1.2", stdout=out)
    now, alt, notes = csv_points(out.getvalue())
    assert moved and set(now) == moved and all(now[number] != alt[number] for number in now)
    same_category = [row for row in result.listed if row.move == 0]
    assert same_category and all(row.current[1] != row.alternative[1] for row in same_category)
    assert result.changed == len(result.listed) == len(moved)
    assert f"{result.changed} with other points" in notes[0]
    client.force_login(reuploaded)
    url = reverse("transition:page") + f"?federation={world.hbs.pk}&what_if=1&strength_red=1.2"
    page = client.get(url).content.decode()
    assert f"{result.changed} players with other points" in page
    assert f"<td>{same_category[0].player.number}</td>" in page


def test_the_demo_history_with_its_reuploads_replays_to_the_ledger_rule_8_h13(db):
    """The demo's corrected re-uploads store their results as a confirmed upload does: the unchanged what-if
    replays every current HBS demo tournament and gives the ledger, player by player and kind by kind."""
    call_command("seed_demo", players=20, clubs=4, hbs_players=60, verbosity=0)
    hbs = Federation.objects.get(code="hbs")
    assert Tournament.objects.filter(federation=hbs, supersedes__isnull=False).exists()
    result = transition_what_if(federation=hbs)
    expected = {number: points for number, points in ledger(hbs).items() if any(points)}
    assert {row.player.number: row.alternative for row in result.rows if any(row.alternative)} == expected
    assert result.kept == [] and result.tournaments == Tournament.objects.current().filter(federation=hbs).count()

"""Issue 35: the points of players the register does not know are held, never thrown away. A director uploads
a file with two unknown players and holds their points in one click; one of them joins through a register
import and finds the tournament on their page; the office merges the other into an existing member. The ledger
sums are the held points, and the audit names who credited each."""

from __future__ import annotations

import datetime

import pytest
from django.db.models import Sum

from federation.models import AuditEvent, Player
from masterpoints.models import Award, ProvisionalPlayer
from masterpoints.office_queue.services import provisional_players_join
from masterpoints.standings.services import standings_refresh_players
from office.register.reader import COLUMNS
from office.register.services import register_import
from tests.factories import SyntheticPair, make_player, usebio_pairs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DAY = datetime.date(2025, 4, 8)
MEMBERS = [str(86001 + i) for i in range(6)]


def results(club_number: str) -> bytes:
    rows = [
        SyntheticPair("1", (("Lars Ny", "90001"), ("Mette Ny", None)), "62.00"),
        *(
            SyntheticPair(str(i + 2), ((f"Ole {a}", a), (f"Ole {b}", b)), f"{55 - 5 * i}.00")
            for i, (a, b) in enumerate(zip(MEMBERS[0::2], MEMBERS[1::2], strict=True))
        ),
    ]
    return usebio_pairs(club_number=club_number, date=DAY, name="Tirsdag aften", sections=[rows], boards=24)


def register_with_lars(world) -> bytes:
    """The register as it stands, and Lars Ny joining club A with the number the file gave."""
    header = ";".join(COLUMNS)
    lines = [header]
    for club in (world.club_a, world.club_b):
        lines.append(f"club;;;;;;;;{club.number};{club.name};;;;;")
    for player in Player.objects.filter(federation=world.dbf):
        lines.append(f"player;{player.number};{player.first_name};{player.last_name};;;member;2026-12-31;;;;;;;")
        for membership in player.memberships.all():
            lines.append(f"membership;{player.number};;;;;;;{membership.club.number};;;;1;;")
    lines.append("player;90001;Lars;Ny;;;member;2026-12-31;;;;;;;")
    lines.append(f"membership;90001;;;;;;;{world.club_a.number};;2025-04-01;;1;;")
    return ("\n".join(lines) + "\n").encode()


def test_unknown_players_are_held_one_joins_by_the_register_the_other_is_merged(
    page, log_in, personas, world, tmp_path
):
    for number in MEMBERS:
        make_player(world.dbf, number, first="Ole", last=number, club=world.club_a)
    path = tmp_path / "tirsdag.xml"
    path.write_bytes(results(world.club_a.number))

    log_in("director_a", "pw-director_a")
    page.goto("/tournaments/upload/")
    page.get_by_label("Organiser").select_option(label=str(world.club_a))
    page.get_by_label("Points played for").select_option("BP")
    page.get_by_label("Results file").set_input_files(str(path))
    page.get_by_role("button", name="Upload and check").click()
    page.get_by_role("heading", name="Check the results").wait_for()
    page.get_by_role("button", name="Hold the remaining players' points (2)").click()
    page.get_by_text("2 players held as provisional players.").wait_for()
    page.get_by_role("button", name="Confirm and award points").click()
    page.get_by_text("The results are confirmed").wait_for()

    lars, mette = ProvisionalPlayer.objects.order_by("name")
    held = {p.name: sum(a["units"] for case in p.cases.all() for a in case.awards) for p in (lars, mette)}
    assert held["Lars Ny"] > 0 and not Award.objects.filter(reason__contains="90001").exists()

    register_import(actor=personas.secretariat, federation=world.dbf, data=register_with_lars(world), dry_run=False)
    assert provisional_players_join() == 1  # the beat's job, every minute
    member = Player.objects.get(federation=world.dbf, number="90001")
    standings_refresh_players(federation=world.dbf, player_ids=[member.pk])
    page.goto("/players/dbf/90001/")
    assert "Tirsdag aften" in page.content()

    existing = make_player(world.dbf, "70709", first="Mette", last="Ny-Holm", club=world.club_a)
    page.context.clear_cookies()
    log_in("secretariat", "pw-secretariat")
    page.goto("/admin/masterpoints/provisionalplayer/")
    page.get_by_role("link", name="Credit to a member").first.click()
    page.locator("select[name=player]").wait_for(state="attached")
    page.evaluate(
        "([id, text]) => { const s = document.querySelector('select[name=player]');"
        " s.add(new Option(text, id, true, true)); }",
        [str(existing.pk), str(existing)],
    )
    page.get_by_role("button", name="Credit the held points to this member").click()
    page.get_by_text("credited to").first.wait_for()

    paid = {p: Award.objects.filter(player=p).aggregate(total=Sum("units"))["total"] for p in (member, existing)}
    assert paid == {member: held["Lars Ny"], existing: held["Mette Ny"]}, "the ledger holds exactly what was held"
    credits = AuditEvent.objects.filter(action="provisional.credit").order_by("pk")
    assert [(c.actor, c.payload["how"]) for c in credits] == [(None, "joined"), (personas.secretariat, "merged")]

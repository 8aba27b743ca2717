"""Browser journeys of the office's desk (issue 38): the secretary finds a player's ledger from the admin in two
actions and starts a correction of a 2025 award; withdraws a tournament, and the player's and the tournament's
pages show it; imports a file of 44 new members in add-and-update mode with nothing ended. Desktop and phone."""

from __future__ import annotations

import datetime

import pytest

from federation.models import Player
from masterpoints.models import CorrectionRequest, TournamentWithdrawal
from masterpoints.standings.services import standings_refresh_players
from tests.factories import make_player, make_tournament, post_award
from tests.office.register.files import csv_file, row

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _player_with_awards(world):
    player = make_player(world.dbf, "10043", first="Rasmus", last="Sørensen", club=world.club_a)
    day = datetime.date(2025, 9, 16)
    tournament = make_tournament(world.dbf, world.club_a, key="tirsdag", day=day, name="Tirsdagsturnering")
    post_award(player, "BP", 24, source="result", tournament=tournament, day=day)
    old = make_tournament(world.dbf, world.club_b, key="old", day=datetime.date(2023, 10, 3), name="Efterårsturnering")
    post_award(player, "BP", 12, source="result", tournament=old, day=datetime.date(2023, 10, 3))
    standings_refresh_players(federation=world.dbf, player_ids=[player.pk])
    return player, tournament


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "scrolls sideways"


@pytest.mark.parametrize("size", SIZES)
def test_the_secretary_finds_the_ledger_in_two_actions_and_starts_a_correction(page, log_in, personas, world, size):
    player, tournament = _player_with_awards(world)
    page.set_viewport_size(SIZES[size])
    log_in("secretariat", "pw-secretariat")
    page.goto("/admin/federation/player/")

    page.locator("#searchbar").fill("10043")  # action 1: the players' search
    page.locator("#searchbar").press("Enter")
    page.locator("#result_list tr", has_text="10043").get_by_role("link", name="Ledger").click()  # action 2

    page.get_by_role("heading", name="Ledger").wait_for()
    ledger = page.locator("#ledger")
    assert "Tirsdagsturnering" in ledger.inner_text() and "Efterårsturnering" in ledger.inner_text()
    assert page.locator("#record-balances").get_by_text("36").count() >= 1  # MP total (24 + 12 BP = 0.36 MP) or BP
    page.locator("#ledger tr", has_text="Tirsdagsturnering").get_by_role("link", name="Correct").click()
    assert "2025-09-16 · Tirsdagsturnering" in page.locator("select[name=award] option:checked").inner_text()
    page.get_by_label("What is wrong, and what should it be?").fill("We were 2nd, not 3rd: 32 BP.")
    page.get_by_role("button", name="File the request").click()
    page.get_by_text("is filed").wait_for()
    correction = CorrectionRequest.objects.get()
    assert correction.player == player and correction.award.tournament == tournament
    assert correction.requested_by == personas.secretariat


@pytest.mark.parametrize("size", SIZES)
def test_the_secretary_withdraws_a_tournament_and_both_pages_show_it(page, log_in, personas, world, size):
    player, tournament = _player_with_awards(world)
    page.set_viewport_size(SIZES[size])
    log_in("secretariat", "pw-secretariat")
    page.goto(f"/admin/masterpoints/standing/player/{player.pk}/")
    page.locator("#ledger tr", has_text="Tirsdagsturnering").get_by_role("link", name="Withdraw the tournament").click()
    page.get_by_label("Why is the tournament withdrawn?").fill("Wrong organiser: the club's own practice evening")
    page.get_by_role("button", name="Withdraw the tournament").click()
    page.get_by_text("is withdrawn: 1 awards reversed").wait_for()
    assert TournamentWithdrawal.objects.get().tournament == tournament
    assert "withdrawn" in page.locator("#ledger tr", has_text="Tirsdagsturnering").first.inner_text()
    if size == "phone":
        _fits(page)  # the record page, back from the withdrawal

    page.goto("/players/dbf/10043/")
    text = page.locator("main").inner_text()
    assert "tournament withdrawn: Wrong organiser" in text
    page.goto(tournament.get_absolute_url())
    banner = page.locator("#withdrawn")
    assert "Withdrawn by the secretariat" in banner.inner_text() and "Wrong organiser" in banner.inner_text()
    assert "You finished" not in page.content()


@pytest.mark.parametrize("size", SIZES)
def test_the_secretary_imports_44_new_members_and_ends_nothing(page, log_in, personas, world, size, tmp_path):
    members = [make_player(world.dbf, str(500 + n)) for n in range(5)]
    rows = [row("player", number=str(40001 + n), first_name="Ny", last_name=f"Medlem {n}") for n in range(44)]
    path = tmp_path / "new-members.csv"
    path.write_bytes(csv_file(*rows))
    page.set_viewport_size(SIZES[size])
    log_in("secretariat", "pw-secretariat")
    page.goto("/admin/federation/player/")
    page.get_by_role("link", name="Import the member register").click()
    assert page.get_by_label("Add and update", exact=False).is_checked()
    page.get_by_label("Register file (CSV UTF-8 or XLSX)").set_input_files(str(path))
    page.get_by_role("button", name="Check (dry run)").click()
    summary = page.locator("#register-summary")
    assert "adds 44 player rows" in summary.inner_text() and "ends" not in summary.locator("ul").inner_text()
    if size == "phone":
        _fits(page)
    page.get_by_role("button", name="Import the checked file").click()
    page.get_by_text("The register is imported: 44 changes written.").wait_for()
    assert Player.objects.filter(number__startswith="400").count() == 44
    assert not Player.objects.filter(status="lapsed").exists()
    assert all(member.status == "member" for member in Player.objects.filter(pk__in=[m.pk for m in members]))

"""A club director uploads a results file, resolves an unknown player, confirms, and sees the awards
on the tournament page."""

from __future__ import annotations

import datetime

import pytest

from federation.models import Player
from masterpoints.models import Award
from tests.factories import pairs_from_numbers, usebio_pairs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NUMBERS = [str(60001 + i) for i in range(24)]


def test_director_uploads_resolves_a_player_confirms_and_sees_the_awards(page, log_in, personas, world, tmp_path):
    for number in NUMBERS[:-1]:  # the last player is not on the register
        Player.objects.create(federation=world.dbf, number=number, first_name="Player", last_name=number)
    data = usebio_pairs(
        club_number=world.club_a.number,
        date=datetime.date(2025, 4, 7),
        name="Mandag aften",
        sections=[pairs_from_numbers(NUMBERS, seed=5)],
        boards=24,
    )
    results = tmp_path / "mandag.xml"
    results.write_bytes(data)

    log_in("director_a", "pw-director_a")
    page.goto("/tournaments/upload/")
    page.get_by_label("Organiser").select_option(label=str(world.club_a))
    page.get_by_label("Points played for").select_option("BP")
    page.get_by_label("Results file").set_input_files(str(results))
    page.get_by_role("button", name="Upload and check").click()

    page.get_by_role("heading", name="Check the results").wait_for()
    assert page.get_by_text("PLAYER_UNKNOWN").count() == 1
    resolve = page.locator("tr.resolve-row").first
    resolve.get_by_label(f"Treat Player {NUMBERS[-1]} as").select_option("guest")
    resolve.get_by_role("button", name="Save").click()

    page.get_by_text("1 player resolved.").wait_for()
    assert page.locator("tr.resolve-row").count() == 0
    page.get_by_role("button", name="Confirm and award points").click()

    page.get_by_text("The results are confirmed").wait_for()
    assert page.get_by_role("heading", name="Mandag aften").is_visible()
    # The winners (places 1: 24 BP each, D-P1) show their award, with the explanation one click away.
    winner = page.locator(".player-line", has_text="Player 60001")
    assert "24 BP" in winner.inner_text()
    winner.locator("summary").click()
    assert "§ 406B1" in winner.inner_text()
    assert Award.objects.filter(player__number="60001").get().units == 24
    assert not Award.objects.filter(player__number=NUMBERS[-1]).exists()

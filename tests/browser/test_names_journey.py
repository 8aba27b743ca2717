"""A director uploads a file whose players are on the register under slightly different spellings, one with a
wrong digit that belongs to someone else (issue 17): the preview flags the wrong digit as NAME_MISMATCH and
suggests the right members with their reasons; every player is resolved in at most two actions, without
the page reloading; a second upload of the same file needs none (the club's remembered resolutions)."""

from __future__ import annotations

import datetime

import pytest

from masterpoints.models import Award
from tests.factories import SyntheticPair, make_player, make_players, usebio_pairs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FILLERS = [str(61001 + i) for i in range(10)]


def sample_like(club_number: str) -> bytes:
    pairs = [
        SyntheticPair("1", (("Joergen Hansen", "60091"), ("Moeller, Soeren", "60002")), "63.10"),
        SyntheticPair("2", (("Aase Kjaer", None), ("Mette Holm", "60010")), "58.40"),
    ]
    pairs += [
        SyntheticPair(str(3 + i), ((f"Player {a}", a), (f"Player {b}", b)), f"{55 - i}.00")
        for i, (a, b) in enumerate(zip(FILLERS[0::2], FILLERS[1::2], strict=True))
    ]
    return usebio_pairs(
        club_number=club_number, date=datetime.date(2025, 4, 7), name="Mandag aften", sections=[pairs], boards=24
    )


def upload_file(page, world, path) -> None:
    page.goto("/tournaments/upload/")
    page.get_by_label("Organiser").select_option(label=str(world.club_a))
    page.get_by_label("Points played for").select_option("BP")
    page.get_by_label("Results file").set_input_files(str(path))
    page.get_by_role("button", name="Upload and check").click()
    page.get_by_role("heading", name="Check the results").wait_for()


def test_slightly_different_names_and_a_wrong_digit_are_resolved_in_two_actions_and_remembered(
    page, log_in, personas, world, tmp_path
):
    club = world.club_a
    make_player(world.dbf, "60001", first="Jørgen", last="Hansen", club=club)
    make_player(world.dbf, "60002", first="Søren", last="Møller", club=club)
    make_player(world.dbf, "60003", first="Åse", last="Kjær", club=club)
    make_player(world.dbf, "60010", first="Bo", last="Nielsen", club=club)
    mette = make_player(world.dbf, "60011", first="Mette", last="Holm", club=club)
    make_players(world.dbf, FILLERS)
    path = tmp_path / "mandag.xml"
    path.write_bytes(sample_like(club.number))

    log_in("director_a", "pw-director_a")
    upload_file(page, world, path)
    assert page.get_by_text("NAME_MISMATCH").count() == 1
    assert page.get_by_text("but the register has Bo Nielsen under that number").is_visible()
    table = page.locator("table.resolve-table")
    assert "same name, number differs by one digit, member of the club" in table.inner_text()
    assert "Åse Kjær (60003)" in table.inner_text() and "Mette Holm (60011)" in table.inner_text()

    page.evaluate("window.scrollTo(0, 400)")
    page.evaluate("window.__kept = true")  # gone if the page reloads
    page.get_by_role("button", name="Accept all suggestions (3)").click()  # action 1
    page.get_by_text("3 suggestions accepted.").wait_for()
    assert page.evaluate("window.__kept") is True
    assert page.locator("tr.resolve-row").count() == 0
    # Every player is resolved: the warnings they raised (no number in the file, a name that did not fit
    # the number) are answered, so no tick is asked (issue 35).
    assert page.get_by_text("ID_MISSING").count() == 0
    page.get_by_role("button", name="Confirm and award points").click()  # action 2
    page.get_by_text("The results are confirmed").wait_for()
    assert Award.objects.filter(player=mette).exists()

    upload_file(page, world, path)
    assert page.locator("tr.resolve-row").count() == 0
    assert page.get_by_text("RESOLUTION_REMEMBERED").count() == 1
    assert page.get_by_text("NAME_MISMATCH").count() == 0

"""A player's journey on the public site: open the rankings, filter by club, sort, open a player,
see the chart of points over time and why an award is this many points, switch the language."""

from __future__ import annotations

import datetime

import pytest

from clubs.models import ClubMembership
from federation.models import Player
from masterpoints.standings.services import standings_rebuild
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import pairs_from_numbers, usebio_pairs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NUMBERS = [str(80001 + i) for i in range(24)]
SURNAMES = ["Andersen", "Bach", "Clausen", "Dahl", "Eriksen", "Frederiksen", "Holm", "Iversen"]


@pytest.fixture
def season(world):
    """24 players, the first 12 in club A and the others in club B; two club evenings in club A."""
    for index, number in enumerate(NUMBERS):
        player = Player.objects.create(
            federation=world.dbf, number=number, first_name="Kirsten", last_name=f"{SURNAMES[index % 8]}{number}"
        )
        ClubMembership.objects.create(player=player, club=world.club_a if index < 12 else world.club_b, is_home=True)
    for day, seed in ((datetime.date(2025, 3, 3), 1), (datetime.date(2025, 3, 10), 2)):
        data = usebio_pairs(
            club_number=world.club_a.number,
            date=day,
            name=f"Mandag {day:%d.%m}",
            sections=[pairs_from_numbers(NUMBERS[seed - 1 :] + NUMBERS[: seed - 1], seed=seed)],
            boards=24,
        )
        upload = results_upload_create(
            actor=None,
            federation=world.dbf,
            club=world.club_a,
            region=None,
            data=data,
            filename="r.xml",
            facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None},
            trusted=True,
        )
        results_upload_confirm(actor=None, upload=upload, acknowledge_warnings=True, trusted=True)
    standings_rebuild()


def test_a_player_finds_their_standing_and_why_an_award_is_this_many_points(page, world, season):
    page.goto("/rankings/")
    page.get_by_role("heading", name="Rankings").wait_for()
    rows = page.locator("table.ranking tbody tr")
    assert rows.count() > 0
    assert rows.first.locator("td").first.inner_text().strip() == "1"

    # Filter by club, chosen within its region (the clubs are listed once a region is chosen): only club A's
    # members remain.
    page.get_by_label("Region").select_option(label=world.district.name)
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**/rankings/?*region=*")
    page.get_by_label("Club").select_option(label=world.club_a.name)
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**/rankings/?*club=*")
    clubs = {text.strip() for text in page.locator("table.ranking tbody tr td:nth-child(4)").all_inner_texts()}
    assert clubs == {world.club_a.name}

    # Sort by name: the header says so, and the names come in order.
    page.locator("table.ranking thead").get_by_role("link", name="Player").click()
    page.wait_for_url("**sort=*")
    assert page.locator("th[aria-sort]").inner_text().strip() == "Player"
    names = [text.strip() for text in page.locator("table.ranking tbody tr td:nth-child(3)").all_inner_texts()]
    assert names == sorted(names)

    # Open the first player: balances, the chart and the explanation of an award.
    first = page.locator("table.ranking tbody tr td:nth-child(3) a").first
    name = first.inner_text().strip()
    first.click()
    page.get_by_role("heading", name=name).wait_for()
    assert page.locator("svg.chart").is_visible()
    assert page.locator("svg.chart path.line").count() == 1
    award = page.locator("table.awards tbody tr").first
    award.locator("summary").click()
    assert "§ 406B1" in award.inner_text()

    # Switch the language: the page comes back in Danish.
    page.get_by_label("Language").select_option("da")
    page.get_by_role("button", name="Change").click()
    page.wait_for_function("document.documentElement.lang === 'da'")
    assert page.get_by_role("heading", name=name).is_visible()

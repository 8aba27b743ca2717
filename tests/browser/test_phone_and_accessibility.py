"""Issue 18: the public pages on a phone (390 × 844) and axe-core's accessibility checks.

The rankings' points column and a player's balances are on the screen without sideways scrolling; axe finds
no serious or critical violation on the home, rankings, player, tournament and upload pages.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from federation.models import Player
from tests.browser.test_rankings import NUMBERS, season  # noqa: F401 - the season fixture
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def no_sideways_scrolling(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def inside_viewport(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_rankings_show_the_points_that_rank_the_list_on_a_phone(page, season):  # noqa: F811
    page.set_viewport_size(PHONE)
    page.goto("/rankings/")
    page.get_by_role("heading", name="Rankings").wait_for()
    assert no_sideways_scrolling(page)
    points = page.locator("table.ranking tbody tr").first.locator("td.points")
    assert points.count() == 1 and points.is_visible()
    assert inside_viewport(points)
    assert page.locator("table.ranking tbody tr").first.locator("td.secondary").first.is_hidden()
    # The filters fold behind one button; opened, they are the usual form.
    assert page.get_by_label("Club").is_hidden()
    page.get_by_text("Filters", exact=True).click()
    assert page.get_by_label("Club").is_visible()


def test_a_players_balances_are_on_a_phones_screen(page, world, season):  # noqa: F811
    page.set_viewport_size(PHONE)
    player = Player.objects.get(federation=world.dbf, number=NUMBERS[0])
    page.goto(f"/players/dbf/{player.number}/")
    page.get_by_role("heading", name="Points", exact=True).wait_for()
    assert no_sideways_scrolling(page)
    balances = page.locator("dl.balances div")
    assert balances.count() == 4
    for index in range(balances.count()):
        assert inside_viewport(balances.nth(index))


def test_the_why_of_an_award_is_a_sentence_with_the_place_and_the_points_on_a_phone(page, world, season):  # noqa: F811
    """Issue 18: on a phone the "why" of an award reads as a sentence naming the place and the points (the
    variables stay behind the details toggle), and it wraps inside the screen."""
    page.set_viewport_size(PHONE)
    player = Player.objects.get(federation=world.dbf, number=NUMBERS[0])
    page.goto(f"/players/dbf/{player.number}/")
    why = page.locator("p.why-sentence").first
    why.wait_for()
    found = re.search(r"finished in place (\d+)\b.*: (\d+) BP\.", why.inner_text())
    assert found, why.inner_text()
    place, points = int(found.group(1)), int(found.group(2))
    results = player.awards.filter(source="result")
    awarded = [(int(a.explanation_data["inputs"]["place"]), int(a.amount)) for a in results]
    assert (place, points) in awarded
    assert inside_viewport(why) and no_sideways_scrolling(page)
    assert page.locator("details.why").first.is_visible()


def test_a_tournaments_rows_show_their_points_on_a_phone(page, season):  # noqa: F811
    page.set_viewport_size(PHONE)
    page.goto(Tournament.objects.order_by("pk").first().get_absolute_url())
    winner = page.locator("table.results tbody tr").first
    assert inside_viewport(winner.locator("td.points")) and winner.locator("td.points").inner_text().endswith("BP")
    assert no_sideways_scrolling(page)


def serious(page) -> list[str]:
    violations = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}" for v in violations if v["impact"] in ("serious", "critical")]


def test_axe_finds_no_serious_violation_on_the_main_pages(page, log_in, world, personas, season):  # noqa: F811
    tournament = Tournament.objects.order_by("pk").first()
    player = Player.objects.get(federation=world.dbf, number=NUMBERS[0])
    found = {}
    for address in ("/", "/rankings/", f"/players/dbf/{player.number}/", tournament.get_absolute_url()):
        page.goto(address)
        found[address] = serious(page)
    log_in("director_a", "pw-director_a")
    page.goto("/tournaments/upload/")
    found["upload"] = serious(page)
    assert found == {address: [] for address in found}


def test_the_axe_check_reports_a_serious_violation(page):
    """The check above can fail: an image without a text alternative is critical for axe (image-alt)."""
    page.set_content('<!doctype html><html lang="en"><title>t</title><main><img src="x.png"></main></html>')
    assert any(found.startswith("image-alt (critical)") for found in serious(page))

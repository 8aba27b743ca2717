"""Every tab of /calculator/ opens its own calculator and computes, at desktop width and on a 390 px phone
(issue 38, part 4): the DBf scale, the DBf title, the HBS scale and the HBS category."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fill(page, label: str, value: str) -> None:
    page.get_by_label(label, exact=True).fill(value)


@pytest.mark.parametrize("width", [1280, 390])
def test_every_calculator_tab_opens_its_own_form_and_computes(page, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/calculator/")
    tabs = page.get_by_role("navigation", name="Calculators").get_by_role("link")
    assert tabs.all_inner_texts() == ["DBf scale", "DBf title", "HBS scale", "HBS category"]

    # DBf scale (§ 406B): 24 pairs, 24 boards, a club evening → 8 places, 48 BP for the winners.
    tabs.get_by_text("DBf scale", exact=True).click()
    page.get_by_label("Participants in the row").wait_for()
    page.get_by_role("button", name="Calculate").click()
    result = page.locator("section.answer")
    assert "Points per player by place" in result.inner_text()
    assert result.locator("table.scale tbody tr").count() == 8
    assert result.locator("table.scale tbody tr").first.locator("td").nth(1).inner_text() == "48"

    # DBf title (§ 404): 553 BP and 53 SP → Klubmester ★; the amounts named reach Distriktsmester.
    page.get_by_role("navigation", name="Calculators").get_by_role("link", name="DBf title").click()
    _fill(page, "Bronze points (BP)", "553")
    _fill(page, "Silver points (SP)", "53")
    page.get_by_role("button", name="Calculate").click()
    result = page.locator("section.answer").inner_text()
    assert "Klubmester ★" in result
    assert "417 BP reach Distriktsmester" in result
    assert "Units in the field" not in page.content()

    # HBS scale (H-3): 20 pairs, 24 boards, S = 1 → B = 14, ten places paid.
    page.get_by_role("navigation", name="Calculators").get_by_role("link", name="HBS scale").click()
    page.get_by_label("Units in the field (N)").wait_for()
    page.get_by_label("Form").select_option("pairs")
    page.get_by_role("button", name="Calculate").click()
    result = page.locator("section.answer")
    assert result.locator("table.scale tbody tr").count() == 10
    assert result.locator("table.scale tbody tr").first.locator("td").nth(1).inner_text() == "14"

    # HBS category (H-2): 100 black points → no category yet, and what the next needs.
    page.get_by_role("navigation", name="Calculators").get_by_role("link", name="HBS category").click()
    _fill(page, "Black points", "100")
    page.get_by_role("button", name="Calculate").click()
    result = page.locator("section.answer").inner_text()
    assert "Next category" in result and "Tref" in result.title()
    # Nothing scrolls sideways on the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= width

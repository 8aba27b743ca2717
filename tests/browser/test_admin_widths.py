"""The admin at desktop and phone widths (issue 38, part 4): the commission's *Decide* link is on screen at
1280 px, the decide page fits a 390 px phone, admin pages carry the site's icon and larger checkboxes."""

from __future__ import annotations

import datetime

import pytest

from masterpoints.models import Award, CorrectionRequest
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def correction(world, personas):
    tournament = Tournament.objects.create(
        federation=world.dbf,
        organiser_kind="club",
        club=world.club_a,
        name="Mandagsturnering i Brøndby Strand Bridgeklub, forårssæsonens afsluttende aften med præmier",
        event_key="t1",
        date=datetime.date(2025, 2, 3),
        form="pairs",
        category="BP",
        boards=24,
    )
    award = Award.objects.create(
        federation=world.dbf,
        player=world.player,
        kind="BP",
        units=16,
        source="result",
        tournament=tournament,
        awarded_on=tournament.date,
    )
    return CorrectionRequest.objects.create(
        federation=world.dbf,
        player=world.player,
        tournament=tournament,
        award=award,
        text="We finished second, not third: the second board was scored the wrong way. " * 4,
        requested_by=personas.player,
    )


def _scroll_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_the_commission_sees_decide_at_1280_px_and_decides_on_a_phone(page, log_in, personas, correction):
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("commission", "pw-commission")
    page.goto("/admin/masterpoints/correctionrequest/")
    decide = page.locator("#result_list tbody tr").first.get_by_role("link", name="Decide")
    box = decide.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1280, box
    assert _scroll_width(page) <= 1280
    # The admin carries the site's icon (no favicon 404) and checkboxes a finger can hit.
    assert page.locator("link[rel='icon']").count() == 1
    checkbox = page.locator("#result_list tbody input[type=checkbox]").first.bounding_box()
    assert checkbox["width"] >= 18 and checkbox["height"] >= 18

    page.set_viewport_size({"width": 390, "height": 844})
    decide.click()
    page.get_by_label("grant", exact=True).wait_for()
    assert _scroll_width(page) <= 390


def _links(page, prefix: str) -> list[str]:
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    return sorted({href.split("?")[0] for href in hrefs if href.startswith(prefix)})


@pytest.mark.parametrize(("login", "password"), [("secretariat", "pw-secretariat"), ("commission", "pw-commission")])
def test_no_admin_list_or_record_a_staff_login_reaches_scrolls_sideways_at_1280_px(
    page, log_in, personas, correction, login, password
):
    """Issue 38: every admin list the login's index offers, and the first record of each, fits 1280 px."""
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(login, password)
    page.goto("/admin/")
    lists = [href for href in _links(page, "/admin/") if href.count("/") == 4 and not href.endswith("/add/")]
    assert len(lists) > 10, lists
    wide = []
    for address in lists:
        page.goto(address)
        if _scroll_width(page) > 1280:
            wide.append(address)
        records = [href for href in _links(page, address) if href.endswith("/change/")][:1]
        for record in records:
            page.goto(record)
            if _scroll_width(page) > 1280:
                wide.append(record)
    assert wide == []

"""Browser journeys of the office: a club director applies for a sanction and the secretariat approves it in the
admin (§ 403B); a player asks for a correction, the commission grants it, and the player's balance changes."""

from __future__ import annotations

import datetime

import pytest
from django.db.models import Sum
from django.utils import timezone

from clubs.models import PlayingTime
from masterpoints.models import Award, CorrectionRequest
from tournaments.models import Sanction, SanctionApplication, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_director_applies_for_a_sanction_and_the_secretariat_approves_it_in_the_admin(page, log_in, personas, world):
    PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")
    day = timezone.localdate() + datetime.timedelta(days=120)

    log_in("director_a", "pw-director_a")
    page.goto("/sanctions/")
    page.get_by_role("link", name="Apply for a sanction").click()
    page.get_by_label("Club", exact=True).select_option(label=str(world.club_a))
    page.get_by_label("Tournament name").fill("Sommer-GP")
    page.get_by_label("Points", exact=True).select_option("SP")
    page.get_by_label("Quota", exact=True).select_option("full")
    page.get_by_label("Playing time").select_option(label="Bridgeklubben A: Monday evening")
    page.get_by_label("First day").fill(day.isoformat())
    page.get_by_label("Form", exact=True).select_option("pairs")
    page.get_by_label("Boards planned").fill("48")
    page.get_by_label("Entry deadline").fill((day - datetime.timedelta(days=7)).isoformat())
    page.get_by_label("Advertised on").fill((day - datetime.timedelta(days=40)).isoformat())
    page.get_by_label("Advertised", exact=True).select_option("dansk_bridge_website")
    page.get_by_role("button", name="File the application").click()

    page.get_by_text("The application was filed").wait_for()
    assert page.get_by_role("heading", name="Sommer-GP").is_visible()
    assert "filed: awaiting the district" in page.locator(".facts").inner_text()

    log_in("secretariat", "pw-secretariat")
    page.goto("/admin/tournaments/sanctionapplication/")
    row = page.locator("#result_list tbody tr", has_text="Sommer-GP")
    row.locator("input.action-select").check()
    page.locator("select[name=action]").select_option("approve")
    page.get_by_role("button", name="Go").click()
    page.get_by_role("button", name="Approve the selected applications").click()

    page.get_by_text("1 done.").wait_for()
    application = SanctionApplication.objects.get()
    assert application.status == "approved" and application.decided_by == personas.secretariat
    assert Sanction.objects.get().club == world.club_a


def test_player_asks_for_a_correction_the_commission_grants_it_and_the_balance_changes(page, log_in, personas, world):
    tournament = Tournament.objects.create(
        federation=world.dbf,
        organiser_kind="club",
        club=world.club_a,
        name="Mandagsturnering",
        event_key="t1",
        date=datetime.date(2025, 2, 3),
        form="pairs",
        category="BP",
        boards=24,
    )
    Award.objects.create(
        federation=world.dbf,
        player=world.player,
        kind="BP",
        units=16,
        source="result",
        tournament=tournament,
        awarded_on=tournament.date,
    )

    def balance() -> int:
        return Award.objects.filter(player=world.player, kind="BP").aggregate(total=Sum("units"))["total"]

    log_in("player", "pw-player")
    page.goto("/corrections/")
    page.get_by_role("link", name="Ask for a correction").click()
    page.get_by_label("The award").select_option(index=1)
    page.get_by_label("What is wrong").fill("We finished second, not third: the second board was scored the wrong way.")
    page.get_by_role("button", name="Send the request").click()
    page.get_by_text("Your request was filed").wait_for()
    correction = CorrectionRequest.objects.get()
    assert balance() == 16

    log_in("commission", "pw-commission")
    page.goto("/admin/masterpoints/correctionrequest/")
    page.locator("#result_list tbody tr", has_text="Karen Jensen").get_by_role("link", name="Decide").click()
    page.get_by_label("grant", exact=True).check()
    page.get_by_label("Reason").fill("Second place pays 24 BP (§ 406B1).")
    page.get_by_label("Adjust: kind").first.select_option("BP")
    page.get_by_label("amount (+ or −)").first.fill("8")
    # D-Q47: the decide page first shows the ledger entries a grant would post, then records it.
    page.get_by_role("button", name="Show the entries, or record a refusal").click()
    page.get_by_text("Granting posts these ledger entries").wait_for()
    page.get_by_role("button", name="Record the decision").click()
    page.get_by_text("1 ledger entries posted").wait_for()
    assert balance() == 24

    log_in("player", "pw-player")
    page.goto(f"/corrections/{correction.pk}/")
    assert "granted" in page.locator(".facts").inner_text()
    entry = page.locator("tr.ledger-entry")
    assert entry.count() == 1 and "8" in entry.inner_text() and "correction" in entry.inner_text()

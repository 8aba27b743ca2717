"""Issue 19, item 2: the commission's decide page shows the player's awards in the tournament and the ledger
entries a grant posts before it is recorded (D-Q47); only those who decide are offered *Decide*, and a
refusal is said once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from masterpoints.corrections.services import correction_request_file
from masterpoints.models import Award
from tests.factories import post_award


@pytest.fixture
def correction(world, personas, award):
    return correction_request_file(actor=personas.player, player=world.player, award=award, text="Vi blev nr. 2.")


def decide_url(correction) -> str:
    return reverse("admin:masterpoints_correctionrequest_decide", args=[correction.pk])


QUEUE = "/admin/masterpoints/correctionrequest/"


def test_only_the_commission_is_offered_decide_the_secretariat_reads_who_decides_issue_19(client, personas, correction):
    client.force_login(personas.commission)
    assert decide_url(correction) in client.get(QUEUE).content.decode()
    client.force_login(personas.secretariat)
    page = client.get(QUEUE).content.decode()
    assert decide_url(correction) not in page and "open: the commission decides" in page


def test_the_page_shows_the_players_awards_in_the_tournament_issue_19(client, world, personas, correction, tournament):
    post_award(world.player, "SP", 7, source="result", tournament=tournament, part="bonus")
    client.force_login(personas.commission)
    response = client.get(decide_url(correction))
    assert [(a.kind, a.units) for a in response.context["awards"]] == [("BP", 16), ("SP", 7)]
    assert response.context["planned"] == []


def test_a_grant_shows_its_entries_first_and_posts_exactly_those_d_q47(client, world, personas, correction, award):
    client.force_login(personas.commission)
    form = {"grant": "yes", "reason": "Plads 2", "reverse_award": "on", "kind_1": "BP", "amount_1": "20"}
    shown = client.post(decide_url(correction), form)
    planned = [(row.kind, row.units, row.source, row.reverses_id) for row in shown.context["planned"]]
    assert planned == [("BP", -16, "reversal", award.pk), ("BP", 20, "correction", None)]
    assert f"reverses award #{award.pk} (16 BP) in full" in shown.content.decode()
    assert Award.objects.count() == 1, "nothing is posted before the decision"
    changed = client.post(decide_url(correction), {**form, "amount_1": "30", "plan_key": shown.context["plan_key"]})
    assert changed.status_code == 200 and Award.objects.count() == 1, "other entries than shown: shown again"
    done = client.post(decide_url(correction), {**form, "amount_1": "30", "plan_key": changed.context["plan_key"]})
    assert done.status_code == 302
    posted = Award.objects.filter(correction=correction).order_by("pk")
    assert [(row.kind, row.units, row.reverses_id) for row in posted] == [("BP", -16, award.pk), ("BP", 30, None)]


def test_a_refusal_of_the_service_is_shown_once_issue_19(client, personas, correction):
    client.force_login(personas.commission)
    response = client.post(
        decide_url(correction), {"grant": "yes", "reason": "Rettes", "kind_1": "BP", "amount_1": "-20"}
    )
    assert response.content.decode().count("a balance is never below 0") == 1
    assert Award.objects.count() == 1


def test_someone_who_does_not_decide_is_refused_once_on_opening_the_page_issue_19(client, personas, correction):
    client.force_login(personas.secretariat)
    response = client.get(decide_url(correction), follow=True)
    assert response.content.decode().count("is decided by the commission of DBf") == 1


@pytest.mark.parametrize(
    ("amount", "said"),
    [
        ("Infinity", "Infinity is not a number."),
        ("sNaN", "sNaN is not a number."),
        ("NaN", "NaN is not a number."),
        ("1e30", "1e30 BP is more than one correction can post (at most 10000 BP)."),
    ],
)
def test_an_amount_that_is_no_number_or_beyond_the_bound_is_refused_by_name_issue_19(
    client, personas, correction, amount, said
):
    """Every number from outside has a bound: a correction's amount is finite and at most MAX_CORRECTION
    points either way; the page says so instead of failing."""
    client.force_login(personas.commission)
    response = client.post(decide_url(correction), {"grant": "yes", "reason": "r", "kind_1": "BP", "amount_1": amount})
    assert response.status_code == 200
    assert response.content.decode().count(said) == 1
    assert Award.objects.count() == 1

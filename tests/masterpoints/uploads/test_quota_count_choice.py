"""Issue 34, item 7: when the file's declared boards and the boards in its travellers differ, the preview names
the count that set the quota and its rule, and the director chooses between them; the confirm pays the choice
(§ 405B6c, § 405B7c, D-Q63), through the real path: PBN → preview page → choice → confirm → ledger → the player's
page.

§ 405B7c: "Hvis der spilles 42 eller flere spil i den samlede turnering, beregnes fuld kvote SP. Hvis der spilles
mellem 27 og 41 spil, beregnes halv kvote SP". The file declares 30 boards a pair (NrBoards), its travellers hold
42: by D-Q63 the declared 30 set a half quota; the director who knows the travellers are right chooses 42, a full
quota.
"""

from __future__ import annotations

from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from masterpoints.models import Award
from masterpoints.uploads.services import results_upload_create
from tests.factories import make_player
from tests.masterpoints.uploads.player_page import page_shows
from tests.masterpoints.uploads.test_quota_boards import NUMBERS, pbn, sp_scale
from tournaments.models import ResultUpload


def uploaded(world, personas) -> tuple[ResultUpload, Client]:
    for number in NUMBERS:
        make_player(world.dbf, number, first="Jens", last=number, club=world.club_a)
    upload = results_upload_create(
        actor=personas.district_officer,
        federation=world.dbf,
        club=None,
        region=world.district,
        data=pbn(30, 42),
        filename="distrikt.pbn",
        facts={"organiser_kind": "district", "category": "SP", "form": "", "boards": None},
    )
    client = Client()
    client.force_login(personas.district_officer)
    return upload, client


def preview_page(client: Client, upload: ResultUpload) -> tuple[str, dict]:
    response = client.get(reverse("uploads:preview", args=[upload.pk]))
    assert response.status_code == 200
    upload.refresh_from_db()
    return response.content.decode(), upload.preview_summary


def test_the_director_chooses_the_travellers_count_and_the_confirm_pays_a_full_quota_405b7c_d_q63(world, personas):
    upload, client = uploaded(world, personas)
    page, stored = preview_page(client, upload)
    assert stored["quota"] == {"declared": 30, "counted": 42, "used": 30, "source": "declared", "chosen": False}
    assert 'name="quota_count"' in page and "D-Q63" in page and "§ 405B7c" in page
    winner = NUMBERS[0]

    chosen = client.post(reverse("uploads:quota_count", args=[upload.pk]), {"quota_count": "counted"})
    assert chosen.status_code == 302
    page, stored = preview_page(client, upload)
    assert stored["quota"]["used"] == 42 and stored["quota"]["chosen"]
    codes = {item["code"] for item in stored["issue_counts"]}
    assert "QUOTA_BOARDS_CHOSEN" in codes and "QUOTA_BOARDS" not in codes
    assert "42 boards" in page

    confirm = {"payable": stored["payable_digest"], "acknowledge_warnings": "on", "replaces": ""}
    assert client.post(reverse("uploads:confirm", args=[upload.pk]), confirm).status_code == 302
    totals = Award.objects.filter(tournament__upload=upload).values("player__number").annotate(units=Sum("units"))
    paid = {item["player__number"]: item["units"] for item in totals}
    assert paid[winner] == sp_scale(world, 42).share_units(1, 1) > sp_scale(world, 30).share_units(1, 1)
    assert page_shows(world, winner, "Distriktsturnering", f"{paid[winner] / 10:.1f} SP")


def test_a_count_that_is_not_offered_is_a_form_error_and_nothing_changes_d_q63(world, personas):
    upload, client = uploaded(world, personas)
    preview_page(client, upload)
    response = client.post(reverse("uploads:quota_count", args=[upload.pk]), {"quota_count": "27"})
    assert response.status_code == 400
    assert "§ 405B6c" in response.content.decode()
    upload.refresh_from_db()
    assert "quota_count" not in upload.facts


def test_no_choice_when_the_director_gave_the_boards_d_q63(world, personas):
    upload, client = uploaded(world, personas)
    upload.facts = {**upload.facts, "boards": 42}
    upload.save(update_fields=["facts"])
    page, stored = preview_page(client, upload)
    assert stored["quota"] is None and 'name="quota_count"' not in page
    response = client.post(reverse("uploads:quota_count", args=[upload.pk]), {"quota_count": "counted"})
    assert response.status_code == 400

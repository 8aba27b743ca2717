"""Issue 35, part 3: what the preview showed is what the confirm writes. The confirm form carries the digest
of the preview the director checked; a confirm whose recomputed preview pays differently or finds other issues
is refused naming the players and the issue codes that changed, and the page builds the preview again."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from federation.models import Player, RuleSet
from federation.schemes import scheme_of
from masterpoints.models import Award
from tests.factories import SyntheticPair, make_player, make_upload, usebio_pairs
from tournaments.models import ResultUpload

DAY = datetime.date(2025, 5, 6)
NUMBERS = [str(80001 + i) for i in range(8)]


@pytest.fixture
def upload(world, personas):
    players = [make_player(world.dbf, n, first="Ole", last=f"Spiller{n}", club=world.club_a) for n in NUMBERS]
    rows = [
        SyntheticPair(str(i + 1), ((str(a), a.number), (str(b), b.number)), f"{60 - 5 * i}.00")
        for i, (a, b) in enumerate(zip(players[0::2], players[1::2], strict=True))
    ]
    data = usebio_pairs(club_number=world.club_a.number, date=DAY, name="Tirsdag", sections=[rows], boards=24)
    return make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP")


def checked(client, upload) -> dict:
    """The director opens the preview; what the confirm form will post."""
    page = client.get(reverse("uploads:preview", args=[upload.pk]))
    assert page.status_code == 200
    upload.refresh_from_db()
    return {"replaces": "", "payable": upload.preview_summary["payable_digest"], "acknowledge_warnings": "on"}


def confirm(client, upload, form):
    return client.post(reverse("uploads:confirm", args=[upload.pk]), form, follow=True)


def halve_pairs_bp(federation) -> None:
    """The secretariat adds a rule set valid on the event's date: pairs pay half the BP (mass factor 1)."""
    factors = scheme_of(federation).current_rules.to_dict()["mass_factors"]
    factors = {**factors, "pairs": {**factors["pairs"], "BP": "1"}}
    RuleSet.objects.create(federation=federation, valid_from=DAY, name="half", payload={"mass_factors": factors})


def test_a_rule_set_added_after_the_preview_refuses_the_confirm_naming_the_points_shown_and_now(
    client, world, personas, upload
):
    client.force_login(personas.director_a)
    form = checked(client, upload)
    winner = Player.objects.get(number=NUMBERS[0])
    shown = upload.preview_summary["payable"][str(winner.pk)]["BP"]
    halve_pairs_bp(world.dbf)
    page = confirm(client, upload, form).content.decode()
    assert "The results changed since the preview you checked" in page
    assert f"{winner}: {shown} BP shown, {shown // 2} BP now" in page
    assert not Award.objects.exists()
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.PENDING
    assert upload.preview_summary["payable"][str(winner.pk)]["BP"] == shown // 2, "the page built it again"
    again = confirm(client, upload, checked(client, upload))
    assert "The results are confirmed" in again.content.decode()
    assert sum(Award.objects.filter(player=winner).values_list("units", flat=True)) == shown // 2


def test_a_name_changed_after_the_preview_refuses_the_confirm_naming_the_new_warning(client, world, personas, upload):
    client.force_login(personas.director_a)
    form = checked(client, upload)
    Player.objects.filter(number=NUMBERS[2]).update(last_name="Petersen")
    Player.objects.get(number=NUMBERS[2]).save()
    page = confirm(client, upload, form).content.decode()
    assert "The results changed since the preview you checked" in page and "NAME_MISMATCH: 0 → 1" in page
    assert not Award.objects.exists()


def test_nothing_changed_the_confirm_writes_what_the_preview_showed(client, world, personas, upload):
    client.force_login(personas.director_a)
    form = checked(client, upload)
    shown = upload.preview_summary["payable"]
    assert "The results are confirmed" in confirm(client, upload, form).content.decode()
    written: dict[str, dict[str, int]] = {}
    for award in Award.objects.all():
        kinds = written.setdefault(str(award.player_id), {})
        kinds[award.kind] = kinds.get(award.kind, 0) + award.units
    assert written == shown


def test_a_status_changed_after_the_preview_refuses_the_confirm_naming_the_new_warning(client, world, personas, upload):
    client.force_login(personas.director_a)
    form = checked(client, upload)
    Player.objects.filter(number=NUMBERS[3]).update(status=Player.Status.LAPSED)
    page = confirm(client, upload, form).content.decode()
    assert "The results changed since the preview you checked" in page and "PLAYER_NOT_MEMBER: 0 → 1" in page
    assert not Award.objects.exists()

"""A club's SP tournament "med halv MP-uddeling" of 27–41 boards (§ 403B2 with § 405B7c; D-Q64), through the
real path (PBN → preview → confirm → ledger): the half sanction halves what the board rule gives, so 30 boards
pay a quarter quota, half of what a full sanction pays for the same 30 boards (before: the same as a full one)."""

from __future__ import annotations

from django.db.models import Sum

from federation.rulesets import rules_for
from masterpoints.engine.dbf.scale import ScaleRequest, scale
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm
from tests.factories import make_player, make_upload
from tests.masterpoints.uploads.player_page import page_shows
from tests.masterpoints.uploads.test_quota_boards import DAY, NUMBERS, pbn


def winner_units(world, personas, monkeypatch, kind: str) -> int:
    from tournaments.sanctions import selectors as sanctions

    monkeypatch.setattr(sanctions, "event_sanction", lambda **_kwargs: sanctions.EventSanction(kind=kind))
    for number in NUMBERS:
        if not world.dbf.players.filter(number=number).exists():
            make_player(world.dbf, number, first="Jens", last=number, club=world.club_a)
    data = pbn(30, 30).replace(b"Distriktsturnering", f"Klub {kind}".encode())
    upload = make_upload(
        world.dbf, world.club_a, data, actor=personas.director_a, filename=f"{kind}.pbn", category="SP"
    )
    preview = build_preview(upload)
    assert preview.sanction == kind
    tournament = results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    awards = Award.objects.filter(tournament=tournament, player__number=NUMBERS[0]).aggregate(units=Sum("units"))
    return awards["units"]


def test_a_half_sanction_of_30_boards_pays_half_the_half_quota_403b2_405b7c_d_q64(world, personas, monkeypatch):
    full = winner_units(world, personas, monkeypatch, "full")
    half = winner_units(world, personas, monkeypatch, "half")
    base = scale(ScaleRequest(form="pairs", category="SP", participants=12, boards=42), rules_for(world.dbf, DAY))
    # 12 pairs, M = 1: the winner's 12.0 SP × ½ (27–41 boards) = 6.0 SP, × ½ again for the half sanction = 3.0 SP.
    assert (base.share_units(1, 1), full, half) == (120, 60, 30)
    assert page_shows(world, NUMBERS[0], "Klub half", "3.0 SP") and page_shows(world, NUMBERS[0], "Klub full", "6.0 SP")

"""A DBf BP team event uploaded with our CSV team template (§§ 405A, 406A, 411, 412)."""

from __future__ import annotations

from pathlib import Path

import pytest

from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create, results_upload_resolve

EXAMPLE = Path(__file__).resolve().parents[3] / "static" / "results-templates" / "teams-example.csv"


@pytest.fixture
def upload(world, personas):
    data = EXAMPLE.read_bytes().replace(b"club_id;1201", f"club_id;{world.club_a.number}".encode())
    for number in [f"200{i:02d}" for i in range(1, 40)]:
        Player.objects.create(federation=world.dbf, number=number, first_name="T", last_name=number)
    return results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="teams.csv",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None},
    )


def sp_match_units(world, personas, monkeypatch, quota: str) -> dict[tuple[str, str], int]:
    """The SP match awards of the example as a club's SP team tournament under a ``quota`` sanction."""
    from tournaments.sanctions import selectors as sanctions

    monkeypatch.setattr(sanctions, "event_sanction", lambda **_kwargs: sanctions.EventSanction(kind=quota))
    data = EXAMPLE.read_bytes().replace(b"club_id;1201", f"club_id;{world.club_a.number}".encode())
    created = results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename=f"teams-{quota}.csv",
        facts={"organiser_kind": "club", "category": "SP", "form": "", "boards": None},
    )
    preview = build_preview(created)
    assert preview.sanction == quota
    return {(line.key, award.part): award.units for line, award in preview.ledger_awards}


def total(number: str) -> int:
    return sum(Award.objects.filter(player__number=number).values_list("units", flat=True))


def test_team_players_get_match_points_by_vp_and_the_placing_bonus(world, personas, upload):
    """16-board matches pay 16·16/24 = 10.67 → 11 BP for a win (VP ≥ 14) and 6 for a draw (6.01–13.99),
    § 411B, § 412A, D-M2w/D-M2d. The bonus (§ 412B): K = 3, n1 = 16/24: 10·3·2/3 = 20 for 1st,
    20·2/3 = 13.3 → 14 for 2nd (p_max = ceil(4/3) = 2).
    Team 1 (all 48 boards): win, draw, win + 1st = 11 + 6 + 11 + 20 = 48 BP each.
    Søren (team 2, 48 boards): loss, win, draw + 2nd = 0 + 11 + 6 + 14 = 31 BP."""
    preview = build_preview(upload)
    assert "TEAM_SHARE_ESTIMATED" in {issue.code for issue in preview.issues}
    (guest,) = preview.unresolved  # team 4's "Guest Player" has no number
    results_upload_resolve(actor=personas.director_a, upload=upload, player_key=guest.key, resolution="guest")
    upload.refresh_from_db()
    errors = [(i.code, str(i.message)) for i in build_preview(upload).issues if i.severity == "error"]
    assert errors == []
    results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    assert [total(n) for n in ("20001", "20002", "20003", "20004")] == [48, 48, 48, 48]
    assert total("20011") == 31
    # Ida Krøyer played 16 of 48 boards: a third of each match, and too few boards for the bonus (§ 411D).
    assert not Award.objects.filter(player__number="20015", part__icontains="bonus").exists()
    assert total("20015") < 31


def test_a_half_sanction_halves_every_match_of_a_clubs_sp_team_tournament_403b2(world, personas, upload, monkeypatch):
    """A sanction "med halv MP-uddeling" (§ 403B2) holds for a team tournament too: n1 is halved in every
    match before the rounding up to 0.1 SP, as for pairs (D-Q2). (``upload`` registers the players.)"""
    full = sp_match_units(world, personas, monkeypatch, "full")
    half = sp_match_units(world, personas, monkeypatch, "half")
    assert full.keys() == half.keys() and max(full.values()) > 0
    assert all(half[key] == -(-full[key] // 2) for key in full)
    assert any(half[key] < full[key] for key in full)


def test_a_gp_team_upload_is_sent_to_the_office_entry_page_414_451a(world, personas, monkeypatch):
    """§ 414 GP team events pay by their own tables, which no results file carries: the preview's refusal says
    where the secretariat enters them (§ 451A second paragraph), so the director knows whom to ask."""
    from tournaments.sanctions import selectors as sanctions

    monkeypatch.setattr(sanctions, "event_sanction", lambda **_kwargs: sanctions.EventSanction(kind="GP"))
    data = EXAMPLE.read_bytes().replace(b"club_id;1201", f"club_id;{world.club_a.number}".encode())
    created = results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="teams-gp.csv",
        facts={"organiser_kind": "club", "category": "GP", "form": "", "boards": None},
    )
    messages = " ".join(str(issue.message) for issue in build_preview(created).issues)
    assert "§ 414" in messages and "/office/awards/new/" in messages

"""Issue 34, item 8, § 413B–F: the SP team events of the pyramid and the festival pay their own values and bonus,
through the real path (upload form fact and team CSV → preview → confirm → ledger → the player's public page).

§ 413C2 (SP i distrikternes oprykningsturneringer, én kvalifikationsrække): "Hver spiller på det vindende hold får
5 SP for hver vunden kamp"; "Hver bonusberettiget spiller på de to bedste hold får: Nr. 1: 15 SP. Nr. 2: 10 SP".
D-Q67: no file says which event it is, so the upload asks; a district's SP team event left unnamed is paid as
§ 413A with a warning, instead of in silence.
"""

from __future__ import annotations

import pytest
from django.db.models import Sum

from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.masterpoints.uploads.player_page import page_shows
from tests.masterpoints.uploads.team_files import register, round_robin, team_csv, team_numbers

TEAMS = [(1, team, team, 96) for team in (1, 2, 3, 4)]


def district_upload(world, personas, **facts):
    """Four teams of a district's SP tournament, 32-board matches, the lower number winning each (16-4)."""
    register(world, TEAMS)
    upload = results_upload_create(
        actor=personas.district_officer,
        federation=world.dbf,
        club=None,
        region=world.district,
        data=team_csv(world.club_a.number, TEAMS, round_robin([1, 2, 3, 4], 32)),
        filename="oprykning.csv",
        facts={"organiser_kind": "district", "category": "SP", "form": "", "boards": None, **facts},
    )
    preview = build_preview(upload)
    assert [(i.code, str(i.message)) for i in preview.issues if i.severity == "error"] == []
    tournament = results_upload_confirm(actor=personas.district_officer, upload=upload, acknowledge_warnings=True)
    totals = Award.objects.filter(tournament=tournament).values("player__number").annotate(units=Sum("units"))
    return preview, {item["player__number"]: item["units"] for item in totals}


def test_a_district_promotion_tournament_pays_its_values_and_bonus_413c(world, personas):
    """Winner: 3 × 5 SP + 15 SP bonus = 30.0 SP; second: 2 × 5 + 10 = 20.0 SP; third: 5.0 SP (before: § 413A,
    5 SP a won match and no bonus, 15.0 SP to the winner)."""
    preview, paid = district_upload(world, personas, team_table="sp_district_promotion")
    assert {paid[n] for n in team_numbers(1, 1)} == {300}
    assert {paid[n] for n in team_numbers(1, 2)} == {200}
    assert {paid[n] for n in team_numbers(1, 3)} == {50}
    (named,) = [issue for issue in preview.issues if issue.code == "TEAM_TABLE"]
    assert named.params["rule"].startswith("§ 413C")
    assert page_shows(world, team_numbers(1, 1)[0], "Holdturnering", "15.0 SP")


def test_a_district_sp_team_event_left_unnamed_is_paid_as_413a_with_a_warning_d_q67(world, personas):
    preview, paid = district_upload(world, personas)
    assert {paid[n] for n in team_numbers(1, 1)} == {150}
    (assumed,) = [issue for issue in preview.issues if issue.code == "TEAM_TABLE_ASSUMED"]
    assert assumed.severity == "warning"
    assert page_shows(world, team_numbers(1, 1)[0], "Holdturnering", "5.0 SP")


@pytest.mark.parametrize("category", ["BP", "GP"])
def test_the_upload_form_offers_the_413b_f_events_for_sp_only(world, category):
    form = world.dbf.scheme_info.upload_form(
        data={"organiser": "x", "category": category, "team_table": "sp_district_promotion"},
        organisers=[("x", "x")],
        scheme=world.dbf.scheme_info,
    )
    form.is_valid()
    assert "team_table" in form.errors

"""A mini-team event with byes through the real upload (§ 421B, D-Q23): our CSV team template with its
matches table (an empty opponent is a bye), uploaded as ``minihold``, confirmed into the ledger, and read
back from the standings and the player's page.

Five teams play four rounds of 6 boards (§ 421A: more than two matches a session, 2-11 boards each); teams
2-5 sit out once each, team 1 never. The file ranks on the VP played (1: 44, 2: 36, 3: 35, 4: 27, 5: 18);
with 13 VP for each bye (§ 421B "fx 13 KP ved 20/0-skalaen") team 2 (49) and team 3 (48) take the two paid
places of § 406B and team 1 (44) none.

D-Q23 (revised, issue 34 item 5): § 421B's substitute score "kan" (may) be given: only when the upload states
the organiser's bye score is the row re-ranked, and the preview names every place that changes; without one
the file's places stand.
"""

from __future__ import annotations

import datetime

from django.urls import reverse

from federation.rulesets import rules_for
from masterpoints.engine.dbf.scale import ScaleRequest, scale
from masterpoints.models import Award, Standing
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_players
from tests.masterpoints.engine.test_dbf_minihold import SCHEDULE

DAY = datetime.date(2025, 3, 12)
PLAYED = {"1": 44, "2": 36, "3": 35, "4": 27, "5": 18}


def numbers(team: str) -> list[str]:
    return [f"6{team}01", f"6{team}02", f"6{team}03", f"6{team}04"]


def csv_file(club_number: str) -> bytes:
    lines = [
        f"event_date;{DAY.isoformat()}",
        "event_name;Minihold onsdag",
        "event_type;teams",
        f"club_id;{club_number}",
        "event_id;MINI-2025-03",
        "scoring;VP",
        "boards_played;24",
        "#",
        "team_no;place;score;boards_played;"
        + ";".join(f"player_{n}_id;player_{n}_name;player_{n}_boards" for n in range(1, 5)),
    ]
    for place, team in enumerate(PLAYED, start=1):
        boards = 24 if team == "1" else 18
        players = ";".join(f"{number};Spiller {number};{boards}" for number in numbers(team))
        lines.append(f"{team};{place};{PLAYED[team]};{boards};{players}")
    lines += ["#", "round;team_no;opponent_no;vp;opponent_vp;boards"]
    for number, team, opponent, vp, other in SCHEDULE:
        lines.append(f"{number};{team};{opponent or ''};{vp or ''};{other or ''};6")
    return ("\n".join(lines) + "\n").encode()


def upload(world, personas, bye_vp: str = "13"):
    make_players(world.dbf, [n for team in PLAYED for n in numbers(team)])
    return results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=csv_file(world.club_a.number),
        filename="minihold.csv",
        facts={"organiser_kind": "club", "category": "BP", "form": "minihold", "boards": None, "bye_vp": bye_vp},
    )


def test_a_mini_team_upload_with_byes_is_paid_on_the_placing_with_13_vp_a_bye_421b_d_q23(
    world, personas, client, django_capture_on_commit_callbacks
):
    created = upload(world, personas)
    preview = build_preview(created)
    assert [(i.code, str(i.message)) for i in preview.issues if i.severity == "error"] == []
    changed = {
        i.params["entry"]: (i.params["file_place"], i.params["place"])
        for i in preview.issues
        if i.code == "MINIHOLD_BYE_PLACE_CHANGED"
    }
    assert changed == {"1": ("1", 3), "2": ("2", 1), "3": ("3", 2)}
    with django_capture_on_commit_callbacks(execute=True):
        results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    paid = scale(ScaleRequest(form="minihold", category="BP", participants=5, boards=24), rules_for(world.dbf, DAY))
    ledger = dict(Award.objects.filter(federation=world.dbf).values_list("player__number", "units"))
    assert {n: ledger[n] for n in numbers("2")} == dict.fromkeys(numbers("2"), paid.share_units(1, 1))
    assert {n: ledger[n] for n in numbers("3")} == dict.fromkeys(numbers("3"), paid.share_units(2, 2))
    assert not set(numbers("1")) & set(ledger)  # first on the played VP alone, third with the byes
    award = Award.objects.get(player__number=numbers("2")[0])
    assert {"§ 421B", "D-Q23"} <= set(award.explanation_data["rules"])
    # Standings and the player's page follow the ledger.
    assert Standing.objects.get(player__number=numbers("2")[0]).points("BP") == paid.share_units(1, 1)
    page = client.get(reverse("public:player", args=[world.dbf.code, numbers("2")[0]]))
    assert page.status_code == 200 and "§ 421B" in page.content.decode()


def test_without_the_organisers_bye_score_the_files_places_stand_421b_d_q23(world, personas):
    """§ 421B "kan der … gives en erstatningsscore": no bye score stated, no re-ranking. Team 1, first in the
    file, is paid as the winner; the preview says the byes were left as the file ranks them."""
    created = upload(world, personas, bye_vp="")
    preview = build_preview(created)
    codes = [i.code for i in preview.issues]
    assert "MINIHOLD_BYES_FILE_PLACES" in codes and "MINIHOLD_BYE_PLACE_CHANGED" not in codes
    results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    paid = scale(ScaleRequest(form="minihold", category="BP", participants=5, boards=24), rules_for(world.dbf, DAY))
    ledger = dict(Award.objects.filter(federation=world.dbf).values_list("player__number", "units"))
    assert {n: ledger[n] for n in numbers("1")} == dict.fromkeys(numbers("1"), paid.share_units(1, 1))
    assert not set(numbers("3")) & {n for n, units in ledger.items() if units}
    assert "D-Q23" not in Award.objects.get(player__number=numbers("1")[0]).explanation_data["rules"]


def test_the_upload_form_stores_the_organisers_bye_score_as_a_fact_d_q23(world):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = {"organiser": f"club:{world.club_a.pk}", "category": "BP", "bye_vp": "13.5"}
    files = {"file": SimpleUploadedFile("m.csv", b"x")}
    form = world.dbf.scheme_info.upload_form(
        data, files, organisers=[(data["organiser"], "A")], scheme=world.dbf.scheme_info
    )
    assert form.is_valid(), form.errors
    assert form.facts(organiser_kind="club")["bye_vp"] == "13.5"

"""Issue 34, item 8: which result a handicap event's points follow, through the real path (USEBIO or CSV →
preview → confirm → ledger → the player's public page).

* § 405B6f "I en handicapturnering uddeles BP efter det nominelle resultat uden medregning af
  handicapændringen": BP by the places from the scores, now for the CSV template too (its ``handicap`` column;
  before, the column was unknown and the file's handicap places were paid).
* D-Q17: SP and GP by the result the rule set names, by default the handicap result, which is the file's own
  places (before, the USEBIO importer re-ranked every handicap event on the scratch scores and SP followed).

Twelve pairs; the file ranks pair 1 first on handicap, while pair 2 has the best scratch score.
"""

from __future__ import annotations

import datetime

from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_player

DAY = datetime.date(2025, 3, 14)
NUMBERS = [str(47001 + i) for i in range(24)]
#: Scratch percentages by file place: pair 2 (second on handicap) has the best nominal result.
SCRATCH = [60, 65, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40]


def usebio_handicap(boards: int) -> bytes:
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<USEBIO Version="1.2">',
        "<CLUB><CLUB_NAME>Distrikt</CLUB_NAME><CLUB_ID_NUMBER>1001</CLUB_ID_NUMBER></CLUB>",
        '<EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>Handicap SP</EVENT_DESCRIPTION>',
        f"<PROGRAM_NAME>synthetic</PROGRAM_NAME><DATE>{DAY:%d/%m/%Y}</DATE><BOARDS_PLAYED>{boards}</BOARDS_PLAYED>",
        "<PARTICIPANTS>",
    ]
    for index, scratch in enumerate(SCRATCH):
        out.append(
            f"<PAIR><PAIR_NUMBER>{index + 1}</PAIR_NUMBER><PLACE>{index + 1}</PLACE>"
            f"<PERCENTAGE>{scratch}.0</PERCENTAGE><HANDICAP>{'+5.0' if index == 0 else '-1.0'}</HANDICAP>"
            f"<BOARDS_PLAYED>{boards}</BOARDS_PLAYED>"
        )
        for number in NUMBERS[2 * index : 2 * index + 2]:
            ident = f"<NATIONAL_ID_NUMBER>{number}</NATIONAL_ID_NUMBER>"
            out.append(f"<PLAYER><PLAYER_NAME>P {number}</PLAYER_NAME>{ident}</PLAYER>")
        out.append("</PAIR>")
    out += ["</PARTICIPANTS>", "</EVENT>", "</USEBIO>"]
    return "\n".join(out).encode()


def csv_handicap(club: str, boards: int) -> bytes:
    lines = [f"event_date;{DAY.isoformat()}", "event_name;Handicap BP", f"club_id;{club}", "event_type;pairs"]
    lines += [
        f"boards_played;{boards}",
        "#",
        "entry_no;place;percentage;handicap;player_1_id;player_1_name;player_2_id;player_2_name",
    ]
    for index, scratch in enumerate(SCRATCH):
        a, b = NUMBERS[2 * index : 2 * index + 2]
        lines.append(f"{index + 1};{index + 1};{scratch};{'5' if index == 0 else '-1'};{a};P {a};{b};P {b}")
    return ("\n".join(lines) + "\n").encode()


def confirmed(world, actor, data, filename, **facts):
    for number in NUMBERS:
        make_player(world.dbf, number, first="P", last=number, club=world.club_a)
    upload = results_upload_create(actor=actor, data=data, filename=filename, federation=world.dbf, **facts)
    preview = build_preview(upload)
    assert [(i.code, str(i.message)) for i in preview.issues if i.severity == "error"] == []
    tournament = results_upload_confirm(actor=actor, upload=upload, acknowledge_warnings=True)
    totals = Award.objects.filter(tournament=tournament).values("player__number").annotate(units=Sum("units"))
    return preview, {item["player__number"]: item["units"] for item in totals}


def player_page(world, number: str) -> str:
    return Client().get(reverse("public:player", args=[world.dbf.code, number])).content.decode()


def test_an_sp_handicap_event_pays_the_file_handicap_places_not_the_scratch_ranking_d_q17(world, personas):
    preview, paid = confirmed(
        world,
        personas.district_officer,
        usebio_handicap(42),
        "handicap.xml",
        club=None,
        region=world.district,
        facts={"organiser_kind": "district", "category": "SP", "form": "", "boards": None},
    )
    first, second = NUMBERS[0], NUMBERS[2]  # pair 1 (first on handicap), pair 2 (first on scratch)
    assert paid[first] > paid[second] > 0
    (basis,) = [issue for issue in preview.issues if issue.code == "HANDICAP_RESULT"]
    assert basis.params == {"category": "SP", "changed": 2}
    assert "Handicap SP" in player_page(world, first)
    assert f"{paid[first] / 10:.1f} SP" in player_page(world, first)


def test_a_bp_handicap_event_from_the_csv_template_pays_the_nominal_result_405b6f(world, personas):
    preview, paid = confirmed(
        world,
        personas.director_a,
        csv_handicap(world.club_a.number, 24),
        "handicap.csv",
        club=world.club_a,
        region=None,
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None},
    )
    first, second = NUMBERS[0], NUMBERS[2]
    assert paid[second] > paid[first] > 0  # pair 2 wins on the nominal result
    assert "CSV_COLUMN_UNKNOWN" not in {issue.code for issue in preview.issues}
    (basis,) = [issue for issue in preview.issues if issue.code == "HANDICAP_NOMINAL"]
    assert basis.params == {"category": "BP", "rule": "§ 405B6f"}
    page = player_page(world, second)
    assert "Handicap BP" in page and f"{paid[second]} BP" in page

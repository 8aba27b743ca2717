"""Issue 34, item 6: a substitute is paid SP/GP only *instead of* the player replaced (§ 405B7b, D-Q62), through
the real path (CSV → preview → confirm → ledger).

§ 405B7b: "Kan spilleren således ikke få SP eller GP, uddeles disse i stedet dennes substitut, hvis vedkommende
har spillet mindst halvdelen af spillene." 60 boards: player 1 played all, player 2 exactly half, a substitute
the other half. Player 2 qualifies, so the substitute gets nothing (before: all three were paid).
"""

from __future__ import annotations

import datetime

from django.db.models import Sum

from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_player
from tests.masterpoints.uploads.player_page import page_shows

DAY = datetime.date(2025, 3, 14)
NUMBERS = [str(43001 + i) for i in range(25)]  # 12 pairs and a substitute


def csv_file(rows: list[str]) -> bytes:
    head = "entry_no;place;percentage;boards_played;" + ";".join(
        f"player_{n}_id;player_{n}_name;player_{n}_boards" for n in (1, 2, 3)
    )
    lines = [f"event_date;{DAY.isoformat()}", "event_name;Distrikt", "event_type;pairs", "boards_played;60", "#"]
    return ("\n".join([*lines, head, *rows]) + "\n").encode()


def row(entry: int, players: list[tuple[str, int]]) -> str:
    cells = [f"{n};P {n};{boards}" for n, boards in players] + [";;"] * (3 - len(players))
    return f"{entry};{entry};{70 - entry};60;" + ";".join(cells)


def confirmed(world, personas, rows):
    for number in NUMBERS:
        make_player(world.dbf, number, first="P", last=number, club=world.club_a)
    upload = results_upload_create(
        actor=personas.district_officer,
        federation=world.dbf,
        club=None,
        region=world.district,
        data=csv_file(rows),
        filename="distrikt.csv",
        facts={"organiser_kind": "district", "category": "SP", "form": "", "boards": None},
    )
    preview = build_preview(upload)
    assert [(i.code, str(i.message)) for i in preview.issues if i.severity == "error"] == []
    tournament = results_upload_confirm(actor=personas.district_officer, upload=upload, acknowledge_warnings=True)
    totals = Award.objects.filter(tournament=tournament).values("player__number").annotate(units=Sum("units"))
    return preview, {item["player__number"]: item["units"] for item in totals}


def rows_with(first: list[tuple[str, int]]) -> list[str]:
    others = [row(k + 2, [(NUMBERS[2 * k + 2], 60), (NUMBERS[2 * k + 3], 60)]) for k in range(11)]
    return [row(1, first), *others]


def test_the_substitute_of_a_player_who_played_exactly_half_gets_nothing_405b7b_d_q62(world, personas):
    a, b, substitute = NUMBERS[0], NUMBERS[1], NUMBERS[24]
    preview, paid = confirmed(world, personas, rows_with([(a, 60), (b, 30), (substitute, 30)]))
    assert paid[a] == paid[b] > 0
    assert paid.get(substitute, 0) == 0
    (assumed,) = [issue for issue in preview.issues if issue.code == "SUBSTITUTE_ASSUMED"]
    assert (assumed.params["substitute"], assumed.params["player"]) == (f"P {substitute}", f"P {b}")
    assert page_shows(world, b, "Distrikt", f"{paid[b] / 10:.1f} SP")


def test_the_substitute_of_a_player_who_played_less_than_half_is_paid_instead_405b7b(world, personas):
    a, b, substitute = NUMBERS[0], NUMBERS[1], NUMBERS[24]
    _preview, paid = confirmed(world, personas, rows_with([(a, 60), (b, 20), (substitute, 40)]))
    assert paid[a] == paid[substitute] > 0
    assert paid.get(b, 0) == 0
    assert page_shows(world, substitute, "Distrikt", f"{paid[substitute] / 10:.1f} SP")

"""Issue 34, item 6: where the file cannot say who replaced whom, the preview asks the director, and the confirm
pays what the preview showed with the answer (§ 405B7b), through the real path: file → preview page → answer →
confirm → ledger → the player's page.

§ 405B7b: "Kan spilleren således ikke få SP eller GP, uddeles disse i stedet dennes substitut, hvis vedkommende
har spillet mindst halvdelen af spillene." 60 boards: A played 25, B 45, the substitute 50 (35 for one seat,
15 for the other). D-Q62 assumes the substitute replaced A (fewest boards): A has less than half, so the
substitute is paid instead of A. The director knows the substitute replaced B: B played at least half, so the
substitute gets nothing, nor does A (less than half); only B is paid.
"""

from __future__ import annotations

import datetime

from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_create
from tests.factories import make_player
from tests.masterpoints.uploads.player_page import page_shows
from tournaments.models import ResultUpload

DAY = datetime.date(2025, 3, 14)
NUMBERS = [str(44001 + i) for i in range(25)]  # 12 pairs and a substitute
A, B, SUBSTITUTE = NUMBERS[0], NUMBERS[1], NUMBERS[24]


def csv_file() -> bytes:
    head = "entry_no;place;percentage;boards_played;" + ";".join(
        f"player_{n}_id;player_{n}_name;player_{n}_boards" for n in (1, 2, 3)
    )
    lines = [f"event_date;{DAY.isoformat()}", "event_name;Distrikt", "event_type;pairs", "boards_played;60", "#"]

    def row(entry: int, players: list[tuple[str, int]]) -> str:
        cells = [f"{n};P {n};{boards}" for n, boards in players] + [";;"] * (3 - len(players))
        return f"{entry};{entry};{70 - entry};60;" + ";".join(cells)

    rows = [row(1, [(A, 25), (B, 45), (SUBSTITUTE, 50)])]
    rows += [row(k + 2, [(NUMBERS[2 * k + 2], 60), (NUMBERS[2 * k + 3], 60)]) for k in range(11)]
    return ("\n".join([*lines, head, *rows]) + "\n").encode()


def uploaded(world, personas) -> tuple[ResultUpload, Client]:
    for number in NUMBERS:
        make_player(world.dbf, number, first="P", last=number, club=world.club_a)
    upload = results_upload_create(
        actor=personas.district_officer,
        federation=world.dbf,
        club=None,
        region=world.district,
        data=csv_file(),
        filename="distrikt.csv",
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


def codes(stored: dict) -> set[str]:
    return {item["code"] for item in stored["issue_counts"]}


def test_the_preview_asks_whom_the_substitute_replaced_and_the_confirm_pays_the_answer_405b7b(world, personas):
    upload, client = uploaded(world, personas)
    page, stored = preview_page(client, upload)
    (question,) = stored["substitutes"]
    a_key, b_key = (player["key"] for player in question["seated"])
    assert question["answer"] == a_key and not question["answered"]  # D-Q62's assumption, shown and asked
    assert "SUBSTITUTE_ASSUMED" in codes(stored) and 'name="substitute-0"' in page
    assert _paid_of_pair(world, stored) == {B, SUBSTITUTE}  # the substitute instead of A

    answered = client.post(reverse("uploads:substitutes", args=[upload.pk]), {"substitute-0": b_key})
    assert answered.status_code == 302
    upload.refresh_from_db()
    assert upload.facts["substitutes"] == {question["key"]: b_key}
    page, stored = preview_page(client, upload)
    assert "SUBSTITUTE_ANSWERED" in codes(stored) and "SUBSTITUTE_ASSUMED" not in codes(stored)
    assert stored["substitutes"][0]["answer"] == b_key and stored["substitutes"][0]["answered"]
    (paid_b,) = _players(world, B)
    assert _paid_of_pair(world, stored) == {B}  # B only: A has less than half, the substitute replaced B

    confirm = {"payable": stored["payable_digest"], "acknowledge_warnings": "on", "replaces": ""}
    assert client.post(reverse("uploads:confirm", args=[upload.pk]), confirm).status_code == 302
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.CONFIRMED
    totals = Award.objects.filter(tournament__upload=upload).values("player__number").annotate(units=Sum("units"))
    ledger = {item["player__number"]: item["units"] for item in totals}
    assert {A, B, SUBSTITUTE} & set(ledger) == {B} and ledger[B] == stored["payable"][str(paid_b.pk)]["SP"] > 0
    assert page_shows(world, B, "Distrikt", f"{ledger[B] / 10:.1f} SP")
    assert not page_shows(world, SUBSTITUTE, "Distrikt", f"{ledger[B] / 10:.1f} SP")


def test_none_pays_the_substitute_nothing_405b7b(world, personas):
    upload, client = uploaded(world, personas)
    _page, stored = preview_page(client, upload)
    client.post(reverse("uploads:substitutes", args=[upload.pk]), {"substitute-0": "none"})
    _page, stored = preview_page(client, upload)
    assert "SUBSTITUTE_NONE" in codes(stored)
    assert _paid_of_pair(world, stored) == {B}


def test_a_player_of_another_entry_is_a_form_error_naming_405b7b_and_nothing_is_stored(world, personas):
    upload, client = uploaded(world, personas)
    _page, stored = preview_page(client, upload)
    wrong = build_preview(upload).groups[0].entries[1].players[0].key  # a player of the second pair
    assert wrong not in {player["key"] for player in stored["substitutes"][0]["seated"]}
    response = client.post(reverse("uploads:substitutes", args=[upload.pk]), {"substitute-0": wrong})
    assert response.status_code == 400
    text = response.content.decode()
    assert "§ 405B7b" in text and 'role="alert"' in text
    upload.refresh_from_db()
    assert "substitutes" not in upload.facts


def _players(world, *numbers):
    return list(Player.objects.filter(federation=world.dbf, number__in=numbers))


def _paid_of_pair(world, stored: dict) -> set[str]:
    """The members of the first pair (A, B and the substitute) the preview pays."""
    return {p.number for p in _players(world, A, B, SUBSTITUTE) if str(p.pk) in stored["payable"]}

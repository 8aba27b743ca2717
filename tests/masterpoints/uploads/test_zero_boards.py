"""Issue 34, item 3: a recorded 0 boards is a fact (DBf § 405B1: "Dog tæller en fraværende deltager ikke med";
§ 405B6b: "Det er substitutten og ikke den fraværende spiller, der er berettiget"). An entry with 0 boards is
absent: it does not count in N and gets nothing; a player with 0 boards gets nothing while the partner is paid;
the preview names each (ZERO_BOARDS). Through the real path: CSV file → preview → confirm → ledger."""

from __future__ import annotations

import datetime

import pytest
from django.db.models import Sum

from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm
from tests.factories import make_player, make_upload
from tests.masterpoints.uploads.player_page import page_shows

DAY = datetime.date(2025, 3, 14)
HEAD = ";".join(
    [
        "session",
        "section",
        "direction",
        "entry_no",
        "place",
        "score",
        "percentage",
        "boards_played",
        "player_1_id",
        "player_1_name",
        "player_1_boards",
        "player_2_id",
        "player_2_name",
        "player_2_boards",
    ]
)


def csv_file(rows: list[str]) -> bytes:
    lines = [
        f"event_date;{DAY.isoformat()}",
        "event_name;Fredag",
        "event_type;pairs",
        "club_id;1001",
        "scoring;MP",
        "boards_played;24",
        "#",
        HEAD,
        *rows,
    ]
    return ("\n".join(lines) + "\n").encode()


def row(entry: int, place: int, numbers: tuple[str, str], *, boards="24", first="", second="") -> str:
    pct = f"{70 - place:.2f}".replace(".", ",")
    players = f"{numbers[0]};P {numbers[0]};{first};{numbers[1]};P {numbers[1]};{second}"
    return f"1;A;NS;{entry};{place};{100 - place};{pct};{boards};{players}"


@pytest.fixture
def members(world):
    return [make_player(world.dbf, str(n), first="P", last=str(n), club=world.club_a) for n in range(40001, 40025)]


def pairs(count: int) -> list[tuple[str, str]]:
    return [(str(40001 + 2 * i), str(40002 + 2 * i)) for i in range(count)]


def confirmed_units(world, personas, rows) -> tuple[dict[str, int], list]:
    data = csv_file(rows)
    upload = make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP", filename="f.csv")
    preview = build_preview(upload)
    issues = [issue for issue in preview.issues if issue.code == "ZERO_BOARDS"]
    tournament = results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    totals = Award.objects.filter(tournament=tournament).values("player__number").annotate(units=Sum("units"))
    return {item["player__number"]: item["units"] for item in totals}, issues


def test_an_entry_with_0_boards_is_absent_not_counted_in_n_and_unpaid_405b1(world, personas, members):
    eleven = [row(i + 1, i + 1, numbers) for i, numbers in enumerate(pairs(11))]
    paid_eleven, _issues = confirmed_units(world, personas, eleven)
    absent = pairs(12)[11]
    paid_twelve, issues = confirmed_units(world, personas, [*eleven, row(12, 12, absent, boards="0")])
    assert paid_twelve == paid_eleven, "the absent pair does not enlarge N (winner as in a field of 11)"
    assert absent[0] not in paid_twelve and absent[1] not in paid_twelve
    assert [issue.params["who"] for issue in issues] == [f"P {absent[0]} & P {absent[1]}"]
    winner = pairs(12)[0][0]
    assert page_shows(world, winner, "Fredag", f"{paid_twelve[winner]} BP"), "as in a field of 11, on the page too"


def test_a_player_with_0_boards_gets_nothing_and_the_partner_is_paid_405b6b(world, personas, members):
    rows = [row(i + 1, i + 1, numbers) for i, numbers in enumerate(pairs(12))]
    winners = pairs(12)[0]
    rows[0] = row(1, 1, winners, second="0")
    paid, issues = confirmed_units(world, personas, rows)
    assert paid.get(winners[0], 0) > 0 and winners[1] not in paid
    assert [issue.params["who"] for issue in issues] == [f"P {winners[1]}"]
    assert page_shows(world, winners[0], "Fredag", f"{paid[winners[0]]} BP"), "the partner's page shows the award"
    assert not page_shows(world, winners[1], "Fredag", f"{paid[winners[0]]} BP")

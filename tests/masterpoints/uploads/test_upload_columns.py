"""Issue 33, item 7: a file whose values the preview passed cleanly overflowed the columns at confirm (a 500 and,
on PostgreSQL, a refused transaction). The preview now refuses each value a confirm writes that does not fit its
column, naming the place in the file, the value and the bound, so the confirm is refused and writes nothing."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from tests.factories import make_players
from tournaments.models import Entry, Participation, ResultUpload, Tournament

DAY = datetime.date(2025, 3, 4)
NUMBERS = [str(91001 + i) for i in range(12)]


def csv_file(*, number: str = "1", score: str = "130", percentage: str = "61.5") -> bytes:
    """Our CSV pairs template, six pairs; the first pair's entry number, score and percentage as given."""
    rows = [
        f"event_date;{DAY.isoformat()}",
        "event_name;Tirsdag",
        "event_type;pairs",
        "club_id;1001",
        "scoring;MP",
        "boards_played;24",
        "entry_no;place;score;percentage;player_1_id;player_1_name;player_2_id;player_2_name",
        f"{number};1;{score};{percentage};{NUMBERS[0]};A {NUMBERS[0]};{NUMBERS[1]};B {NUMBERS[1]}",
    ]
    for index in range(1, 6):
        a, b = NUMBERS[2 * index], NUMBERS[2 * index + 1]
        rows.append(f"{index + 1};{index + 1};{120 - index};{55 - index};{a};A {a};{b};B {b}")
    return ("\n".join(rows) + "\n").encode()


@pytest.fixture
def director(client, personas, world):
    make_players(world.dbf, NUMBERS)
    client.force_login(personas.director_a)
    return personas.director_a


def upload_and_confirm(client, world, data: bytes):
    """Upload through the page, read the preview page, press confirm: the path a director takes."""
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_a.pk}",
            "category": "BP",
            "file": SimpleUploadedFile("tirsdag.csv", data, content_type="text/csv"),
        },
    )
    assert response.status_code == 302
    page = client.get(response.url)
    assert page.status_code == 200
    upload = ResultUpload.objects.get()
    confirm = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert confirm.status_code == 302
    upload.refresh_from_db()
    return upload, page.content.decode()


def nothing_written() -> bool:
    return not (
        Tournament.objects.exists()
        or Entry.objects.exists()
        or Participation.objects.exists()
        or Award.objects.exists()
    )


CASES = {
    "a percentage of 10,000": (
        {"percentage": "10000"},
        "NUMBER_OUT_OF_RANGE",
        {"field": "percentage", "value": "10000", "minimum": "-9999.999", "limit": "9999.999"},
    ),
    "a score of 99,999,999.99999": (
        {"score": "99999999.99999"},
        "NUMBER_OUT_OF_RANGE",
        {"field": "score", "value": "99999999.99999", "minimum": "-99999999.9999", "limit": "99999999.9999"},
    ),
    "a 40-character entry number": (
        {"number": "7" * 40},
        "VALUE_TOO_LONG",
        {"field": "number", "value": "7" * 40, "length": 40, "limit": 30},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_value_too_large_for_its_column_is_refused_in_the_preview_naming_the_line_and_the_bound(
    client, world, director, case
):
    changes, code, params = CASES[case]
    upload, page = upload_and_confirm(client, world, csv_file(**changes))
    assert upload.status == ResultUpload.Status.PENDING
    assert nothing_written()
    assert code in page
    assert "must be corrected before the results can be confirmed" in page
    (issue,) = [issue for issue in build_preview(upload).issues if issue.code == code]
    assert issue.where.line == 8
    assert {key: str(value) for key, value in issue.params.items()} == {k: str(v) for k, v in params.items()}
    assert f"at most {params['limit']}" in str(issue.message) or f"to {params['limit']}" in str(issue.message)


def test_a_score_with_more_decimals_than_kept_but_inside_the_column_is_accepted(client, world, director):
    """The column keeps four decimals: 99,999,999.99994 rounds to 99,999,999.9999 and fits; only a value that
    rounds past the column's digits is refused."""
    upload, page = upload_and_confirm(client, world, csv_file(score="99999999.99994"))
    assert "NUMBER_OUT_OF_RANGE" not in page
    assert upload.status == ResultUpload.Status.CONFIRMED
    assert Entry.objects.get(number="1").score == Decimal("99999999.9999")

"""The preview of a large file: refused past the office's limits, served from a stored summary, paged.

design.md § Invariants: every number that enters from outside is bounded where it enters, and bad input
gets a clear message and changes nothing. A preview page stays small whatever the file holds.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import AuditEvent
from masterpoints.models import Award
from masterpoints.uploads import scoring, services
from masterpoints.uploads.bounds import MAX_ENTRIES_PER_EVENT, MAX_PLAYERS_PER_ENTRY
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.summary import MAX_AGE
from masterpoints.uploads.views import ENTRIES_PER_PAGE, PLAYERS_PER_PAGE
from tests.factories import SyntheticPair, make_players, make_upload, pairs_from_numbers, usebio_pairs
from tournaments.models import Entry, Participation, ResultUpload, Tournament

DAY = datetime.date(2025, 3, 4)
PAGE_BYTES = 500 * 1024


def csv_pairs(count: int, *, club: str = "1001", first_number: int = 100001) -> bytes:
    """Our CSV template with ``count`` pairs, places 1 … count and falling percentages (no ties)."""
    rows = [
        f"event_date;{DAY.isoformat()}",
        "event_name;Big pairs",
        "event_type;pairs",
        f"club_id;{club}",
        "scoring;MP",
        "boards_played;24",
        "winners;1",
        "entry_no;place;percentage;player_1_id;player_1_name;player_2_id;player_2_name",
    ]
    for index in range(count):
        a, b = first_number + 2 * index, first_number + 2 * index + 1
        rows.append(f"{index + 1};{index + 1};{70 - index * 35 / count:.4f};{a};Player {a};{b};Player {b}")
    return ("\n".join(rows) + "\n").encode()


def pairs_file(pairs, *, club: str = "1001") -> bytes:
    return usebio_pairs(club_number=club, date=DAY, name="Big pairs", sections=[pairs], boards=24)


def nothing_written() -> bool:
    return not (
        Tournament.objects.exists()
        or Entry.objects.exists()
        or Participation.objects.exists()
        or Award.objects.exists()
    )


def result_rows(body: str) -> int:
    return body.count('<tr class="entry">')


@pytest.fixture
def director(client, personas):
    client.force_login(personas.director_a)
    return personas.director_a


@pytest.fixture
def builds(monkeypatch):
    """How often the page built the preview (the stored summary saves the others)."""
    calls = []
    real = services.build_preview

    def counting(upload, **kwargs):
        calls.append(upload.pk)
        return real(upload, **kwargs)

    monkeypatch.setattr(services, "build_preview", counting)
    return calls


def preview_url(upload, **query) -> str:
    url = reverse("uploads:preview", args=[upload.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_20000_pairs_are_refused_at_the_entry_limit_naming_it_and_nothing_is_written(
    client, world, director, monkeypatch
):
    def never(preview):
        raise AssertionError("a file past the limits is refused before scoring")

    monkeypatch.setattr(scoring, "compute", never)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_a.pk}",
            "category": "BP",
            "file": SimpleUploadedFile("big.csv", csv_pairs(20000), content_type="text/csv"),
        },
    )
    assert response.status_code == 302
    upload = ResultUpload.objects.get()
    page = client.get(response.url)
    body = page.content.decode()
    assert page.status_code == 200
    assert "ENTRIES_TOO_MANY" in body
    assert f"The file has 20000 entries; at most {MAX_ENTRIES_PER_EVENT} entries are accepted" in body
    assert "must be corrected before the results can be confirmed" in body
    assert len(page.content) < PAGE_BYTES
    preview = build_preview(upload)
    (refusal,) = [issue for issue in preview.issues if issue.code == "ENTRIES_TOO_MANY"]
    assert refusal.params == {"count": 20000, "limit": 2000}
    assert preview.has_errors and preview.groups == []
    assert not {"PLAYER_UNKNOWN", "PLAYER_UNIDENTIFIED"} & {issue.code for issue in preview.issues}
    confirm = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert confirm.status_code == 302
    assert nothing_written()
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.PENDING


def test_an_entry_with_more_players_than_a_team_has_is_refused_naming_the_limit(world, personas, monkeypatch):
    monkeypatch.setattr(scoring, "compute", lambda preview: pytest.fail("refused before scoring"))
    crowd = tuple((f"P{n}", str(80001 + n)) for n in range(MAX_PLAYERS_PER_ENTRY + 1))
    pairs = [SyntheticPair("1", crowd, "60.00"), *pairs_from_numbers([str(81001 + i) for i in range(10)], seed=3)[1:]]
    created = make_upload(world.dbf, world.club_a, pairs_file(pairs), actor=personas.director_a, category="BP")
    preview = build_preview(created)
    (refusal,) = [issue for issue in preview.issues if issue.code == "PLAYERS_TOO_MANY"]
    assert refusal.params == {"entry": "1", "count": 9, "limit": 8}
    assert "at most 8 players are accepted in one entry" in str(refusal.message)
    assert preview.groups == []


@pytest.fixture
def big_upload(world, director):
    """1,500 pairs, every player on the register."""
    numbers = [str(300001 + i) for i in range(3000)]
    make_players(world.dbf, numbers)
    data = pairs_file(pairs_from_numbers(numbers, seed=11))
    return make_upload(world.dbf, world.club_a, data, actor=director, category="BP"), numbers


def test_1500_pairs_preview_one_bounded_page_at_a_time(client, big_upload):
    upload, numbers = big_upload
    first = client.get(preview_url(upload))
    body = first.content.decode()
    assert first.status_code == 200
    assert len(first.content) < PAGE_BYTES
    assert result_rows(body) == ENTRIES_PER_PAGE
    assert "entries 1–100 of 1500" in body
    assert f"({numbers[0]})" in body and f"({numbers[200]})" not in body
    # The summary counts the whole file, not the page.
    assert "1500 entries" in body and "3000 players" in body
    second = client.get(preview_url(upload, page=2)).content.decode()
    assert result_rows(second) == ENTRIES_PER_PAGE
    assert "entries 101–200 of 1500" in second
    assert f"({numbers[200]})" in second and f"({numbers[0]})" not in second


@pytest.mark.parametrize(
    ("query", "status", "shown"),
    [
        ({"page": "1" + "0" * 30}, 200, "entries 1401–1500 of 1500"),
        ({"page": "16"}, 200, "entries 1401–1500 of 1500"),
        ({"page": "0"}, 200, "entries 1–100 of 1500"),
        ({"page": "abc"}, 404, None),
        ({"page": "-1"}, 404, None),
        ({"page": "²"}, 404, None),
        ({"players": "abc"}, 404, None),
        ({"players": "9" * 40}, 200, "entries 1–100 of 1500"),
    ],
)
def test_a_bad_page_number_is_the_last_page_or_404_never_an_error(client, big_upload, query, status, shown):
    upload, _numbers = big_upload
    response = client.get(reverse("uploads:preview", args=[upload.pk]), query)
    assert response.status_code == status
    if shown:
        assert shown in response.content.decode()


def test_a_second_visit_is_served_from_the_stored_summary(client, world, director, builds):
    numbers = [str(90001 + i) for i in range(24)]
    make_players(world.dbf, numbers)
    created = make_upload(
        world.dbf, world.club_a, pairs_file(pairs_from_numbers(numbers)), actor=director, category="BP"
    )
    assert client.get(preview_url(created)).status_code == 200
    assert client.get(preview_url(created)).status_code == 200
    assert client.get(preview_url(created, page=1)).status_code == 200
    assert builds == [created.pk]
    created.refresh_from_db()
    assert created.preview_summary["counts"]["entries"] == 12
    assert len(created.preview_fingerprint) == 64


def test_a_resolution_the_register_or_time_rebuild_the_stored_summary(client, world, director, builds):
    numbers = [str(91001 + i) for i in range(24)]
    make_players(world.dbf, numbers[:-1])  # the last player is not on the register
    created = make_upload(
        world.dbf, world.club_a, pairs_file(pairs_from_numbers(numbers)), actor=director, category="BP"
    )
    body = client.get(preview_url(created)).content.decode()
    assert "PLAYER_UNKNOWN" in body and body.count('class="resolve-row') == 1
    (line,) = ResultUpload.objects.get(pk=created.pk).preview_summary["unresolved"]
    key = line["key"]
    saved = client.post(preview_url(created, page=1), {"player_key": key, "resolution": "guest"})
    assert saved.status_code == 302 and saved.url == preview_url(created, page=1)
    body = client.get(saved.url).content.decode()
    assert len(builds) == 2
    assert "PLAYER_UNKNOWN" not in body and 'class="resolve-row' not in body
    client.get(preview_url(created))
    assert len(builds) == 2
    make_players(world.dbf, ["99999"])  # the register changed
    client.get(preview_url(created))
    assert len(builds) == 3
    ResultUpload.objects.filter(pk=created.pk).update(preview_built_at=created.created_at - MAX_AGE)
    client.get(preview_url(created))
    assert len(builds) == 4


def test_5000_unknown_players_are_resolved_a_page_at_a_time(client, world, director):
    numbers = [str(500001 + i) for i in range(5000)]
    teams = [
        SyntheticPair(str(i + 1), tuple((f"Player {n}", n) for n in numbers[4 * i : 4 * i + 4]), f"{70 - i / 50:.2f}")
        for i in range(1250)
    ]
    created = make_upload(world.dbf, world.club_a, pairs_file(teams), actor=director, category="BP")
    first = client.get(preview_url(created))
    body = first.content.decode()
    assert first.status_code == 200
    assert len(first.content) < PAGE_BYTES
    assert body.count('<tr class="resolve-row') == PLAYERS_PER_PAGE
    assert "Players 1–25 of 5000." in body
    assert "and 4990 more of this code" in body  # PLAYER_UNKNOWN: ten listed, the rest counted
    last = client.get(preview_url(created, players=200)).content.decode()
    assert "Players 4976–5000 of 5000." in last
    assert f"Player {numbers[-1]}" in last
    ids = re.findall(r'id="(choice-\d+)"', last)
    assert len(ids) == len(set(ids)) == PLAYERS_PER_PAGE


def test_the_director_chooses_the_encoding_and_the_stored_bytes_are_read_with_it(client, world, director):
    data = usebio_pairs(
        club_number="1001", date=DAY, name="Čakovec", sections=[pairs_from_numbers(["1", "2", "3", "4"])], boards=24
    )
    data = data.replace(b'encoding="utf-8"', b"").decode().encode("cp1250")
    created = make_upload(world.dbf, world.club_a, data, actor=director, category="BP")
    body = client.get(preview_url(created)).content.decode()
    assert "Character encoding" in body and 'name="encoding"' in body
    response = client.post(reverse("uploads:encoding", args=[created.pk]), {"encoding": "cp1250"})
    assert response.status_code == 302
    created.refresh_from_db()
    assert created.facts["encoding"] == "cp1250"
    event = AuditEvent.objects.get(action="results.upload.encoding")
    assert event.payload == {"encoding": "cp1250", "previous": ""}
    with created.file.open("rb") as handle:
        assert handle.read() == data, "the stored bytes are never changed"
    preview = build_preview(created)
    assert preview.event.encoding.encoding == "cp1250"
    assert preview.event.name == "Čakovec"
    body = client.get(preview_url(created)).content.decode()
    assert "The file was read as <strong>cp1250</strong>" in body and "as you chose" in body
    assert "Čakovec" in body
    client.post(reverse("uploads:encoding", args=[created.pk]), {"encoding": ""})
    created.refresh_from_db()
    assert "encoding" not in created.facts


def test_an_encoding_outside_the_list_is_refused(client, world, director):
    data = pairs_file(pairs_from_numbers(["1", "2", "3", "4"]))
    created = make_upload(world.dbf, world.club_a, data, actor=director, category="BP")
    for bad in ("zlib", "rot13", "utf-7"):
        client.post(reverse("uploads:encoding", args=[created.pk]), {"encoding": bad})
        created.refresh_from_db()
        assert "encoding" not in created.facts
    with pytest.raises(ValidationError):
        services.results_upload_choose_encoding(actor=director, upload=created, encoding="zlib")


def test_the_limits_are_the_ones_the_messages_name():
    assert (MAX_ENTRIES_PER_EVENT, MAX_PLAYERS_PER_ENTRY) == (2000, 8)

"""Bad input as a hostile or careless user sends it through the upload page.

Each file gets its clear message on the preview (or the form) and nothing reaches the tournament
tables or the ledger; the original bytes are kept as uploaded (design.md § Invariants).
"""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import Player
from masterpoints.models import Award
from tests.factories import SyntheticPair, usebio_pairs
from tournaments.models import Entry, Participation, ResultUpload, Tournament

BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS">&lol3;</EVENT></USEBIO>"""
EXTERNAL = b"""<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]><USEBIO>&x;</USEBIO>"""


def pairs(*specs):
    return [SyntheticPair(str(i + 1), ((f"P{a}", a), (f"P{b}", b)), pct) for i, (a, b, pct) in enumerate(specs)]


def six_pairs(first_pct="60.00", second_pct="55.00", twice=False):
    numbers = [str(70001 + i) for i in range(12)]
    if twice:
        numbers[5] = numbers[0]
    pcts = [first_pct, second_pct, "52.00", "50.00", "45.00", "40.00"]
    return pairs(*[(numbers[2 * i], numbers[2 * i + 1], pcts[i]) for i in range(6)])


def usebio(sections, club="1001"):
    return usebio_pairs(club_number=club, date=datetime.date(2025, 5, 1), name="Test", sections=[sections], boards=24)


CASES = {
    "entity bomb": (BOMB, "XML_FORBIDDEN"),
    "external entity": (EXTERNAL, "XML_FORBIDDEN"),
    "binary file renamed .xml": (bytes(range(256)) * 64, "FILE_BINARY"),
    "cp1250 bytes without a declaration": (
        '<USEBIO Version="1.2"><CLUB><CLUB_NAME>Klub Čakovec</CLUB_NAME></CLUB></USEBIO>'.encode("cp1250"),
        "ENCODING_GUESSED",
    ),
    "a file for another club": (usebio(six_pairs(), club="9999"), "CLUB_MISMATCH"),
    "a player twice in one event": (usebio(six_pairs(twice=True)), "ID_DUPLICATE_IN_EVENT"),
    "places that contradict scores": (usebio(six_pairs(first_pct="40.00")), "PLACES_CONTRADICT_SCORES"),
}


@pytest.fixture
def director(client, personas, world):
    for i in range(12):
        Player.objects.create(federation=world.dbf, number=str(70001 + i), first_name="A", last_name=str(i))
    client.force_login(personas.director_a)
    return personas.director_a


def post(client, world, data: bytes, name="results.xml"):
    return client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_a.pk}",
            "category": "BP",
            "file": SimpleUploadedFile(name, data, content_type="application/octet-stream"),
        },
    )


def nothing_written():
    return not (Tournament.objects.exists() or Entry.objects.exists() or Participation.objects.exists()) and not (
        Award.objects.exists()
    )


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_or_careless_files_get_their_message_and_change_nothing(client, world, director, case):
    data, code = CASES[case]
    players_before = list(Player.objects.values_list("number", "first_name", "last_name"))
    response = post(client, world, data)
    assert response.status_code == 302
    preview = client.get(response.url)
    body = preview.content.decode()
    assert code in body
    assert "must be corrected before the results can be confirmed" in body
    upload = ResultUpload.objects.get()
    confirm = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert confirm.status_code == 302
    assert nothing_written()
    assert list(Player.objects.values_list("number", "first_name", "last_name")) == players_before
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.PENDING


def test_a_50_mb_file_is_refused_by_the_form_and_not_stored(client, world, director):
    response = post(client, world, b"<" + b"x" * (50 * 1024 * 1024))
    assert response.status_code == 200
    assert "at most 5 MB" in response.content.decode()
    assert not ResultUpload.objects.exists()
    assert nothing_written()


def test_every_real_usebio_sample_renders_a_preview_with_its_groups(client, world, director, samples):
    """Real files from other scoring programs (../shared/samples): the preview names every ranking group;
    their players are not on our register, so each one asks to be resolved (an upload never creates one)."""
    for path in sorted(samples.glob("usebio_*.xml")):
        response = post(client, world, path.read_bytes(), name=path.name)
        assert response.status_code == 302, path.name
        body = client.get(response.url).content.decode()
        assert "Players to resolve" in body, path.name
        assert "PLAYER_UNKNOWN" in body, path.name
    assert nothing_written()

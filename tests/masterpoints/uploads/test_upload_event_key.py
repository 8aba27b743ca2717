"""Issue 33, item 10: the re-upload key was cut at 300 characters, so two events whose descriptions differ only
past that point superseded each other (the first's awards reversed). A longer key now keeps its start and ends in
the SHA-256 of the whole key; a version stored under the old cut key is still superseded by its re-upload."""

from __future__ import annotations

import datetime

import pytest

from masterpoints.models import Award
from masterpoints.uploads.lines import EVENT_KEY_LENGTH
from masterpoints.uploads.services import results_upload_confirm
from tests.factories import make_players, make_upload, pairs_from_numbers, usebio_pairs
from tournaments.models import Tournament

DAY = datetime.date(2025, 4, 1)
NUMBERS = [str(93001 + i) for i in range(12)]
LONG = "Klubmesterskab i parturnering " * 12  # 360 characters


@pytest.fixture
def members(world):
    return make_players(world.dbf, NUMBERS)


def confirm(world, personas, name: str) -> Tournament:
    data = usebio_pairs(club_number="1001", date=DAY, name=name, sections=[pairs_from_numbers(NUMBERS)], boards=24)
    upload = make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP")
    return results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)


def test_two_events_differing_only_past_300_characters_do_not_supersede_each_other(world, personas, members):
    first = confirm(world, personas, LONG + "A-række")
    second = confirm(world, personas, LONG + "B-række")
    assert second.supersedes is None
    assert set(Tournament.objects.current()) == {first, second}
    assert first.event_key != second.event_key
    assert len(first.event_key) == len(second.event_key) == EVENT_KEY_LENGTH
    assert not Award.objects.filter(tournament=first, units__lt=0).exists()


def test_the_same_long_event_uploaded_again_supersedes_its_earlier_version(world, personas, members):
    first = confirm(world, personas, LONG + "A-række")
    again = confirm(world, personas, LONG + "A-række")
    assert again.supersedes == first and list(Tournament.objects.current()) == [again]


def test_a_version_stored_under_the_old_cut_key_is_superseded_by_its_re_upload(world, personas, members):
    first = confirm(world, personas, LONG + "A-række")
    full = f"club:1001|{DAY.isoformat()}|{(LONG + 'A-række').strip().lower()}"
    Tournament.objects.filter(pk=first.pk).update(event_key=full[:EVENT_KEY_LENGTH])  # as confirmed before
    again = confirm(world, personas, LONG + "A-række")
    assert again.supersedes == first and list(Tournament.objects.current()) == [again]
    assert again.event_key != full[:EVENT_KEY_LENGTH]


def test_a_short_key_is_the_key_itself(world, personas, members):
    assert confirm(world, personas, "Tirsdag").event_key == f"club:1001|{DAY.isoformat()}|tirsdag"

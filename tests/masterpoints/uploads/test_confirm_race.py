"""Two confirms of one event leave one result (design.md § Invariants: a constraint, not only a check).

A re-upload supersedes the version it replaces (formats.md § 1.3); confirms of one event are taken one at a
time, at most one version of an event is current, and a confirm whose preview did not show the version it
would now replace is refused with the upload left pending.
"""

from __future__ import annotations

import datetime
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Sum
from django.urls import reverse

from masterpoints.models import Award
from masterpoints.uploads.services import results_upload_confirm
from tests.factories import make_players, make_tournament, make_upload, pairs_from_numbers, usebio_pairs
from tournaments.models import ResultUpload, Tournament

NUMBERS = [str(60001 + i) for i in range(24)]
DAY = datetime.date(2025, 2, 3)


def monday(world, *, seed=11, actor=None):
    data = usebio_pairs(
        club_number=world.club_a.number,
        date=DAY,
        name="Mandagsturnering",
        sections=[pairs_from_numbers(NUMBERS, seed=seed)],
        boards=24,
    )
    return make_upload(world.dbf, world.club_a, data, actor=actor, filename="monday.xml", category="BP", met=None)


def ledger_total(world) -> int:
    return Award.objects.filter(federation=world.dbf).aggregate(total=Sum("units"))["total"] or 0


def test_the_database_refuses_a_second_current_version_of_one_event(world):
    make_tournament(world.dbf, world.club_a, key="club:1|2025-02-03|monday")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_tournament(world.dbf, world.club_a, key="club:1|2025-02-03|monday")


def test_a_confirm_whose_preview_showed_no_earlier_version_is_refused_when_one_was_confirmed_since(world, personas):
    make_players(world.dbf, NUMBERS)
    first, second = monday(world, actor=personas.director_a), monday(world, seed=12, actor=personas.director_a)
    results_upload_confirm(actor=personas.director_a, upload=first, acknowledge_warnings=True, expected_previous=None)
    total = ledger_total(world)
    with pytest.raises(ValidationError) as refused:
        results_upload_confirm(
            actor=personas.director_a, upload=second, acknowledge_warnings=True, expected_previous=None
        )
    assert refused.value.code == "confirmed_meanwhile"
    assert "Another upload of this event was confirmed" in " ".join(refused.value.messages)
    second.refresh_from_db()
    assert second.status == ResultUpload.Status.PENDING
    assert ledger_total(world) == total and Tournament.objects.current().count() == 1
    # Reviewed against the confirmed version, the same upload supersedes it.
    current = Tournament.objects.current().get()
    results_upload_confirm(
        actor=personas.director_a, upload=second, acknowledge_warnings=True, expected_previous=current.pk
    )
    assert list(Tournament.objects.current()) == [Tournament.objects.get(upload=second)]
    assert ledger_total(world) == total  # the first version's awards reversed, the second's posted


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite runs one writer at a time, so nothing races")


def race(*calls):
    """Run the calls at the same moment, each on its own connection; the errors they raised, by call."""
    barrier = threading.Barrier(len(calls))
    outcome: dict[int, BaseException | None] = {}

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            call()
            outcome[index] = None
        except BaseException as error:  # reported by the test, in its own thread
            outcome[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return [outcome[i] for i in range(len(calls))]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_uploads_of_one_new_event_confirmed_at_once_leave_one_current_version(postgres, world, personas):
    make_players(world.dbf, NUMBERS)
    uploads = [monday(world, actor=personas.director_a) for _ in range(2)]
    errors = race(
        *(
            lambda u=u: results_upload_confirm(
                actor=personas.director_a, upload=u, acknowledge_warnings=True, expected_previous=None
            )
            for u in uploads
        )
    )
    refused = [error for error in errors if error is not None]
    assert len(refused) == 1 and isinstance(refused[0], ValidationError), errors
    assert refused[0].code == "confirmed_meanwhile"
    assert Tournament.objects.current().count() == 1
    statuses = sorted(ResultUpload.objects.filter(pk__in=[u.pk for u in uploads]).values_list("status", flat=True))
    assert statuses == ["confirmed", "pending"]
    # 24 + 24 + 16 + 16 + 11 + 11 + 8 + 8 BP (D-P1), once: not doubled.
    assert ledger_total(world) == 118


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_re_uploads_of_a_confirmed_event_confirmed_at_once_supersede_it_once(postgres, world, personas):
    make_players(world.dbf, NUMBERS)
    original = monday(world, actor=personas.director_a)
    results_upload_confirm(actor=personas.director_a, upload=original, acknowledge_warnings=True)
    first = Tournament.objects.current().get()
    uploads = [monday(world, seed=20 + i, actor=personas.director_a) for i in range(2)]
    errors = race(
        *(
            lambda u=u: results_upload_confirm(
                actor=personas.director_a, upload=u, acknowledge_warnings=True, expected_previous=first.pk
            )
            for u in uploads
        )
    )
    refused = [error for error in errors if error is not None]
    assert len(refused) == 1 and isinstance(refused[0], ValidationError), errors
    assert Tournament.objects.current().count() == 1
    assert Tournament.objects.filter(supersedes=first).count() == 1
    assert ledger_total(world) == 118


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_server_imports_of_one_event_at_once_end_with_one_version_current(postgres, world):
    """The server's own import names no expected version: the later one supersedes the earlier."""
    make_players(world.dbf, NUMBERS)
    uploads = [monday(world, seed=30 + i) for i in range(2)]
    errors = race(
        *(
            lambda u=u: results_upload_confirm(actor=None, upload=u, acknowledge_warnings=True, trusted=True)
            for u in uploads
        )
    )
    assert errors == [None, None]
    assert Tournament.objects.current().count() == 1 and Tournament.objects.count() == 2
    assert ledger_total(world) == 118


def test_the_preview_page_posts_the_version_it_showed_and_a_stale_confirm_says_so(client, world, personas):
    make_players(world.dbf, NUMBERS)
    first, second = monday(world, actor=personas.director_a), monday(world, seed=12, actor=personas.director_a)
    client.force_login(personas.director_a)
    for upload in (first, second):  # both previews are opened before either is confirmed
        page = client.get(reverse("uploads:preview", args=[upload.pk])).content.decode()
        assert 'name="replaces" value=""' in page
    confirm = {"acknowledge_warnings": "on", "replaces": ""}
    assert client.post(reverse("uploads:confirm", args=[first.pk]), confirm).status_code == 302
    response = client.post(reverse("uploads:confirm", args=[second.pk]), confirm, follow=True)
    assert "Another upload of this event was confirmed" in response.content.decode()
    second.refresh_from_db()
    assert second.status == ResultUpload.Status.PENDING and Tournament.objects.current().count() == 1
    current = Tournament.objects.current().get()
    page = client.get(reverse("uploads:preview", args=[second.pk])).content.decode()
    assert f'name="replaces" value="{current.pk}"' in page

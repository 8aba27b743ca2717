"""RULESET_MISSING is no dead end (issue 38, part 4): the director reads whom to ask, and the secretariat's
answer (a rule set valid on the event's date) reaches the waiting upload: its preview is computed again and
the director is told once by e-mail."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.urls import reverse

from federation.models import RuleSet
from masterpoints.uploads.answers import results_uploads_ruleset_answered, waits_for_rule_set
from masterpoints.uploads.services import results_upload_preview
from tests.masterpoints.uploads.test_club_alias import register, upload  # noqa: F401 (fixture, helper)

pytestmark = pytest.mark.django_db

DAY = datetime.date(2023, 3, 6)  # before DBf 2023 (valid from 2023-09-01): no rule set covers it


def test_the_director_reads_whom_to_ask_and_that_the_answer_comes_back(client, world, personas, register):  # noqa: F811
    world.dbf.contact_email = "mesterpoint@dbf.example"
    world.dbf.save(update_fields=["contact_email"])
    created = upload(world, personas.director_a, file_club=world.club_a.number, date=DAY)
    client.force_login(personas.director_a)
    page = client.get(reverse("uploads:preview", args=[created.pk])).content.decode()
    assert "Ask the secretariat of DBf" in page and "mailto:mesterpoint@dbf.example" in page
    assert "computed again within a minute" in page


def test_a_rule_set_added_reaches_the_waiting_upload_and_its_director_once(
    world,
    personas,
    register,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    personas.director_a.email = "direktor@example.com"
    personas.director_a.save(update_fields=["email"])
    created = upload(world, personas.director_a, file_club=world.club_a.number, date=DAY)
    results_upload_preview(upload=created)
    created.refresh_from_db()
    assert waits_for_rule_set(created)
    assert results_uploads_ruleset_answered() == []  # nothing answered it yet

    RuleSet.objects.create(federation=world.dbf, valid_from=datetime.date(2023, 1, 1), name="DBf 2023 (early)")
    with django_capture_on_commit_callbacks(execute=True):
        assert results_uploads_ruleset_answered() == [created.pk]
    created.refresh_from_db()
    assert not waits_for_rule_set(created)
    [message] = [m for m in mail.outbox if "direktor@example.com" in m.to]
    assert "monday.xml" in message.subject
    assert reverse("uploads:preview", args=[created.pk]) in message.body
    with django_capture_on_commit_callbacks(execute=True):
        assert results_uploads_ruleset_answered() == []  # told once

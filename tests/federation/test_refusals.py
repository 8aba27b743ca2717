"""Issue 18, dates in the reader's locale: a refusal keeps its dates as values (ISO 8601 for the API) and its
sentence shows them as the active language writes dates (English "N j, Y", Danish "j. F Y"), formatted when
the message is rendered, not when the refusal is raised."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone, translation
from django.utils.formats import date_format

from api.errors import service_refusal
from federation.jobs import job_start
from federation.models import JobRun
from federation.refusals import Days, plain_value, refusals, shown_value

DAY = datetime.date(2026, 10, 11)
refusal = refusals({"CLOSED": "Closed since %(day)s (rule %(rule)s)."})


def test_a_refusals_date_reads_in_the_language_active_when_the_message_is_rendered_issue_18():
    error = refusal("CLOSED", day=DAY, rule="6")
    assert error.messages == ["Closed since 2026-10-11 (rule 6)."]
    with translation.override("da"):
        assert error.messages == ["Closed since 11. oktober 2026 (rule 6)."]
        assert ValidationError([error]).messages == ["Closed since 11. oktober 2026 (rule 6)."]  # a form's list
    assert error.params["day"] == "2026-10-11" and dict(error.params)["day"] == DAY


def test_the_api_keeps_a_refusals_dates_machine_readable_issue_18():
    """The API's ``params`` carry the date in ISO 8601; only its ``message`` is the localised sentence."""
    body = service_refusal(refusal("CLOSED", day=DAY, rule="6")).as_json()["error"]
    assert body["params"] == {"day": "2026-10-11", "rule": "6"}
    assert body["message"] == "Closed since 2026-10-11 (rule 6)."


def test_a_time_reads_in_the_sites_time_zone_and_the_readers_format_issue_18():
    moment = datetime.datetime(2026, 10, 11, 14, 5, tzinfo=datetime.UTC)  # 16:05 in Copenhagen (CEST)
    assert shown_value(moment) == "2026-10-11 16:05"
    with translation.override("da"):
        assert shown_value(moment) == "11. oktober 2026 16:05"
    assert shown_value(3) == 3 and shown_value("2026-10-11") == "2026-10-11"  # text stays as given


def test_a_job_refused_while_another_runs_names_its_start_in_the_readers_locale_issue_19(world):
    running = job_start(kind=JobRun.Kind.STANDINGS_REBUILD, federation=world.dbf, actor=None)
    started = timezone.now() - datetime.timedelta(minutes=5)
    JobRun.objects.filter(pk=running.pk).update(started_at=started)
    with pytest.raises(ValidationError) as refused:
        job_start(kind=JobRun.Kind.STANDINGS_REBUILD, federation=world.dbf, actor=None)
    assert refused.value.code == "JOB_RUNNING"
    message = refused.value.messages[0]
    assert f"(started {date_format(timezone.localtime(started), 'DATETIME_FORMAT')})" in message
    assert f"{timezone.localtime(started):%Y-%m-%d %H:%M}" in message  # English: ISO (issue 38)


def test_named_days_and_lists_of_them_read_in_the_readers_locale_and_stay_iso_for_machines_issue_18():
    """A refusal naming another event with its days (§ 403A1: the events DBf announced) or a list of periods."""
    span = Days(datetime.date(2025, 11, 3), datetime.date(2025, 11, 7), name="Klubsølv")
    one = Days(datetime.date(2025, 10, 6), name="Top-16 mandag")
    assert shown_value((span, one)) == "Klubsølv (2025-11-03 – 2025-11-07); Top-16 mandag (2025-10-06)"
    with translation.override("da"):
        assert shown_value(span) == "Klubsølv (3. november 2025 – 7. november 2025)"
    assert plain_value((span, one)) == "Klubsølv (2025-11-03–2025-11-07); Top-16 mandag (2025-10-06)"

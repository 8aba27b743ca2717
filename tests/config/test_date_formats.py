"""Dates follow one convention per language (issue 38, part 4): English pages write ISO 8601 (2027-04-06, never
the US "04/06/2027"), Danish "6. april 2027" in prose and mails, Croatian "6. travnja 2027."."""

import datetime

from django.utils import translation
from django.utils.formats import date_format

DAY = datetime.date(2027, 4, 6)


def test_english_dates_are_iso_and_danish_and_croatian_keep_their_own():
    with translation.override("en"):
        assert date_format(DAY) == "2027-04-06" and date_format(DAY, "SHORT_DATE_FORMAT") == "2027-04-06"
    with translation.override("da"):
        assert date_format(DAY) == "6. april 2027"
    with translation.override("hr"):
        assert date_format(DAY) == "6. travnja 2027."


def test_a_danish_sanction_mail_writes_the_day_as_danes_do():
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    application = SimpleNamespace(date=DAY, end_date=None)
    with translation.override("da"):
        text = render_to_string("emails/_sanction_facts.txt", {"application": application})
    assert "tirsdag 6. april 2027" in text
    with translation.override("en"):
        assert "Tuesday 2027-04-06" in render_to_string("emails/_sanction_facts.txt", {"application": application})

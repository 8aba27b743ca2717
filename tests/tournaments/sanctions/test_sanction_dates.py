"""Issue 33, item 7: an application whose last day lies before its first day reached the database's constraint
(``sanction_application_dates_ordered``) and answered 500. It is refused at the form's last day, naming both days,
and nothing is written."""

from __future__ import annotations

import datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from tests.tournaments.sanctions.test_views import form_data, monday  # noqa: F401 (a fixture)
from tournaments.models import SanctionApplication


def test_a_last_day_before_the_first_day_is_refused_at_its_field_naming_both_days(client, world, personas, monday):  # noqa: F811
    client.force_login(personas.director_a)
    first = timezone.localdate() + datetime.timedelta(days=100)
    last = first - datetime.timedelta(days=3)
    response = client.post(reverse("sanctions:apply"), form_data(world, monday, end_date=last.isoformat()))
    assert response.status_code == 200
    (message,) = response.context["form"].errors["end_date"]
    assert date_format(last) in message and date_format(first) in message
    assert not SanctionApplication.objects.exists()


def test_a_last_day_on_the_first_day_is_accepted(client, world, personas, monday):  # noqa: F811
    client.force_login(personas.director_a)
    first = timezone.localdate() + datetime.timedelta(days=100)
    response = client.post(reverse("sanctions:apply"), form_data(world, monday, end_date=first.isoformat()))
    assert response.status_code == 302
    assert SanctionApplication.objects.get().end_date == first

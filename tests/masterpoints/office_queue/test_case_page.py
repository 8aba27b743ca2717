"""The office queue's case page reads as words (issue 38, part 4): no stored JSON of the awards, no "-/-/-"
for a file that names no group, and the way to resolve the case."""

from __future__ import annotations

import pytest
from django.urls import reverse

from masterpoints.models import OfficeCase
from tests.masterpoints.office_queue.test_office_queue import case, tajnik  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def test_the_case_page_shows_the_case_in_words(client, case, tajnik):  # noqa: F811
    case.group = "-/-/-"
    case.save(update_fields=["group"])
    client.force_login(tajnik)
    page = client.get(reverse("admin:masterpoints_officecase_change", args=[case.pk])).content.decode()
    assert "Player 9999" in page and "Zimski turnir" in page and "10 black" in page
    assert "-/-/-" not in page and '"units"' not in page and "&quot;units&quot;" not in page
    assert reverse("admin:masterpoints_officecase_resolve", args=[case.pk]) in page
    resolve = client.get(reverse("admin:masterpoints_officecase_resolve", args=[case.pk])).content.decode()
    assert "-/-/-" not in resolve


def test_the_queue_list_leaves_an_unnamed_group_out_of_the_place_issue_38(client, case, tajnik):  # noqa: F811
    """Issue 38 part 4: the list's place column reads "1", not "1 -/-/-" where the file named no group."""
    OfficeCase.objects.filter(pk=case.pk).update(group="-/-/-", place_first=1, place_last=1)
    client.force_login(tajnik)
    page = client.get("/admin/masterpoints/officecase/").content.decode()
    assert "-/-/-" not in page

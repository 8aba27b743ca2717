"""Issue 19: "this file is ours" (D-Q40): a club records the club id its files name; RULESET_MISSING names the
rule sets on record and offers the secretariat the admin's "add rule set"."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.formats import date_format

from federation.models import AuditEvent, Player
from masterpoints.uploads.aliases import club_alias_record
from masterpoints.uploads.models import ClubAlias
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_create
from tests.factories import pairs_from_numbers, usebio_pairs

NUMBERS = [str(60001 + i) for i in range(12)]


@pytest.fixture
def register(world):
    for number in NUMBERS:
        Player.objects.create(federation=world.dbf, number=number, first_name="Jens", last_name=number)


def upload(world, actor, *, club=None, file_club="0777", date=datetime.date(2025, 2, 3)):
    data = usebio_pairs(
        club_number=file_club,
        date=date,
        name="Mandagsturnering",
        sections=[pairs_from_numbers(NUMBERS, seed=5)],
        boards=24,
    )
    return results_upload_create(
        actor=actor,
        federation=world.dbf,
        club=club or world.club_a,
        region=None,
        data=data,
        filename="monday.xml",
        facts={"organiser_kind": "club", "category": "BP", "form": "", "boards": None, "met": None},
    )


def codes(created) -> set[str]:
    return {issue.code for issue in build_preview(created).issues}


def test_a_recorded_club_id_is_remembered_for_later_uploads_d_q40(world, personas, register):
    """D-Q40: the director records the file's club id as the club's; the next upload naming it (written with
    or without leading zeros) has the notice CLUB_ALIAS instead of the error, and an audit row is written."""
    first = upload(world, personas.director_a)
    assert "CLUB_MISMATCH" in codes(first)
    alias = club_alias_record(actor=personas.director_a, upload=first)
    assert (alias.club, alias.file_club_id, alias.recorded_by) == (world.club_a, "777", personas.director_a)
    assert AuditEvent.objects.filter(action="results.club_alias.record", target_id=str(alias.pk)).exists()
    later = upload(world, personas.director_a, file_club="777")
    found = codes(later)
    assert "CLUB_MISMATCH" not in found and "CLUB_ALIAS" in found


def test_another_clubs_alias_is_refused_naming_that_club_d_q40(world, personas, register):
    """D-Q40: one club per id; the second club is refused with the holder's name and nothing is written."""
    club_alias_record(actor=personas.director_a, upload=upload(world, personas.director_a))
    theirs = upload(world, personas.director_b, club=world.club_b)
    with pytest.raises(ValidationError) as caught:
        club_alias_record(actor=personas.director_b, upload=theirs)
    assert "belongs to Bridgeklubben A" in " ".join(caught.value.messages)
    assert ClubAlias.objects.count() == 1
    assert "CLUB_MISMATCH" in codes(theirs)


def test_another_clubs_register_number_cannot_be_claimed_d_q40(world, personas, register):
    """D-Q40: club B's own number (1002) is B's; club A cannot record it."""
    created = upload(world, personas.director_a, file_club="1002")
    with pytest.raises(ValidationError) as caught:
        club_alias_record(actor=personas.director_a, upload=created)
    assert "belongs to Bridgeklubben B" in " ".join(caught.value.messages)
    assert not ClubAlias.objects.exists()


def test_only_the_clubs_director_or_the_secretariat_record_an_alias_d_q40(world, personas, register):
    created = upload(world, personas.director_a)
    for outsider in (personas.director_b, personas.district_officer, personas.player):
        with pytest.raises(PermissionDenied):
            club_alias_record(actor=outsider, upload=created)
    assert not ClubAlias.objects.exists()
    assert club_alias_record(actor=personas.secretariat, upload=created).club == world.club_a


def test_the_preview_offers_the_alias_and_posts_it_with_csrf_d_q40(client, world, personas, register):
    created = upload(world, personas.director_a)
    client.force_login(personas.director_a)
    page = client.get(reverse("uploads:preview", args=[created.pk]))
    assert page.context["alias_offer"] == "0777"
    assert reverse("uploads:club_alias", args=[created.pk]).encode() in page.content
    assert client.get(reverse("uploads:club_alias", args=[created.pk])).status_code == 405
    response = client.post(reverse("uploads:club_alias", args=[created.pk]))
    assert response.status_code == 302
    assert ClubAlias.objects.get().club == world.club_a
    again = client.get(reverse("uploads:preview", args=[created.pk]))
    assert again.context["alias_offer"] == ""
    assert {"CLUB_ALIAS"} <= {group["code"] for group in again.context["issues"]}
    assert "CLUB_MISMATCH" not in {group["code"] for group in again.context["issues"]}


def test_another_clubs_director_cannot_post_the_alias_d_q40(client, world, personas, register):
    created = upload(world, personas.director_a)
    client.force_login(personas.director_b)
    assert client.post(reverse("uploads:club_alias", args=[created.pk])).status_code == 403
    assert not ClubAlias.objects.exists()


def test_ruleset_missing_names_the_rule_sets_on_record_and_who_to_ask_issue_19(world, personas, register):
    """Issue 19: DBf's built-in set "DBf 2023" is valid from 2023-09-01 (masterpoints.engine.dbf.rules); a tournament of
    2023-03-06 has none, and the message lists the sets with their dates and names the secretariat."""
    created = upload(world, personas.director_a, file_club=world.club_a.number, date=datetime.date(2023, 3, 6))
    issue = next(i for i in build_preview(created).issues if i.code == "RULESET_MISSING")
    text = str(issue.message)
    assert "valid on 2023-03-06" in text  # the reader's locale (issue 18)
    assert f"DBf 2023 ({date_format(datetime.date(2023, 9, 1))})" in text
    assert "federation's secretariat" in text


def test_the_secretariat_gets_the_add_rule_set_link_with_the_date_a_director_not_issue_19(
    client, world, personas, register
):
    created = upload(world, personas.director_a, file_club=world.club_a.number, date=datetime.date(2023, 3, 6))
    url = reverse("uploads:preview", args=[created.pk])
    client.force_login(personas.director_a)
    assert client.get(url).context["ruleset_add_url"] == ""
    client.force_login(personas.secretariat)
    link = client.get(url).context["ruleset_add_url"]
    assert link == f"{reverse('admin:federation_ruleset_add')}?federation={world.dbf.pk}&valid_from=2023-03-06"

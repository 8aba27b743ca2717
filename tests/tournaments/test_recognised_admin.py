"""HBS's list in the admin (H-1, rules 2 and 10) and the upload form's new facts (§ 403A–B, H-1)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from office.services import officer_assign
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import (
    DirectorLicence,
    RecognisedTournament,
    ResultUpload,
    SimultaneousEvent,
    TouristApproval,
)
from tournaments.recognised import recognised_tournament_save


@pytest.fixture
def tajnik(world, django_user_model):
    user = django_user_model.objects.create_user("tajnik", "tajnik@example.com", "pw")
    officer_assign(actor=None, user=user, role="secretariat", federation=world.hbs)
    return user


@pytest.fixture
def direktor(world, django_user_model):
    user = django_user_model.objects.create_user("direktor", "direktor@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    return user


def listed(world, tajnik, *, tourist=False, name="Zagreb Open"):
    year = timezone.localdate().year
    entry = RecognisedTournament(federation=world.hbs, year=year, name=name, tourist=tourist)
    return recognised_tournament_save(actor=tajnik, tournament=entry, kinds={"black": Decimal(1), "red": Decimal(2)})


def test_the_hbs_secretariat_lists_a_tournament_with_its_s_per_kind_in_the_admin_h_1(client, world, tajnik):
    client.force_login(tajnik)
    response = client.post(
        reverse("admin:tournaments_recognisedtournament_add"),
        {"federation": world.hbs.pk, "year": 2025, "name": "Kup Hrvatske", "strength_red": "1.2", "note": ""},
    )
    assert response.status_code == 302
    assert RecognisedTournament.objects.get().kinds == [("red", "1.200")]


@pytest.mark.parametrize(
    ("federation", "strengths", "field"),
    [("hbs", {}, None), ("hbs", {"strength_red": "0"}, "strength_red"), ("dbf", {"strength_red": "1"}, "federation")],
)
def test_an_entry_without_a_positive_s_or_for_dbf_is_refused_in_the_admin_form_h_4(
    client, world, tajnik, federation, strengths, field
):
    client.force_login(tajnik)
    data = {"federation": getattr(world, federation).pk, "year": 2025, "name": "X", **strengths}
    response = client.post(reverse("admin:tournaments_recognisedtournament_add"), data)
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert (field in form.errors) if field else form.non_field_errors()
    assert not RecognisedTournament.objects.exists()


def test_a_tourist_tournament_is_approved_with_the_admin_action_rule_2(client, world, tajnik):
    entry = listed(world, tajnik, tourist=True, name="Ljeto")
    client.force_login(tajnik)
    client.post(
        reverse("admin:tournaments_touristapproval_add"),
        {
            "tournament": entry.pk,
            "organiser": "Sunce",
            "place": "Poreč",
            "starts_on": "2025-07-01",
            "ends_on": "2025-07-03",
        },
    )
    approval = TouristApproval.objects.get()
    changelist = reverse("admin:tournaments_touristapproval_changelist")
    client.post(changelist, {"action": "approve", ACTION_CHECKBOX_NAME: [approval.pk], "apply": "1", "reason": ""})
    approval.refresh_from_db()
    assert approval.status == "approved"


def test_a_licence_is_granted_and_revoked_with_a_reason_in_the_admin_rule_10(client, world, tajnik, direktor):
    client.force_login(tajnik)
    client.post(
        reverse("admin:tournaments_directorlicence_add"),
        {
            "federation": world.hbs.pk,
            "user": direktor.pk,
            "number": "HBS-I-1",
            "valid_from": "2025-01-01",
            "valid_until": "2025-12-31",
        },
    )
    licence = DirectorLicence.objects.get()
    assert licence.granted_by == tajnik
    changelist = reverse("admin:tournaments_directorlicence_changelist")
    client.post(changelist, {"action": "revoke", ACTION_CHECKBOX_NAME: [licence.pk], "apply": "1", "reason": "Kraj"})
    licence.refresh_from_db()
    assert (licence.revoked_by, licence.revoke_reason) == (tajnik, "Kraj")


def test_a_club_director_has_no_access_to_the_list_in_the_admin(client, direktor):
    client.force_login(direktor)
    assert client.get(reverse("admin:tournaments_recognisedtournament_changelist")).status_code == 302


def results_file(club_number: str, numbers: list[str]) -> SimpleUploadedFile:
    data = usebio_pairs(
        club_number=club_number,
        date=datetime.date(2025, 3, 4),
        name="Open",
        sections=[pairs_from_numbers(numbers, seed=2)],
        boards=24,
    )
    return SimpleUploadedFile("open.xml", data, content_type="text/xml")


def test_the_hbs_upload_form_takes_kinds_and_s_from_the_chosen_list_entry_h_1(client, world, tajnik, direktor):
    entry = listed(world, tajnik)
    client.force_login(direktor)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_hr.pk}",
            "category": "black",
            "recognised": entry.pk,
            "internet": "on",
            "file": results_file("101", [str(1 + i) for i in range(12)]),
        },
    )
    assert response.status_code == 302
    facts = ResultUpload.objects.get().facts
    assert facts["recognised"] == entry.pk
    assert facts["kinds"] == [["black", "1.000"], ["red", "2.000"]]
    assert facts["internet"] is True


def test_the_dbf_upload_form_records_the_special_event_and_the_entries_tick_403a_403b5c(client, world, personas):
    """§ 403A1: the claim names the simultaneous event DBf announced; § 403B5c: the entries tick."""
    event = SimultaneousEvent.objects.create(
        federation=world.dbf,
        name="Klubsølv 2025 (1)",
        kind="klubsolv",
        starts_on=datetime.date(2025, 3, 3),
        ends_on=datetime.date(2025, 3, 7),
    )
    client.force_login(personas.director_a)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_a.pk}",
            "category": "SP",
            "simultaneous_event": event.pk,
            "no_outside_entries_refused": "on",
            "file": results_file("1001", [str(100 + i) for i in range(12)]),
        },
    )
    assert response.status_code == 302
    facts = ResultUpload.objects.get().facts
    assert (facts["special"], facts["simultaneous_event"], facts["no_outside_entries_refused"]) == (
        "simultaneous",
        event.pk,
        True,
    )


def test_a_special_event_with_bp_is_refused_by_the_upload_form_403a(client, world, personas):
    client.force_login(personas.director_a)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_a.pk}",
            "category": "BP",
            "special": "top16",
            "file": results_file("1001", [str(100 + i) for i in range(12)]),
        },
    )
    assert response.status_code == 200 and "special" in response.context["form"].errors
    assert not ResultUpload.objects.exists()

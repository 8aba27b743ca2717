"""Correction pages and the commission's admin queue with the personas; foreign MP in the admin (§ 401B)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from federation.models import AuditEvent, Player
from masterpoints.corrections.services import correction_request_file
from masterpoints.models import Award, CorrectionRequest, CorrectionWindow, ForeignConversion, ForeignPoints
from tests.factories import make_tournament, post_award
from tests.office import admin_rows

DAY = datetime.date(2025, 2, 3)


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def correction(world, personas, award, media):
    return correction_request_file(
        actor=personas.player,
        player=world.player,
        award=award,
        text="Vi blev nr. 2.",
        document=SimpleUploadedFile("bevis.pdf", b"%PDF-1.4 evidence"),
    )


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    response = client.get(reverse("corrections:new"))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_a_player_files_a_request_with_a_document_against_their_award(client, world, personas, award, media):
    client.force_login(personas.player)
    page = client.get(reverse("corrections:new"))
    assert "player_number" not in page.context["form"].fields, "a player asks for their own points"
    document = SimpleUploadedFile("resultat.pdf", b"%PDF-1.4 x", content_type="application/pdf")
    response = client.post(
        reverse("corrections:new"), {"award": award.pk, "text": "Forkert plads", "document": document}
    )
    request = CorrectionRequest.objects.get()
    assert response.status_code == 302 and response.url == request.get_absolute_url()
    assert (request.player, request.award, request.document_name) == (world.player, award, "resultat.pdf")


def test_a_player_cannot_choose_someone_elses_award(client, world, personas, tournament):
    other = Player.objects.create(federation=world.dbf, number="99999", first_name="Ole", last_name="Hansen")
    theirs = Award.objects.create(
        federation=world.dbf, player=other, kind="BP", units=8, source="result", tournament=tournament, awarded_on=DAY
    )
    client.force_login(personas.player)
    response = client.post(reverse("corrections:new"), {"award": theirs.pk, "text": "Min"})
    assert response.status_code == 200 and "award" in response.context["form"].errors
    assert not CorrectionRequest.objects.exists()


def test_a_director_files_for_a_player_of_their_clubs_tournament(client, world, personas, tournament):
    client.force_login(personas.director_a)
    response = client.post(
        reverse("corrections:new"), {"tournament": tournament.pk, "player_number": "12345", "text": "Glemt spiller"}
    )
    assert response.status_code == 302
    assert CorrectionRequest.objects.get().player == world.player


def test_another_clubs_director_cannot_choose_the_tournament(client, world, personas, tournament):
    client.force_login(personas.director_b)
    response = client.post(
        reverse("corrections:new"), {"tournament": tournament.pk, "player_number": "12345", "text": "x"}
    )
    assert response.status_code == 200 and "tournament" in response.context["form"].errors
    assert not CorrectionRequest.objects.exists()


def test_someone_neither_player_nor_director_cannot_file(client, personas):
    client.force_login(personas.district_officer)
    assert client.get(reverse("corrections:new")).status_code == 403


def test_a_player_cannot_see_another_players_request_or_its_document(
    client, world, personas, correction, django_user_model
):
    stranger = django_user_model.objects.create_user("ole", "ole@example.com", "pw")
    Player.objects.create(federation=world.dbf, number="99999", first_name="Ole", last_name="Hansen", user=stranger)
    client.force_login(stranger)
    response = client.get(correction.get_absolute_url())
    assert response.status_code == 403
    assert b"concerns another player" in response.content
    assert client.get(reverse("corrections:document", args=[correction.pk])).status_code == 403
    assert correction not in client.get(reverse("corrections:list")).context["corrections"]


def test_the_player_and_the_organising_clubs_director_see_the_request_another_director_does_not(
    client, personas, correction
):
    for user, status in ((personas.player, 200), (personas.director_a, 200), (personas.director_b, 403)):
        client.force_login(user)
        assert client.get(correction.get_absolute_url()).status_code == status, user
        assert (correction in client.get(reverse("corrections:list")).context["corrections"]) is (status == 200)


def test_the_document_is_offered_as_a_download_never_rendered(client, personas, correction):
    client.force_login(personas.player)
    response = client.get(reverse("corrections:document", args=[correction.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Disposition"].startswith('attachment; filename="bevis.pdf"')
    assert b"".join(response.streaming_content) == b"%PDF-1.4 evidence"


# --- the commission's queue in the admin ----------------------------------------------------------------


def queue() -> str:
    return reverse("admin:masterpoints_correctionrequest_changelist")


def test_the_commission_assigns_and_grants_in_the_admin_and_the_balance_changes(client, world, personas, correction):
    client.force_login(personas.commission)
    assert client.get(queue()).status_code == 200
    client.post(queue(), {"action": "assign_to_me", ACTION_CHECKBOX_NAME: [correction.pk]})
    correction.refresh_from_db()
    assert correction.assigned_to == personas.commission
    decide = reverse("admin:masterpoints_correctionrequest_decide", args=[correction.pk])
    assert client.get(decide).status_code == 200
    form = {"grant": "yes", "reason": "Plads 2", "kind_1": "BP", "amount_1": "8"}
    shown = client.post(decide, form)  # issue 19: the entries are shown before the decision is recorded
    assert shown.status_code == 200 and Award.objects.count() == 1
    response = client.post(decide, {**form, "plan_key": shown.context["plan_key"]})
    assert response.status_code == 302
    total = sum(Award.objects.filter(player=world.player).values_list("units", flat=True))
    assert total == 24
    correction.refresh_from_db()
    assert correction.status == "granted"


def test_a_decision_the_service_refuses_is_shown_on_the_page(client, personas, correction):
    client.force_login(personas.commission)
    decide = reverse("admin:masterpoints_correctionrequest_decide", args=[correction.pk])
    response = client.post(decide, {"grant": "yes", "reason": "Rettes", "kind_1": "BP", "amount_1": "-20"})
    assert response.status_code == 200
    assert "never below 0" in " ".join(response.context["form"].non_field_errors())
    assert Award.objects.count() == 1


def test_the_secretariat_cannot_decide_a_correction_and_is_told_so_once_issue_19(client, personas, correction):
    client.force_login(personas.secretariat)
    decide = reverse("admin:masterpoints_correctionrequest_decide", args=[correction.pk])
    response = client.post(decide, {"grant": "no", "reason": "Nej"}, follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == queue()
    assert page.count(f"Request #{correction.pk} is decided by the commission of DBf") == 1
    correction.refresh_from_db()
    assert correction.is_open


def test_the_commission_refuses_in_bulk_with_a_reason(client, personas, correction):
    client.force_login(personas.commission)
    client.post(queue(), {"action": "refuse", ACTION_CHECKBOX_NAME: [correction.pk], "apply": "1", "reason": "Ret"})
    correction.refresh_from_db()
    assert (correction.status, correction.decision_reason) == ("refused", "Ret")


def test_directors_and_players_have_no_admin_queue(client, personas):
    for user in (personas.director_a, personas.player):
        client.force_login(user)
        assert client.get(queue()).status_code == 302


# --- foreign MP in the admin (§ 401B) ----------------------------------------------------------------


def test_the_secretariat_registers_faroese_mp_in_the_admin_and_they_are_posted_401b(client, world, personas):
    client.force_login(personas.secretariat)
    response = client.post(
        reverse("admin:masterpoints_foreignpoints_add"),
        {
            "player": world.player.pk,
            "country": "FO",
            "foreign_kind": "BP",
            "foreign_amount": "40",
            "earned_on": "2025-07-12",
            "event": "Tórshavn",
        },
    )
    assert response.status_code == 302
    assert ForeignPoints.objects.get().award.units == 40


def test_a_registration_the_rules_refuse_shows_the_reason_in_the_admin_form_401b(client, world, personas):
    client.force_login(personas.secretariat)
    response = client.post(
        reverse("admin:masterpoints_foreignpoints_add"),
        {
            "player": world.player.pk,
            "country": "NO",
            "foreign_kind": "gull",
            "foreign_amount": "1",
            "earned_on": "2025-07-12",
        },
    )
    assert response.status_code == 200
    assert "conversion table" in str(response.context["adminform"].form.non_field_errors())
    assert not ForeignPoints.objects.exists()


def test_the_secretariat_approves_swedish_mp_with_the_admin_action_401b(client, world, personas):
    ForeignConversion.objects.create(
        federation=world.dbf, country="SE", foreign_kind="silver", foreign_decimals=1, dbf_kind="SP", factor=1
    )
    client.force_login(personas.secretariat)
    client.post(
        reverse("admin:masterpoints_foreignpoints_add"),
        {
            "player": world.player.pk,
            "country": "SE",
            "foreign_kind": "silver",
            "foreign_amount": "2.5",
            "earned_on": "2025-07-12",
        },
    )
    pending = ForeignPoints.objects.get()
    assert pending.status == "pending"
    changelist = reverse("admin:masterpoints_foreignpoints_changelist")
    client.post(changelist, {"action": "approve", ACTION_CHECKBOX_NAME: [pending.pk], "apply": "1", "reason": ""})
    pending.refresh_from_db()
    assert (pending.status, pending.award.kind, pending.award.units) == ("approved", "SP", 25)


def test_the_commission_may_not_register_foreign_mp(client, personas):
    client.force_login(personas.commission)
    assert client.get(reverse("admin:masterpoints_foreignpoints_add")).status_code == 403


# --- HBS: the transition period and its documents (transition rule 6) ------------------------------------


def test_the_admin_refuses_an_hbs_window_longer_than_one_year_with_its_dates_rule_6_h12(client, world):
    """Transition rule 6 ("U prijelaznom razdoblju od jedne godine"): the secretariat's window form names the
    rule, the window's dates and the last day allowed (H-12); a year to the day is saved and audited."""
    tajnik = admin_rows.hbs_secretariat(world)
    client.force_login(tajnik)
    add = reverse("admin:masterpoints_correctionwindow_add")
    values = {"federation": world.hbs.pk, "opens_on": "2025-03-01", "closes_on": "2026-08-31", "note": "prijelaz"}
    response = client.post(add, values)
    assert response.status_code == 200
    errors = " ".join(response.context["adminform"].form.non_field_errors())
    assert "HBS transition rule 6" in errors and "12 months" in errors
    opens, closes = date_format(datetime.date(2025, 3, 1)), date_format(datetime.date(2026, 8, 31))
    assert f"{opens} – {closes}" in errors and date_format(datetime.date(2026, 2, 28)) in errors  # issue 18
    assert not CorrectionWindow.objects.exists()
    assert client.post(add, {**values, "closes_on": "2026-02-28"}).status_code == 302
    window = CorrectionWindow.objects.get()
    assert AuditEvent.objects.filter(action="correction.window.create", target_id=str(window.pk)).exists()
    change = reverse("admin:masterpoints_correctionwindow_change", args=[window.pk])
    assert client.post(change, {**values, "closes_on": "2026-03-01"}).status_code == 200
    window.refresh_from_db()
    assert window.closes_on == datetime.date(2026, 2, 28)


@pytest.fixture
def hbs_player(world, django_user_model):
    """An HBS player with a black-point award from an HBS club tournament, while a window is open today."""
    user = django_user_model.objects.create_user("igrac", "igrac@example.com", "pw")
    player = Player.objects.create(federation=world.hbs, number="4001", first_name="Ivo", last_name="Ivić", user=user)
    hr = make_tournament(world.hbs, world.club_hr, category="black", key="hr")
    award = post_award(player, "black", 7, source="result", tournament=hr)
    today = timezone.localdate()
    CorrectionWindow.objects.create(federation=world.hbs, opens_on=today, closes_on=today + datetime.timedelta(days=30))
    return user, award


def test_an_hbs_player_files_only_with_a_document_rule_6_h14(client, world, personas, award, hbs_player, media):
    """Transition rule 6: "dokumentirano zatražiti ispravak". The form says so; sent without a file it is
    refused at the document field naming the rule (H-14); with one it is filed. DBf's rules ask for no
    documents: its player still files without one."""
    user, hbs_award = hbs_player
    client.force_login(user)
    page = client.get(reverse("corrections:new")).content.decode()
    assert "HBS transition rule 6" in page
    response = client.post(reverse("corrections:new"), {"award": hbs_award.pk, "text": "Krivo mjesto"})
    assert response.status_code == 200
    assert "HBS transition rule 6" in " ".join(response.context["form"].errors["document"])
    assert not CorrectionRequest.objects.exists()
    document = SimpleUploadedFile("rezultati.pdf", b"%PDF-1.4 x", content_type="application/pdf")
    values = {"award": hbs_award.pk, "text": "Krivo mjesto", "document": document}
    response = client.post(reverse("corrections:new"), values)
    assert response.status_code == 302
    assert CorrectionRequest.objects.get().document_name == "rezultati.pdf"
    client.force_login(personas.player)
    assert "rule 6" not in client.get(reverse("corrections:new")).content.decode()
    response = client.post(reverse("corrections:new"), {"award": award.pk, "text": "Forkert plads"})
    assert response.status_code == 302
    assert CorrectionRequest.objects.get(player=world.player).document_name == ""

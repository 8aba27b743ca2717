"""Correction requests (HBS transition rule 6): filing, assignment, decision, ledger entries."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Sum
from django.utils.formats import date_format

from federation.models import AuditEvent, Player
from masterpoints.corrections.services import (
    correction_assign,
    correction_decide,
    correction_request_file,
    correction_window_save,
)
from masterpoints.models import Award, CorrectionRequest, CorrectionWindow
from office.services import officer_assign
from tests.factories import DAY, make_tournament


def balance(player, kind="BP") -> int:
    return Award.objects.filter(player=player, kind=kind).aggregate(total=Sum("units"))["total"] or 0


def file(personas, world, **changes) -> CorrectionRequest:
    values = {"actor": personas.player, "player": world.player, "text": "Vi blev nr. 2, ikke nr. 3."}
    values.update(changes)
    return correction_request_file(**values)


def refused_code(call, **kwargs) -> str:
    with pytest.raises(ValidationError) as caught:
        call(**kwargs)
    return caught.value.code


# --- filing ---------------------------------------------------------------------------------------------


def test_a_player_files_a_request_against_their_award_audited_and_acknowledged_by_mail(
    world, personas, award, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        request = file(personas, world, award=award)
    assert request.tournament == award.tournament, "a request against an award also names its tournament"
    assert request.status == CorrectionRequest.Status.OPEN
    assert AuditEvent.objects.filter(action="correction.file", target_id=str(request.pk)).exists()
    assert mailoutbox[0].to == ["player@example.com"]


def test_a_player_cannot_file_for_another_player(world, personas, tournament):
    other = Player.objects.create(federation=world.dbf, number="99999", first_name="Ole", last_name="Hansen")
    with pytest.raises(PermissionDenied):
        file(personas, world, player=other, tournament=tournament)
    assert not CorrectionRequest.objects.exists()


def test_a_director_files_for_a_player_of_their_clubs_tournament_only(world, personas, tournament):
    assert file(personas, world, actor=personas.director_a, tournament=tournament).requested_by == personas.director_a
    with pytest.raises(PermissionDenied):
        file(personas, world, actor=personas.director_b, tournament=tournament)


def test_a_request_names_a_tournament_or_an_award(world, personas):
    assert refused_code(file, personas=personas, world=world) == "TARGET_REQUIRED"


def test_a_request_against_someone_elses_award_is_refused(world, personas, tournament):
    other = Player.objects.create(federation=world.dbf, number="99999", first_name="Ole", last_name="Hansen")
    theirs = Award.objects.create(
        federation=world.dbf, player=other, kind="BP", units=8, source="result", tournament=tournament, awarded_on=DAY
    )
    assert refused_code(file, personas=personas, world=world, award=theirs) == "AWARD_OTHER_PLAYER"


def test_a_request_about_another_federations_tournament_is_refused(world, personas):
    foreign = make_tournament(world.hbs, world.club_hr, category="black", key="hr")
    code = refused_code(file, personas=personas, world=world, actor=personas.secretariat, tournament=foreign)
    assert code == "OTHER_FEDERATION"


def test_a_request_needs_its_text(world, personas, tournament):
    assert refused_code(file, personas=personas, world=world, tournament=tournament, text="  ") == "TEXT_REQUIRED"


def test_a_document_over_5_mb_or_of_an_odd_type_is_refused(world, personas, tournament):
    big = SimpleUploadedFile("scan.pdf", b"x" * (5 * 1024 * 1024 + 1))
    assert refused_code(file, personas=personas, world=world, tournament=tournament, document=big) == (
        "DOCUMENT_TOO_LARGE"
    )
    script = SimpleUploadedFile("page.html", b"<script>alert(1)</script>")
    assert refused_code(file, personas=personas, world=world, tournament=tournament, document=script) == (
        "DOCUMENT_TYPE"
    )
    assert not CorrectionRequest.objects.exists()


def test_a_document_is_stored_under_a_random_name_with_its_original_name_kept(
    world, personas, tournament, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    request = file(
        personas, world, tournament=tournament, document=SimpleUploadedFile("../../resultat.pdf", b"%PDF-1.4 x")
    )
    assert request.document_name == "resultat.pdf"
    assert request.document.name.startswith("corrections/") and "resultat" not in request.document.name
    with request.document.open("rb") as handle:
        assert handle.read() == b"%PDF-1.4 x"


@pytest.fixture
def hbs_claim(world, django_user_model):
    """An HBS player (with a login) and a request of theirs against an HBS club tournament, not yet filed."""
    user = django_user_model.objects.create_user("igrac", "igrac@example.com", "pw")
    player = Player.objects.create(federation=world.hbs, number="4001", first_name="Ivo", last_name="Ivić", user=user)
    hr_tournament = make_tournament(world.hbs, world.club_hr, category="black", key="hr")
    return {"actor": user, "player": player, "tournament": hr_tournament, "text": "Nedostaju bodovi."}


def scan() -> SimpleUploadedFile:
    return SimpleUploadedFile("rezultati.pdf", b"%PDF-1.4 rezultati")


def test_hbs_takes_requests_only_in_an_open_transition_window_rule_6(world, hbs_claim, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    with pytest.raises(ValidationError) as caught:
        correction_request_file(**hbs_claim, document=scan(), today=datetime.date(2025, 6, 1))
    assert caught.value.code == "WINDOW_CLOSED"
    assert "rule 6" in caught.value.messages[0]
    CorrectionWindow.objects.create(
        federation=world.hbs, opens_on=datetime.date(2025, 1, 1), closes_on=datetime.date(2025, 12, 31)
    )
    correction_request_file(**hbs_claim, document=scan(), today=datetime.date(2025, 6, 1))
    with pytest.raises(ValidationError) as caught:
        correction_request_file(**hbs_claim, document=scan(), today=datetime.date(2026, 1, 1))
    assert caught.value.code == "WINDOW_CLOSED"
    shown = [date_format(datetime.date(2025, 1, 1)), date_format(datetime.date(2025, 12, 31))]
    assert f"{shown[0]} – {shown[1]}" in caught.value.messages[0]  # in the reader's locale (issue 18)


def test_an_hbs_request_without_a_document_is_refused_naming_rule_6_h14(world, hbs_claim, settings, tmp_path):
    """Transition rule 6: a player may "dokumentirano zatražiti ispravak" (ask with documents); H-14: the
    request carries an attached file, the text alone documents nothing, an empty file neither."""
    settings.MEDIA_ROOT = tmp_path
    CorrectionWindow.objects.create(
        federation=world.hbs, opens_on=datetime.date(2025, 1, 1), closes_on=datetime.date(2025, 12, 31)
    )
    on = datetime.date(2025, 6, 1)
    for document in (None, SimpleUploadedFile("prazno.pdf", b"")):
        with pytest.raises(ValidationError) as caught:
            correction_request_file(**hbs_claim, document=document, today=on)
        assert caught.value.code == "DOCUMENT_REQUIRED"
        assert "HBS transition rule 6" in caught.value.messages[0] and "5 MB" in caught.value.messages[0]
    assert not CorrectionRequest.objects.exists()
    filed = correction_request_file(**hbs_claim, document=scan(), today=on)
    assert filed.document_name == "rezultati.pdf"


def window_save(actor, federation, opens_on, closes_on, pk=None) -> CorrectionWindow:
    window = CorrectionWindow(pk=pk, federation=federation, opens_on=opens_on, closes_on=closes_on)
    return correction_window_save(actor=actor, window=window)


def test_a_correction_window_longer_than_one_year_is_refused_with_its_dates_rule_6_h12(world, django_user_model):
    """Transition rule 6: "U prijelaznom razdoblju od jedne godine" (a transition period of one year). H-12:
    a window from 1 January lasts at most until 31 December; the refusal names the rule, the window's dates
    and the limit."""
    tajnik = django_user_model.objects.create_user("tajnik", "t@example.com", "pw")
    officer_assign(actor=None, user=tajnik, role="secretariat", federation=world.hbs)
    with pytest.raises(ValidationError) as caught:
        window_save(tajnik, world.hbs, datetime.date(2025, 1, 1), datetime.date(2026, 1, 1))
    message = caught.value.messages[0]
    assert caught.value.code == "WINDOW_TOO_LONG"
    assert "HBS transition rule 6" in message and "12 months" in message
    opens, closes, limit = (date_format(datetime.date(*day)) for day in ((2025, 1, 1), (2026, 1, 1), (2025, 12, 31)))
    assert opens == "2025-01-01"  # English DATE_FORMAT, ISO (issue 38) (issue 18: dates in the reader's locale)
    assert f"{opens} – {closes}" in message and limit in message
    assert not CorrectionWindow.objects.exists()
    window = window_save(tajnik, world.hbs, datetime.date(2025, 1, 1), datetime.date(2025, 12, 31))
    assert AuditEvent.objects.filter(action="correction.window.create", target_id=str(window.pk)).exists()
    with pytest.raises(ValidationError) as caught:  # changing it later is checked the same way
        window_save(tajnik, world.hbs, datetime.date(2025, 1, 1), datetime.date(2026, 3, 1), pk=window.pk)
    assert caught.value.code == "WINDOW_TOO_LONG"
    window.refresh_from_db()
    assert window.closes_on == datetime.date(2025, 12, 31)


def test_windows_together_stay_within_the_one_transition_year_h12(world, django_user_model):
    """H-12: rule 6 sets one period of one year, so a second window cannot stretch it; a period opened on
    29 February ends on 28 February."""
    tajnik = django_user_model.objects.create_user("tajnik", "t@example.com", "pw")
    officer_assign(actor=None, user=tajnik, role="secretariat", federation=world.hbs)
    window_save(tajnik, world.hbs, datetime.date(2024, 2, 29), datetime.date(2024, 5, 31))
    with pytest.raises(ValidationError) as caught:
        window_save(tajnik, world.hbs, datetime.date(2024, 11, 1), datetime.date(2025, 3, 1))
    message = caught.value.messages[0]
    assert date_format(datetime.date(2024, 2, 29)) in message and date_format(datetime.date(2025, 2, 28)) in message
    assert window_save(tajnik, world.hbs, datetime.date(2024, 11, 1), datetime.date(2025, 2, 28)).pk


def test_dbf_sets_no_correction_window_its_requests_are_taken_at_any_time(world, personas):
    """DBf's rules have no transition period (no ``correction_window_rule``): a window is refused."""
    with pytest.raises(ValidationError) as caught:
        window_save(personas.secretariat, world.dbf, datetime.date(2025, 1, 1), datetime.date(2025, 3, 1))
    assert caught.value.code == "WINDOW_NOT_IN_RULES"


def test_dbf_takes_requests_without_a_window(world, personas, tournament):
    assert file(personas, world, tournament=tournament, today=datetime.date(2031, 1, 1)).pk


# --- the commission -------------------------------------------------------------------------------------


def test_the_commission_assigns_a_request_to_one_of_its_members(world, personas, tournament):
    request = file(personas, world, tournament=tournament)
    correction_assign(actor=personas.secretariat, correction=request, assignee=personas.commission)
    request.refresh_from_db()
    assert (request.status, request.assigned_to) == ("assigned", personas.commission)
    assert refused_code(
        correction_assign, actor=personas.commission, correction=request, assignee=personas.director_a
    ) == ("ASSIGNEE_NOT_COMMISSION")
    with pytest.raises(PermissionDenied):
        correction_assign(actor=personas.player, correction=request, assignee=personas.commission)


def test_granting_posts_a_correction_entry_and_changes_the_balance_and_mails_the_requester(
    world, personas, award, mailoutbox, django_capture_on_commit_callbacks
):
    request = file(personas, world, award=award)
    with django_capture_on_commit_callbacks(execute=True):
        (entry,) = correction_decide(
            actor=personas.commission, correction=request, grant=True, reason="Pladsen var 2", adjustments=[("BP", 8)]
        )
    assert (entry.source, entry.kind, entry.units, entry.tournament) == ("correction", "BP", 8, award.tournament)
    assert entry.awarded_on == DAY, "a correction of a tournament is dated like the tournament"
    assert balance(world.player) == 24
    request.refresh_from_db()
    assert (request.status, request.decided_by, request.decision_reason) == (
        "granted",
        personas.commission,
        "Pladsen var 2",
    )
    decided = AuditEvent.objects.get(action="correction.decide")
    assert decided.payload["entries"] == [{"award": entry.pk, "kind": "BP", "units": 8, "source": "correction"}]
    # The player's home club writes Danish (the federation's language): "imødekommet" is "granted".
    assert any("player@example.com" in mail.to and "imødekommet" in mail.subject for mail in mailoutbox)


def test_granting_can_reverse_the_whole_award_without_editing_it(world, personas, award):
    request = file(personas, world, award=award)
    (reversal,) = correction_decide(
        actor=personas.commission, correction=request, grant=True, reason="Spillede ikke", reverse_award=True
    )
    assert (reversal.source, reversal.units, reversal.reverses) == ("reversal", -16, award)
    assert balance(world.player) == 0
    assert Award.objects.get(pk=award.pk).units == 16, "the ledger row itself is never changed"
    again = file(personas, world, award=award)
    assert refused_code(
        correction_decide, actor=personas.commission, correction=again, grant=True, reason="x", reverse_award=True
    ) == ("ALREADY_REVERSED")


def test_refusing_posts_nothing_and_needs_a_reason(world, personas, award):
    request = file(personas, world, award=award)
    assert refused_code(correction_decide, actor=personas.commission, correction=request, grant=False, reason="") == (
        "REASON_REQUIRED"
    )
    assert (
        correction_decide(actor=personas.commission, correction=request, grant=False, reason="Resultatet er ret") == []
    )
    assert balance(world.player) == 16
    assert refused_code(
        correction_decide,
        actor=personas.commission,
        correction=request,
        grant=True,
        reason="x",
        adjustments=[("BP", 1)],
    ) == ("ALREADY_DECIDED")


def test_only_the_commission_decides_rule_6(world, personas, award):
    request = file(personas, world, award=award)
    for someone in (personas.secretariat, personas.director_a, personas.player):
        with pytest.raises(PermissionDenied):
            correction_decide(actor=someone, correction=request, grant=False, reason="Nej")


@pytest.mark.parametrize(
    ("target", "options", "code"),
    [
        ("award", {}, "NOTHING_TO_POST"),
        ("tournament", {"reverse_award": True}, "NO_AWARD_TO_REVERSE"),
        ("award", {"adjustments": [("black", 5)]}, "KIND_NOT_OF_SCHEME"),
        ("award", {"adjustments": [("BP", 0)]}, "AMOUNT_ZERO"),
        ("award", {"adjustments": [("BP", -17)]}, "BALANCE_NEGATIVE"),
        ("award", {"adjustments": [("SP", -1)]}, "BALANCE_NEGATIVE"),
    ],
)
def test_a_grant_that_cannot_be_posted_is_refused_and_posts_nothing(world, personas, award, target, options, code):
    request = file(personas, world, **{target: award if target == "award" else award.tournament})
    kwargs = {"actor": personas.commission, "correction": request, "grant": True, "reason": "Rettes", **options}
    assert refused_code(correction_decide, **kwargs) == code
    assert Award.objects.count() == 1
    request.refresh_from_db()
    assert request.is_open


def test_a_commission_member_of_another_federation_cannot_decide(world, personas, award, django_user_model):
    other = django_user_model.objects.create_user("povjerenstvo", "p@example.com", "pw")
    officer_assign(actor=None, user=other, role="commission", federation=world.hbs)
    request = file(personas, world, award=award)
    with pytest.raises(PermissionDenied):
        correction_decide(actor=other, correction=request, grant=True, reason="x", adjustments=[("BP", 1)])


def test_the_same_request_sent_twice_is_filed_once(personas, world, award):
    """A double click on the form files one request, not two (design.md § Invariants)."""
    first = file(personas, world, award=award)
    again = file(personas, world, award=award)
    assert again.pk == first.pk
    assert CorrectionRequest.objects.count() == 1
    other = file(personas, world, award=award, text="Og spil 7 blev scoret forkert.")
    assert other.pk != first.pk

"""The edges of the results upload through its real callers: who may reach each step (403/404), the
refusals the director reads on the preview (each naming what is wrong), and the checks of the preview
that a well-formed club evening never meets (a date in the future, the same file twice, a resolution to a
number nobody holds, the § 452A playing time chosen as none, a § 403A1 claim of an event DBf never
announced)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from clubs.models import PlayingTime
from masterpoints.uploads.claims import engine_special
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.selectors import upload_organisers
from masterpoints.uploads.services import (
    results_upload_choose_playing_time,
    results_upload_confirm,
    results_upload_create,
    results_upload_discard,
    results_upload_resolve,
)
from office.services import officer_assign
from tests.factories import make_players, make_upload, pairs_from_numbers, usebio_pairs
from tournaments.models import ResultUpload, SimultaneousEvent, Tournament

MONDAY = datetime.date(2025, 10, 6)  # a Monday of the season 2025/26
NUMBERS = [str(70001 + i) for i in range(24)]
CLUB_A = "1001"  # club A of tests/conftest.py


@pytest.fixture
def members(world):
    return make_players(world.dbf, NUMBERS)


def monday_file(numbers=NUMBERS, *, day: datetime.date = MONDAY) -> bytes:
    return usebio_pairs(club_number=CLUB_A, date=day, name="Mandag", sections=[pairs_from_numbers(numbers)], boards=24)


def pending(world, actor, data: bytes | None = None, **facts) -> ResultUpload:
    """A BP club evening of club A, stored as director A uploads it."""
    return make_upload(world.dbf, world.club_a, data or monday_file(), actor=actor, category="BP", **facts)


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def codes(upload: ResultUpload) -> set[str]:
    return {issue.code for issue in build_preview(upload).issues}


# --- who reaches the upload form ---------------------------------------------------------------------------


def test_a_player_without_an_office_is_refused_the_upload_form_with_who_may_upload(client, personas):
    """Permission: only club directors, region officers and the secretariat upload results; a player gets a
    403 saying so."""
    client.force_login(personas.player)
    response = client.get(reverse("uploads:upload"))
    assert response.status_code == 403
    assert "Only club directors, region officers and the secretariat upload results." in response.content.decode()


def test_an_office_with_no_club_or_region_to_upload_for_is_refused_the_upload_form(client, personas):
    """Permission: the commission holds an office in DBf but organises nothing, so it has no organiser to
    upload for and the form is refused (403), as for a player."""
    client.force_login(personas.commission)
    assert client.get(reverse("uploads:upload")).status_code == 403


def test_an_anonymous_user_has_no_organiser_to_upload_for(world):
    """Permission: the reads of the upload offer nobody who is not logged in an organiser."""
    assert upload_organisers(AnonymousUser()) == {}


def test_a_superuser_may_upload_for_every_federation_and_its_federation_itself(world, django_user_model):
    """Permission: a superuser is staff of every federation: each club and region, and the federation as
    organiser (its own events)."""
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root")
    found = upload_organisers(root)
    assert set(found) == {world.dbf, world.hbs}
    assert f"federation:{world.hbs.pk}" in [value for value, _label, _obj in found[world.hbs]]
    assert f"club:{world.club_hr.pk}" in [value for value, _label, _obj in found[world.hbs]]


def test_the_secretariat_of_two_federations_chooses_which_one_it_uploads_for(client, world, personas):
    """H-1 vs § 403: the form asks for the facts of the chosen federation's rules: HBS's strength S (H-1),
    not DBf's § 405B5 rows."""
    officer_assign(actor=None, user=personas.secretariat, role="secretariat", federation=world.hbs)
    client.force_login(personas.secretariat)
    response = client.get(reverse("uploads:upload"), {"federation": str(world.hbs.pk)})
    assert response.status_code == 200
    assert response.context["federation"] == world.hbs
    form = response.context["form"]
    assert "strength" in form.fields and "split_by_strength" not in form.fields


# --- the upload form's refusals ----------------------------------------------------------------------------


def test_a_claim_of_both_a_simultaneous_event_and_a_top16_is_refused_naming_both_rules(
    client, world, personas, members
):
    """§ 403A1 vs § 403A2: a tournament is either a simultaneous event DBf announced or a club's top-16,
    never both; the form refuses the claim and nothing is stored."""
    event = SimultaneousEvent.objects.create(
        federation=world.dbf, name="Klubsølv 2025", kind="klubsolv", starts_on=MONDAY, ends_on=MONDAY
    )
    client.force_login(personas.director_a)
    values = {
        "organiser": f"club:{world.club_a.pk}",
        "category": "SP",
        "file": SimpleUploadedFile("mandag.xml", monday_file(), content_type="text/xml"),
        "simultaneous_event": str(event.pk),
        "special": "top16",
    }
    response = client.post(reverse("uploads:upload"), values)
    assert response.status_code == 200
    assert response.context["form"].errors["special"] == [
        "A tournament is either a simultaneous event (§ 403A1) or a top-16 (§ 403A2)."
    ]
    assert not ResultUpload.objects.exists()


def test_the_service_refuses_a_file_above_the_size_limit_for_the_command_line_too(world, settings):
    """Bound: every number from outside has one; the service itself refuses a file above
    RESULTS_UPLOAD_MAX_BYTES (the server's own import bypasses the web form) and stores nothing."""
    settings.RESULTS_UPLOAD_MAX_BYTES = 100
    with pytest.raises(ValidationError) as refused:
        make_upload(world.dbf, world.club_a, b"x" * 101, category="BP")
    assert refused.value.code == "FILE_TOO_LARGE"
    assert not ResultUpload.objects.exists()


# --- who may act on an upload ------------------------------------------------------------------------------


def test_a_region_officer_uploads_for_the_region_and_a_director_may_not(world, personas):
    """Permission: region officers upload for their region (the district's events); a club director of the
    region may not, and nothing is stored for them."""
    facts = {"organiser_kind": "district", "category": "BP", "form": "", "boards": None}
    stored = results_upload_create(
        actor=personas.district_officer,
        federation=world.dbf,
        club=None,
        region=world.district,
        data=monday_file(),
        filename="fyn.xml",
        facts=facts,
    )
    assert stored.region == world.district
    with pytest.raises(PermissionDenied):
        results_upload_create(
            actor=personas.director_a,
            federation=world.dbf,
            club=None,
            region=world.district,
            data=monday_file(),
            filename="fyn.xml",
            facts=facts,
        )
    assert ResultUpload.objects.count() == 1


def test_another_clubs_director_gets_403_on_every_step_of_an_upload(client, world, personas, members):
    """Permission on every view: director B may not resolve, choose the encoding or the playing time of, or
    discard club A's upload."""
    upload = pending(world, personas.director_a)
    client.force_login(personas.director_b)
    for name, data in (
        ("uploads:preview", {"player_key": "x", "resolution": "guest"}),
        ("uploads:encoding", {"encoding": ""}),
        ("uploads:playing_time", {"playing_time": "none"}),
        ("uploads:discard", {}),
    ):
        assert client.post(reverse(name, args=[upload.pk]), data).status_code == 403, name
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.PENDING and upload.resolutions == {}


# --- the preview's steps -----------------------------------------------------------------------------------


def test_resolving_as_a_member_without_a_number_is_refused_with_what_to_give(client, world, personas, members):
    """The resolution of an unknown player as "this member" needs the member's registration number; without
    one the preview says so and records nothing."""
    upload = pending(world, personas.director_a, monday_file([*NUMBERS[:23], "99999"]))
    client.force_login(personas.director_a)
    response = client.post(
        reverse("uploads:preview", args=[upload.pk]), {"player_key": "k", "resolution": "member"}, follow=True
    )
    assert "Give the member's registration number." in messages_of(response)
    upload.refresh_from_db()
    assert upload.resolutions == {}


def test_a_discarded_upload_can_no_longer_be_resolved_encoded_timed_or_discarded(client, world, personas, members):
    """Nothing is half-written: once discarded, every later step is refused with the upload's state
    ("already Discarded") and changes nothing."""
    upload = pending(world, personas.director_a)
    client.force_login(personas.director_a)
    response = client.post(reverse("uploads:discard", args=[upload.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("uploads:upload")
    assert "The upload was discarded; nothing was awarded." in messages_of(response)
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.DISCARDED
    already = f"This upload is already {upload.get_status_display()}."
    for name, data in (
        ("uploads:preview", {"player_key": "k", "resolution": "guest"}),
        ("uploads:encoding", {"encoding": "cp1252"}),
        ("uploads:playing_time", {"playing_time": "none"}),
        ("uploads:discard", {}),
    ):
        response = client.post(reverse(name, args=[upload.pk]), data, follow=True)
        assert already in messages_of(response), name
    upload.refresh_from_db()
    assert upload.resolutions == {} and "encoding" not in upload.facts and "playing_time" not in upload.facts


def test_an_unknown_resolution_is_refused_by_the_service_naming_it(world, personas, members):
    """A resolution is one of member, guest or the office's case; anything else is refused, naming it."""
    upload = pending(world, personas.director_a)
    with pytest.raises(ValidationError) as refused:
        results_upload_resolve(actor=personas.director_a, upload=upload, player_key="k", resolution="winner")
    assert refused.value.messages == ["Unknown choice winner."]
    upload.refresh_from_db()
    assert upload.resolutions == {}


def test_a_confirmed_upload_cannot_be_discarded(world, personas, members):
    """Nothing is half-written: a confirmed upload's awards are in the ledger, so discarding it is refused
    with its state; it stays confirmed."""
    upload = pending(world, personas.director_a)
    results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    with pytest.raises(ValidationError) as refused:
        results_upload_discard(actor=personas.director_a, upload=upload)
    upload.refresh_from_db()
    assert refused.value.messages == [f"This upload is already {upload.get_status_display()}."]
    assert upload.status == ResultUpload.Status.CONFIRMED


def test_an_upload_without_playing_times_has_no_playing_time_to_choose_404(client, world, personas, members):
    """§ 452A counts a club's weekly sessions: a region's tournament has none, so its playing-time step is
    no page at all (404)."""
    facts = {"organiser_kind": "district", "category": "BP", "form": "", "boards": None}
    upload = results_upload_create(
        actor=personas.district_officer,
        federation=world.dbf,
        club=None,
        region=world.district,
        data=monday_file(),
        filename="fyn.xml",
        facts=facts,
    )
    client.force_login(personas.district_officer)
    assert client.post(reverse("uploads:playing_time", args=[upload.pk]), {"playing_time": "none"}).status_code == 404
    with pytest.raises(ValidationError) as refused:
        results_upload_choose_playing_time(actor=personas.district_officer, upload=upload, playing_time="1")
    assert refused.value.code == "PLAYING_TIME_OTHER_CLUB"


def test_none_as_the_playing_time_confirms_a_tournament_outside_the_weekly_sessions_452a(
    client, world, personas, members
):
    """§ 452A "hver ugentlig spilleperiode for sig", D-Q27: the director may say the tournament was played
    outside the club's weekly sessions (none), overriding the Monday default; it is confirmed without one."""
    PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")
    upload = pending(world, personas.director_a)
    client.force_login(personas.director_a)
    response = client.post(reverse("uploads:playing_time", args=[upload.pk]), {"playing_time": "none"})
    assert response.status_code == 302
    upload.refresh_from_db()
    assert upload.facts["playing_time"] == "none"
    preview = build_preview(upload)
    assert (preview.playing_time, preview.playing_time_source) == (None, "chosen")
    tournament = results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    assert tournament.playing_time is None


def test_a_playing_time_that_is_not_one_of_the_form_choices_is_refused_on_the_preview(client, world, personas, members):
    """§ 452A: the playing time is one of the organising club's; an id the form does not offer is refused
    with the form's message and the fact is not recorded."""
    PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")
    theirs = PlayingTime.objects.create(club=world.club_b, weekday=0, part_of_day="evening")
    upload = pending(world, personas.director_a)
    client.force_login(personas.director_a)
    response = client.post(
        reverse("uploads:playing_time", args=[upload.pk]), {"playing_time": str(theirs.pk)}, follow=True
    )
    assert any(str(theirs.pk) in text for text in messages_of(response))
    upload.refresh_from_db()
    assert "playing_time" not in upload.facts


# --- the checks of the preview -----------------------------------------------------------------------------


def test_an_event_dated_after_today_is_an_error_naming_the_date(world, personas, members):
    """The results of an event not yet played are refused: DATE_IN_FUTURE names the file's date and the
    confirm writes nothing."""
    later = timezone.localdate() + datetime.timedelta(days=30)
    upload = pending(world, personas.director_a, monday_file(day=later))
    (issue,) = [issue for issue in build_preview(upload).issues if issue.code == "DATE_IN_FUTURE"]
    assert date_format(later) in str(issue.message)  # in the reader's locale (issue 18)
    with pytest.raises(ValidationError):
        results_upload_confirm(actor=personas.director_a, upload=upload, acknowledge_warnings=True)
    assert not Tournament.objects.exists()


def test_the_same_file_uploaded_again_after_its_confirm_warns_with_the_day_it_was_confirmed(world, personas, members):
    """DUPLICATE_FILE: the very bytes confirmed before are a warning naming the day of that confirm, so the
    director does not post one evening twice by mistake (the confirm then needs the tick)."""
    data = monday_file()
    results_upload_confirm(
        actor=personas.director_a, upload=pending(world, personas.director_a, data), acknowledge_warnings=True
    )
    again = pending(world, personas.director_a, data)
    (issue,) = [issue for issue in build_preview(again).issues if issue.code == "DUPLICATE_FILE"]
    assert date_format(timezone.localdate()) in str(issue.message)  # in the reader's locale (issue 18)
    with pytest.raises(ValidationError) as refused:
        results_upload_confirm(actor=personas.director_a, upload=again, acknowledge_warnings=False)
    assert refused.value.code == "warnings"


def test_a_resolution_to_a_number_nobody_holds_stays_unresolved_naming_the_number(world, personas, members):
    """An upload never creates a player (design.md): a director's "this member" with a number not on the
    register leaves the player unresolved, RESOLUTION_NUMBER_UNKNOWN naming the number."""
    upload = pending(world, personas.director_a, monday_file([*NUMBERS[:23], "DK-99"]))
    (line,) = build_preview(upload).unresolved
    results_upload_resolve(
        actor=personas.director_a, upload=upload, player_key=line.key, resolution="member", number="88888"
    )
    upload.refresh_from_db()
    preview = build_preview(upload)
    (issue,) = [issue for issue in preview.issues if issue.code == "RESOLUTION_NUMBER_UNKNOWN"]
    assert "88888" in str(issue.message)
    assert [line.key for line in preview.unresolved] == [line.key]


def test_a_claim_of_a_simultaneous_event_dbf_never_announced_is_refused_and_scored_as_standard_403a1(
    world, personas, members
):
    """§ 403A1 "udskrevet af DBf": an event id another federation recorded is not DBf's; the claim is
    refused (SIMULTANEOUS_UNKNOWN) and the engine scores the event as a standard one, never as § 433E."""
    foreign = SimultaneousEvent.objects.create(
        federation=world.hbs, name="Simultanka", kind="other", starts_on=MONDAY, ends_on=MONDAY
    )
    upload = make_upload(
        world.dbf,
        world.club_a,
        monday_file(),
        actor=personas.director_a,
        category="SP",
        special="simultaneous",
        simultaneous_event=str(foreign.pk),
        playing_time="",
    )
    preview = build_preview(upload)
    assert "SIMULTANEOUS_UNKNOWN" in {issue.code for issue in preview.issues}
    assert preview.simultaneous_event is None
    assert engine_special(preview) == "standard"

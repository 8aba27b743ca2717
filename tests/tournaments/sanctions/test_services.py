"""Sanctions (DBf § 403): filing checks, the district's and the secretariat's steps, e-mails."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubs.models import Club, PlayingTime
from federation.models import AuditEvent
from office.services import officer_assign
from tournaments.models import Sanction, SanctionApplication
from tournaments.sanctions.rules import add_months, season_of
from tournaments.sanctions.services import sanction_apply, sanction_decide, sanction_recommend

TODAY = datetime.date(2025, 3, 1)
DAY = datetime.date(2025, 6, 14)


@pytest.fixture
def monday(world):
    return PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")


def apply(world, actor, monday=None, **changes) -> SanctionApplication:
    values = {
        "club": world.club_a,
        "name": "Forårsturnering",
        "date": DAY,
        "entry_deadline": DAY - datetime.timedelta(days=7),
        "advertised_on": DAY - datetime.timedelta(days=40),
        "advertisement": "dansk_bridge_website",
        "form": "pairs",
        "boards": 48,
        "category": "SP",
        "quota": "full",
        "playing_time": monday,
        "today": TODAY,
    }
    values.update(changes)
    return sanction_apply(actor=actor, **values)


def codes(error: ValidationError) -> set[str]:
    return {problem.code for problem in error.error_list}


def refused(world, actor, monday=None, **changes) -> set[str]:
    with pytest.raises(ValidationError) as caught:
        apply(world, actor, monday, **changes)
    return codes(caught.value)


def gp(monday, **changes):
    return {
        "category": "GP",
        "national": True,
        "advertisement": "quarter_page",
        "boards": 60,
        "monday": monday,
        **changes,
    }


# --- filing ---------------------------------------------------------------------------------------------


def test_an_sp_application_meeting_403b_is_filed_audited_and_mailed_to_district_and_club(
    world, personas, monday, mailoutbox, django_capture_on_commit_callbacks
):
    world.club_a.email = "klub@example.com"
    world.club_a.save()
    with django_capture_on_commit_callbacks(execute=True):
        application = apply(world, personas.director_a, monday)
    assert application.status == SanctionApplication.Status.FILED
    assert application.district == world.district
    assert not application.secretariat_decides, "SP within the quota is the district's (§ 403B4)"
    assert AuditEvent.objects.filter(action="sanction.apply", target_id=str(application.pk)).exists()
    recipients = {address for mail in mailoutbox for address in mail.to}
    assert "district@example.com" in recipients
    assert {"klub@example.com", "director_a@example.com"} <= recipients
    assert all(mail.alternatives and mail.alternatives[0][1] == "text/html" for mail in mailoutbox)


@pytest.mark.parametrize(("language", "weekday"), [("en", "Saturday"), ("", "lørdag")])
def test_the_club_receipt_is_in_the_clubs_language_else_the_federations(
    world, personas, monday, mailoutbox, django_capture_on_commit_callbacks, language, weekday
):
    world.club_a.email, world.club_a.language = "klub@example.com", language  # DBf's default language is da
    world.club_a.save()
    with django_capture_on_commit_callbacks(execute=True):
        apply(world, personas.director_a, monday)
    receipt = next(mail for mail in mailoutbox if "klub@example.com" in mail.to)
    assert weekday in receipt.body  # 14 June 2025 is a Saturday
    assert weekday in receipt.alternatives[0][0]


def test_application_filed_less_than_two_months_ahead_is_refused_403b7(world, personas, monday):
    assert "FILED_TOO_LATE" in refused(world, personas.director_a, monday, today=DAY - datetime.timedelta(days=50))
    assert not SanctionApplication.objects.exists()


def test_a_date_before_every_rule_set_is_refused_as_too_late_not_an_error_403b7(world, personas, monday):
    old = datetime.date(2020, 6, 1)
    problems = refused(world, personas.director_a, monday, date=old, entry_deadline=old, advertised_on=old)
    assert "FILED_TOO_LATE" in problems


def test_exactly_two_months_ahead_is_in_time_403b7(world, personas, monday):
    apply(world, personas.director_a, monday, today=datetime.date(2025, 4, 14))
    assert add_months(datetime.date(2024, 12, 31), 2) == datetime.date(2025, 2, 28)


def test_a_club_without_a_district_cannot_file_403b7(world, personas):
    lonely = Club.objects.create(federation=world.dbf, number="1003", name="Ensom")
    with pytest.raises(ValidationError) as caught:
        apply(world, personas.secretariat, club=lonely, basis="extra")
    assert caught.value.code == "NO_DISTRICT"


def test_an_hbs_club_has_no_sanctions_403(world, personas):
    superuser = type(personas.secretariat).objects.create_superuser("root", "root@example.com", "pw")
    with pytest.raises(ValidationError) as caught:
        apply(world, superuser, club=world.club_hr, basis="extra")
    assert caught.value.code == "NOT_DBF"


def test_a_director_cannot_apply_for_another_club(world, personas, monday):
    with pytest.raises(PermissionDenied):
        apply(world, personas.director_b, monday)
    assert not SanctionApplication.objects.exists()


def test_the_entry_deadline_must_not_lie_after_the_first_day(world, personas, monday):
    problems = refused(world, personas.director_a, monday, entry_deadline=DAY + datetime.timedelta(days=1))
    assert "ENTRY_DEADLINE_AFTER_START" in problems


def test_the_quota_names_a_playing_time_of_the_club_403b1(world, personas):
    other = PlayingTime.objects.create(club=world.club_b, weekday=1, part_of_day="evening")
    assert refused(world, personas.director_a, None) == {"PLAYING_TIME_REQUIRED"}
    assert refused(world, personas.director_a, other) == {"PLAYING_TIME_REQUIRED"}


def test_a_second_full_tournament_per_playing_time_per_year_is_refused_403b1(world, personas, monday):
    apply(world, personas.director_a, monday)
    assert refused(world, personas.director_a, monday, name="Sommer") == {"QUOTA_USED"}


def test_one_half_tournament_per_playing_time_per_year_is_allowed_beside_the_full_one_403b2(world, personas, monday):
    apply(world, personas.director_a, monday)
    apply(world, personas.director_a, monday, name="Sommer", quota="half")
    assert refused(world, personas.director_a, monday, name="Høst", quota="half") == {"QUOTA_USED"}


def test_the_quota_is_per_playing_time_and_per_year_403b1(world, personas, monday):
    tuesday = PlayingTime.objects.create(club=world.club_a, weekday=1, part_of_day="evening")
    apply(world, personas.director_a, monday)
    apply(world, personas.director_a, tuesday, name="Tirsdag")
    next_year = datetime.date(2026, 6, 13)
    apply(
        world, personas.director_a, monday, name="Næste år", date=next_year, entry_deadline=next_year, advertised_on=DAY
    )


def test_a_refused_application_frees_its_quota_403b1(world, personas, monday):
    first = apply(world, personas.director_a, monday)
    sanction_decide(actor=personas.district_officer, application=first, approve=False, reason="For få spil")
    apply(world, personas.director_a, monday, name="Nyt forsøg")


def test_sp_beyond_the_quota_is_possible_and_goes_to_the_secretariat_403b3(world, personas, monday):
    application = apply(world, personas.director_a, basis="extra")
    assert application.playing_time is None
    assert application.secretariat_decides


def test_an_extra_tournament_is_for_sp_only_403b3(world, personas, monday):
    assert "EXTRA_SP_ONLY" in refused(world, personas.director_a, **gp(None, basis="extra"))


def founded(world, year: int | None) -> None:
    """Record club A's founding year, as the secretariat does in the admin (§ 403B4, D-Q26)."""
    world.club_a.founding_year = year
    world.club_a.save(update_fields=["founding_year"])


def refusal_text(world, actor, **changes) -> str:
    with pytest.raises(ValidationError) as caught:
        apply(world, actor, **changes)
    return " ".join(caught.value.messages)


def test_jubilee_gp_needs_a_year_the_club_is_a_multiple_of_five_years_old_403b4_d_q25(world, personas):
    """§ 403B4, D-Q25: GP "i de år, hvor klubben fejrer jubilæum (et med 5 deleligt antal år)", counted from the
    club's founding year on record; the refusal names the founding year and the jubilee years near it."""
    founded(world, 1983)  # 42 years old in 2025
    assert refused(world, personas.director_a, **gp(None, basis="jubilee")) == {"NOT_JUBILEE_YEAR"}
    text = refusal_text(world, personas.director_a, **gp(None, basis="jubilee"))
    assert "founded in 1983" in text and "42 years old in 2025" in text and "§ 403B4" in text
    assert "2023, 2028" in text
    founded(world, 1975)  # 50 years old in 2025
    application = apply(world, personas.director_a, **gp(None, basis="jubilee"))
    assert application.secretariat_decides
    assert application.jubilee_years == 50, "the years are counted from the founding year, not stated"


def test_the_founding_year_itself_is_no_jubilee_403b4_d_q25(world, personas):
    """D-Q25: 0 years is not a jubilee; the first one is the fifth year after the founding."""
    founded(world, 2025)
    text = refusal_text(world, personas.director_a, **gp(None, basis="jubilee"))
    assert "0 years old in 2025" in text and text.endswith("Jubilee years near it: 2030.")


def test_a_jubilee_needs_the_founding_year_on_record_403b4_d_q26(world, personas):
    """D-Q26: without a founding year recorded by the secretariat no year is known to be a jubilee."""
    founded(world, None)
    assert refused(world, personas.director_a, **gp(None, basis="jubilee")) == {"FOUNDING_YEAR_UNKNOWN"}
    assert "Bridgeklubben A has no founding year on record" in refusal_text(
        world, personas.director_a, **gp(None, basis="jubilee")
    )


def test_the_jubilee_sanction_is_for_gp_403b4(world, personas):
    founded(world, 1975)
    assert "JUBILEE_GP_ONLY" in refused(world, personas.director_a, basis="jubilee")


def test_a_third_jubilee_gp_tournament_in_a_year_is_refused_403b4(world, personas):
    founded(world, 1950)
    for name in ("Jubilæum I", "Jubilæum II"):
        apply(world, personas.director_a, **gp(None, basis="jubilee", name=name))
    problems = refused(world, personas.director_a, **gp(None, basis="jubilee", name="III"))
    assert problems == {"JUBILEE_USED"}


def test_gp_gets_no_dispensation_403b6e(world, personas, monday):
    problems = refused(world, personas.director_a, **gp(monday, dispensations=["c"], dispensation_reason="Velgørenhed"))
    assert problems == {"DISPENSATION_NOT_FOR_GP"}


def test_a_dispensation_needs_its_reason_and_a_letter_of_403b5e(world, personas, monday):
    assert refused(world, personas.director_a, monday, dispensations=["c"]) == {"DISPENSATION_REASON_MISSING"}
    problems = refused(world, personas.director_a, monday, dispensations=["a"], dispensation_reason="x")
    assert problems == {"DISPENSATION_UNKNOWN"}


def test_a_closed_tournament_is_refused_403b5b(world, personas, monday):
    assert refused(world, personas.director_a, monday, open_to_all=False) == {"NOT_OPEN"}


def test_a_dispensation_from_b_waives_openness_and_advertising_and_is_recorded_403b5e(world, personas, monday):
    application = apply(
        world,
        personas.director_a,
        monday,
        open_to_all=False,
        advertised_on=DAY,
        dispensations=["b"],
        dispensation_reason="Hele indskuddet går til Kræftens Bekæmpelse",
    )
    assert application.dispensations == ["b"]
    assert application.secretariat_decides, "dispensations are the secretariat's, on the district's word (§ 403B5e)"


def test_advertised_less_than_14_days_before_the_entry_deadline_is_refused_403b5b(world, personas, monday):
    deadline = DAY - datetime.timedelta(days=7)
    problems = refused(world, personas.director_a, monday, advertised_on=deadline - datetime.timedelta(days=13))
    assert problems == {"ADVERTISED_TOO_LATE"}
    apply(world, personas.director_a, monday, advertised_on=deadline - datetime.timedelta(days=14))


def test_gp_must_be_of_national_character_403b6b(world, personas, monday):
    assert refused(world, personas.director_a, **gp(monday, national=False)) == {"NOT_NATIONAL"}


def test_gp_must_be_advertised_with_a_quarter_page_in_dansk_bridge_403b6b(world, personas, monday):
    problems = refused(world, personas.director_a, **gp(monday, advertisement="district_magazine"))
    assert problems == {"ADVERTISEMENT_NOT_ENOUGH"}


def test_sp_pairs_with_too_few_boards_are_refused_403b5d(world, personas, monday):
    # § 405B7c: SP needs 27 boards for half, 42 for full; 26 boards pay nothing.
    assert refused(world, personas.director_a, monday, boards=26) == {"BOARDS_TOO_FEW"}
    apply(world, personas.director_a, monday, boards=27)


def test_club_gp_needs_54_boards_403b6d(world, personas, monday):
    assert refused(world, personas.director_a, **gp(monday, boards=53)) == {"BOARDS_TOO_FEW"}


def test_a_dispensation_from_d_waives_the_board_rule_for_sp_403b5e(world, personas, monday):
    apply(world, personas.director_a, monday, boards=20, dispensations=["d"], dispensation_reason="Velgørenhed")


def test_every_unmet_condition_is_reported_at_once(world, personas, monday):
    problems = refused(
        world,
        personas.director_a,
        monday,
        today=DAY,
        open_to_all=False,
        boards=10,
        advertised_on=DAY,
    )
    assert problems == {"FILED_TOO_LATE", "NOT_OPEN", "ADVERTISED_TOO_LATE", "BOARDS_TOO_FEW"}


# --- the district and the secretariat -------------------------------------------------------------------


def test_the_district_grants_sp_within_the_quota_itself_and_the_club_hears_with_a_copy_to_the_district_403b4(
    world, personas, monday, mailoutbox, django_capture_on_commit_callbacks
):
    application = apply(world, personas.director_a, monday)
    with django_capture_on_commit_callbacks(execute=True):
        sanction = sanction_decide(actor=personas.district_officer, application=application, approve=True)
    application.refresh_from_db()
    assert application.status == SanctionApplication.Status.APPROVED
    assert (sanction.club, sanction.category, sanction.quota, sanction.date) == (world.club_a, "SP", "full", DAY)
    (mail,) = mailoutbox
    assert "director_a@example.com" in mail.to and mail.cc == ["district@example.com"]
    assert AuditEvent.objects.filter(action="sanction.decide").get().payload["approve"] is True


def test_sp_within_the_quota_needs_no_recommendation_403b4(world, personas, monday):
    application = apply(world, personas.director_a, monday)
    with pytest.raises(ValidationError) as caught:
        sanction_recommend(actor=personas.district_officer, application=application, recommend=True)
    assert caught.value.code == "DISTRICT_DECIDES"


def test_gp_goes_to_the_secretariat_with_the_districts_recommendation_403b7(
    world, personas, monday, mailoutbox, django_capture_on_commit_callbacks
):
    world.dbf.contact_email = "sekretariat@example.com"
    world.dbf.save()
    application = apply(world, personas.director_a, **gp(monday))
    assert application.secretariat_decides
    with django_capture_on_commit_callbacks(execute=True):
        sanction_recommend(actor=personas.district_officer, application=application, recommend=True, note="God klub")
    application.refresh_from_db()
    assert application.status == SanctionApplication.Status.RECOMMENDED
    assert application.recommendation == "for"
    to_office = next(mail for mail in mailoutbox if "sekretariat@example.com" in mail.to)
    assert "secretariat@example.com" in to_office.to
    sanction = sanction_decide(actor=personas.secretariat, application=application, approve=True)
    assert sanction.category == "GP"


def test_the_secretariat_cannot_decide_gp_before_the_district_recommends_403b7(world, personas, monday):
    application = apply(world, personas.director_a, **gp(monday))
    with pytest.raises(ValidationError) as caught:
        sanction_decide(actor=personas.secretariat, application=application, approve=True)
    assert caught.value.code == "AWAITS_DISTRICT"
    assert not Sanction.objects.exists()


def test_the_district_cannot_grant_gp_403b7(world, personas, monday):
    application = apply(world, personas.director_a, **gp(monday))
    sanction_recommend(actor=personas.district_officer, application=application, recommend=True)
    with pytest.raises(PermissionDenied):
        sanction_decide(actor=personas.district_officer, application=application, approve=True)


def test_an_officer_of_another_district_may_neither_recommend_nor_decide(world, personas, monday, django_user_model):
    other = django_user_model.objects.create_user("nord", "nord@example.com", "pw")
    officer_assign(actor=None, user=other, role="region_officer", federation=world.dbf, region=world.other_district)
    quota_sp = apply(world, personas.director_a, monday)
    with pytest.raises(PermissionDenied):
        sanction_decide(actor=other, application=quota_sp, approve=True)
    founded(world, 2000)
    gp_application = apply(world, personas.director_a, **gp(None, basis="jubilee"))
    with pytest.raises(PermissionDenied):
        sanction_recommend(actor=other, application=gp_application, recommend=True)


def test_a_club_director_cannot_decide_their_own_application(world, personas, monday):
    application = apply(world, personas.director_a, monday)
    with pytest.raises(PermissionDenied):
        sanction_decide(actor=personas.director_a, application=application, approve=True)


def test_not_recommending_needs_a_note_and_recommending_twice_is_refused_403b7(world, personas, monday):
    application = apply(world, personas.director_a, **gp(monday))
    with pytest.raises(ValidationError) as caught:
        sanction_recommend(actor=personas.district_officer, application=application, recommend=False)
    assert caught.value.code == "NOTE_REQUIRED"
    sanction_recommend(actor=personas.district_officer, application=application, recommend=False, note="Lukket")
    with pytest.raises(ValidationError) as caught:
        sanction_recommend(actor=personas.district_officer, application=application, recommend=True)
    assert caught.value.code == "NOT_AWAITING_DISTRICT"


def test_a_refusal_needs_a_reason_and_a_decision_is_final(world, personas, monday):
    application = apply(world, personas.director_a, monday)
    with pytest.raises(ValidationError) as caught:
        sanction_decide(actor=personas.secretariat, application=application, approve=False)
    assert caught.value.code == "REASON_REQUIRED"
    sanction_decide(actor=personas.secretariat, application=application, approve=False, reason="Ikke åben")
    with pytest.raises(ValidationError) as caught:
        sanction_decide(actor=personas.secretariat, application=application, approve=True)
    assert caught.value.code == "ALREADY_DECIDED"
    assert not Sanction.objects.exists()


def test_a_granted_dispensation_is_recorded_on_the_sanction_403b5e(world, personas, monday):
    application = apply(
        world, personas.director_a, monday, dispensations=["c", "b"], dispensation_reason="Overskud til velgørenhed"
    )
    sanction_recommend(actor=personas.district_officer, application=application, recommend=True)
    sanction = sanction_decide(actor=personas.secretariat, application=application, approve=True)
    assert sanction.dispensations == ["b", "c"]


def test_the_dbf_season_runs_from_16_may_to_15_may_451c():
    assert season_of(datetime.date(2025, 5, 15)) == (datetime.date(2024, 5, 16), datetime.date(2025, 5, 15))
    assert season_of(datetime.date(2025, 5, 16)) == (datetime.date(2025, 5, 16), datetime.date(2026, 5, 15))

"""HBS's list of recognised tournaments (H-1, H-4), tourist approvals (rule 2), internet licences (rule 10)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubs.models import Club
from federation.models import AuditEvent, Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from office.services import officer_assign
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import RecognisedTournament, TouristApproval
from tournaments.recognised import (
    FixedB,
    director_licence_grant,
    director_licence_revoke,
    recognised_tournament_save,
    tourist_approval_decide,
    tourist_approval_request,
    upload_kinds,
)

DAY = datetime.date(2025, 3, 4)
NUMBERS = [str(3001 + i) for i in range(24)]


@pytest.fixture
def tajnik(world, django_user_model):
    user = django_user_model.objects.create_user("tajnik", "tajnik@example.com", "pw")
    officer_assign(actor=None, user=user, role="secretariat", federation=world.hbs)
    return user


@pytest.fixture
def direktor(world, django_user_model):
    user = django_user_model.objects.create_user("direktor", "direktor@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    for number in NUMBERS:
        Player.objects.create(federation=world.hbs, number=number, first_name="Ana", last_name=number)
    return user


def entry(world, tajnik, *, kinds=None, year=2025, club=None, tourist=False, name="Zagreb Open"):
    tournament = RecognisedTournament(federation=world.hbs, year=year, name=name, club=club, tourist=tourist)
    return recognised_tournament_save(
        actor=tajnik, tournament=tournament, kinds=kinds or {"black": Decimal("1"), "red": Decimal("1.5")}
    )


def hbs_upload(world, actor, **facts):
    data = usebio_pairs(
        club_number=world.club_hr.number,
        date=DAY,
        name="Zagreb Open",
        sections=[pairs_from_numbers(NUMBERS, seed=7)],
        boards=24,
    )
    return results_upload_create(
        actor=actor,
        federation=world.hbs,
        club=world.club_hr,
        region=None,
        data=data,
        filename="open.xml",
        facts={"organiser_kind": "club", "category": "black", "strength": "1", "form": "", "boards": None, **facts},
    )


def codes(preview) -> set[str]:
    return {issue.code for issue in preview.issues}


# --- the list --------------------------------------------------------------------------------------------


def test_the_secretariat_lists_a_tournament_with_an_s_per_kind_and_it_is_audited_h_1_h_4(world, tajnik):
    listed = entry(world, tajnik)
    assert listed.kinds == [("black", "1.000"), ("red", "1.500")]
    recognised_tournament_save(actor=tajnik, tournament=listed, kinds={"master": Decimal("2")})
    assert listed.kinds == [("master", "2.000")]
    assert AuditEvent.objects.filter(action__startswith="recognised.").count() == 2


def test_a_listed_tournament_awards_at_least_one_kind_with_a_positive_s_h_4(world, tajnik):
    tournament = RecognisedTournament(federation=world.hbs, year=2025, name="Prazan")
    with pytest.raises(ValidationError) as caught:
        recognised_tournament_save(actor=tajnik, tournament=tournament, kinds={"black": None})
    assert caught.value.code == "NO_KINDS"
    with pytest.raises(ValidationError) as caught:
        recognised_tournament_save(actor=tajnik, tournament=tournament, kinds={"red": Decimal("0")})
    assert caught.value.code == "STRENGTH_NOT_POSITIVE"
    assert not RecognisedTournament.objects.exists()


def test_only_hbs_has_the_list_and_only_its_secretariat_keeps_it_h_1(world, personas, tajnik):
    with pytest.raises(PermissionDenied):
        recognised_tournament_save(
            actor=personas.secretariat,
            tournament=RecognisedTournament(federation=world.hbs, year=2025, name="X"),
            kinds={"black": Decimal("1")},
        )
    with pytest.raises(ValidationError) as caught:
        recognised_tournament_save(
            actor=personas.secretariat,
            tournament=RecognisedTournament(federation=world.dbf, year=2025, name="X"),
            kinds={"black": Decimal("1")},
        )
    assert caught.value.code == "NOT_HBS"


def test_an_upload_of_a_listed_tournament_awards_its_kinds_with_their_s_h_1(world, tajnik, direktor):
    listed = entry(world, tajnik)
    created = hbs_upload(world, direktor, **upload_kinds(listed))
    preview = build_preview(created)
    assert "CATEGORY_NOT_ALLOWED" not in codes(preview)
    tournament = results_upload_confirm(actor=direktor, upload=created, acknowledge_warnings=True)
    assert set(Award.objects.values_list("kind", flat=True)) == {"black", "red"}
    assert tournament.strengths == {"black": "1.000", "red": "1.500"}
    winner_red = Award.objects.filter(player__number=NUMBERS[0], kind="red").get().units
    winner_black = Award.objects.filter(player__number=NUMBERS[0], kind="black").get().units
    assert winner_red > winner_black, "S = 1.5 pays more than S = 1 (H-4)"


def test_a_club_may_not_award_red_points_without_a_list_entry_h_1(world, direktor):
    preview = build_preview(hbs_upload(world, direktor, category="red"))
    assert "CATEGORY_NOT_ALLOWED" in codes(preview)


def test_an_entry_of_another_year_or_club_is_refused_h_1(world, tajnik, direktor):
    other_club = Club.objects.create(federation=world.hbs, number="102", name="BK Split")
    wrong_year = entry(world, tajnik, year=2024, name="Lani")
    wrong_club = entry(world, tajnik, club=other_club, name="Split Open")
    assert "RECOGNISED_WRONG_YEAR" in codes(build_preview(hbs_upload(world, direktor, **upload_kinds(wrong_year))))
    assert "RECOGNISED_OTHER_ORGANISER" in codes(build_preview(hbs_upload(world, direktor, **upload_kinds(wrong_club))))
    own = entry(world, tajnik, club=world.club_hr, name="Zagreb Open kluba")
    assert not codes(build_preview(hbs_upload(world, direktor, **upload_kinds(own)))) & {
        "RECOGNISED_WRONG_YEAR",
        "RECOGNISED_OTHER_ORGANISER",
    }


# --- tourist tournaments (rule 2) ------------------------------------------------------------------------


def test_a_tourist_tournament_scores_only_once_approved_rule_2(
    world, tajnik, direktor, mailoutbox, django_capture_on_commit_callbacks
):
    listed = entry(world, tajnik, tourist=True, name="Ljeto u Poreču")
    created = hbs_upload(world, direktor, **upload_kinds(listed))
    assert "TOURIST_NOT_APPROVED" in codes(build_preview(created))
    approval = tourist_approval_request(
        actor=tajnik,
        tournament=listed,
        organiser="Agencija Sunce",
        place="Poreč",
        starts_on=DAY,
        ends_on=DAY,
        contact_email="sunce@example.com",
    )
    assert "TOURIST_NOT_APPROVED" in codes(build_preview(created))
    with django_capture_on_commit_callbacks(execute=True):
        tourist_approval_decide(actor=tajnik, approval=approval, approve=True)
    assert "TOURIST_NOT_APPROVED" not in codes(build_preview(created))
    assert mailoutbox[0].to == ["sunce@example.com"]


def test_only_a_tourist_tournament_is_approved_and_a_refusal_needs_a_reason_rule_2(world, tajnik, personas):
    plain = entry(world, tajnik)
    with pytest.raises(ValidationError) as caught:
        tourist_approval_request(actor=tajnik, tournament=plain, organiser="X", place="Y", starts_on=DAY, ends_on=DAY)
    assert caught.value.code == "NOT_TOURIST"
    listed = entry(world, tajnik, tourist=True, name="Turist")
    approval = tourist_approval_request(
        actor=tajnik, tournament=listed, organiser="X", place="Y", starts_on=DAY, ends_on=DAY
    )
    with pytest.raises(PermissionDenied):
        tourist_approval_decide(actor=personas.secretariat, approval=approval, approve=True)
    with pytest.raises(ValidationError) as caught:
        tourist_approval_decide(actor=tajnik, approval=approval, approve=False)
    assert caught.value.code == "REASON_REQUIRED"
    tourist_approval_decide(actor=tajnik, approval=approval, approve=False, reason="  Nema suca ")
    refused = TouristApproval.objects.get()
    assert (refused.status, refused.decided_by, refused.decision_reason) == ("refused", tajnik, "Nema suca")
    assert refused.decided_at is not None
    with pytest.raises(ValidationError) as caught:
        tourist_approval_decide(actor=tajnik, approval=approval, approve=True)
    assert caught.value.code == "ALREADY_DECIDED"


# --- internet tournament directors (rule 10) -----------------------------------------------------------


def test_an_internet_tournament_counts_only_from_a_licensed_director_rule_10(world, tajnik, direktor):
    created = hbs_upload(world, direktor, internet=True)
    assert "DIRECTOR_NOT_LICENSED" in codes(build_preview(created))
    licence = director_licence_grant(
        actor=tajnik,
        federation=world.hbs,
        user=direktor,
        number="HBS-I-7",
        valid_from=datetime.date(2025, 1, 1),
        valid_until=datetime.date(2025, 12, 31),
    )
    assert "DIRECTOR_NOT_LICENSED" not in codes(build_preview(created))
    director_licence_revoke(actor=tajnik, licence=licence, reason="Prijave kasne")
    assert "DIRECTOR_NOT_LICENSED" in codes(build_preview(created))


def test_a_licence_must_be_valid_on_the_event_date_rule_10(world, tajnik, direktor):
    director_licence_grant(
        actor=tajnik,
        federation=world.hbs,
        user=direktor,
        number="HBS-I-8",
        valid_from=DAY + datetime.timedelta(days=1),
        valid_until=datetime.date(2025, 12, 31),
    )
    assert "DIRECTOR_NOT_LICENSED" in codes(build_preview(hbs_upload(world, direktor, internet=True)))


def test_licence_refusals_dates_reason_and_revoking_twice_rule_10(world, tajnik, direktor, personas):
    grant = {
        "federation": world.hbs,
        "user": direktor,
        "number": "HBS-I-9",
        "valid_from": datetime.date(2025, 2, 1),
        "valid_until": datetime.date(2025, 1, 1),
    }
    with pytest.raises(ValidationError) as caught:
        director_licence_grant(actor=tajnik, **grant)
    assert caught.value.code == "LICENCE_DATES"
    with pytest.raises(PermissionDenied):
        director_licence_grant(actor=direktor, **{**grant, "valid_until": datetime.date(2025, 3, 1)})
    licence = director_licence_grant(actor=tajnik, **{**grant, "valid_until": datetime.date(2025, 3, 1)})
    with pytest.raises(ValidationError) as caught:
        director_licence_revoke(actor=tajnik, licence=licence, reason=" ")
    assert caught.value.code == "REASON_REQUIRED"
    director_licence_revoke(actor=tajnik, licence=licence, reason="Kraj suradnje")
    with pytest.raises(ValidationError) as caught:
        director_licence_revoke(actor=tajnik, licence=licence, reason="Opet")
    assert caught.value.code == "LICENCE_REVOKED"


# --- fixed B (H-8, H-17) -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixed", "code"),
    [
        ({"black": FixedB(first_place=Decimal("1000.01"))}, "FIXED_B_BOUNDS"),
        ({"black": FixedB(first_place=Decimal("12.345"))}, "FIXED_B_BOUNDS"),
        ({"black": FixedB(bands=((6, Decimal("0")),))}, "FIXED_B_BOUNDS"),
        ({"black": FixedB(bands=((0, Decimal("20")),))}, "FIXED_B_BANDS"),
        ({"black": FixedB(bands=((6, Decimal("20")), (6, Decimal("30"))))}, "FIXED_B_BANDS"),
        ({"black": FixedB(first_place=Decimal("30"), bands=((6, Decimal("20")),))}, "FIXED_B_BOTH"),
        ({"master": FixedB(first_place=Decimal("30"))}, "FIXED_B_KIND"),
    ],
)
def test_the_service_refuses_an_unbounded_or_doubled_fixed_b_and_writes_nothing_h_17(world, tajnik, fixed, code):
    """H-17: 0 < B ≤ 1000 with two decimals, bands from 1 to 5,000 units each once, one fixed B or bands per kind
    (H-8), only for a kind the entry awards; the service refuses whatever calls it (the admin form too)."""
    tournament = RecognisedTournament(federation=world.hbs, year=2025, name="Državno prvenstvo")
    with pytest.raises(ValidationError) as caught:
        recognised_tournament_save(actor=tajnik, tournament=tournament, kinds={"black": Decimal("1")}, fixed=fixed)
    assert caught.value.code == code
    assert not RecognisedTournament.objects.exists()


def test_a_fixed_b_is_kept_per_kind_audited_and_handed_to_the_upload_h_8(world, tajnik):
    """The list keeps S and the fixed B of each kind; an upload of the entry takes both (``upload_kinds``)."""
    listed = recognised_tournament_save(
        actor=tajnik,
        tournament=RecognisedTournament(federation=world.hbs, year=2025, name="Državno prvenstvo"),
        kinds={"black": Decimal("1"), "red": Decimal("2")},
        fixed={"red": FixedB(bands=((12, Decimal("60")), (6, Decimal("40"))))},
    )
    facts = upload_kinds(listed)
    assert facts["kinds"] == [["black", "1.000"], ["red", "2.000"]]
    assert facts["fixed_b"] == {"red": {"bands": [[6, "40"], [12, "60"]]}}
    audit = AuditEvent.objects.get(action="recognised.create")
    assert audit.payload["fixed_b"] == {"red": {"bands": [[6, "40"], [12, "60"]]}}

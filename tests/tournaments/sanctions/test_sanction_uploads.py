"""Sanctions at upload time (DBf § 403A–B): the quota they set and the entry-list check after the tournament."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Club, ClubMembership, PlayingTime
from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import ResultUpload, SimultaneousEvent, Tournament
from tournaments.sanctions.selectors import Claim, event_sanction
from tournaments.sanctions.services import sanction_apply, sanction_decide, sanction_recommend

DAY = datetime.date(2025, 6, 14)
NUMBERS = [str(70001 + i) for i in range(24)]


@pytest.fixture
def monday(world):
    return PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")


@pytest.fixture
def clubs(world):
    """Six clubs: club A and five more of the district."""
    others = [Club.objects.create(federation=world.dbf, number=str(2000 + i), name=f"Klub {i}") for i in range(5)]
    return [world.club_a, *others]


def register(world, home_clubs):
    """The 24 players, player i at home in ``home_clubs[i]``."""
    for number, club in zip(NUMBERS, home_clubs, strict=True):
        player = Player.objects.create(federation=world.dbf, number=number, first_name="Lise", last_name=number)
        ClubMembership.objects.create(player=player, club=club, is_home=True)


def spread(clubs):
    return [clubs[i % len(clubs)] for i in range(len(NUMBERS))]  # four players per club


def grant(world, personas, monday, *, quota="full", date=DAY, dispensations=(), name="Sommerturnering"):
    application = sanction_apply(
        actor=personas.director_a,
        club=world.club_a,
        name=name,
        date=date,
        entry_deadline=date - datetime.timedelta(days=7),
        advertised_on=date - datetime.timedelta(days=40),
        advertisement="dansk_bridge_website",
        form="pairs",
        boards=48,
        category="SP",
        quota=quota,
        playing_time=monday,
        dispensations=dispensations,
        dispensation_reason="Velgørenhed" if dispensations else "",
        today=date - datetime.timedelta(days=90),
    )
    if application.secretariat_decides:
        sanction_recommend(actor=personas.district_officer, application=application, recommend=True)
        return sanction_decide(actor=personas.secretariat, application=application, approve=True)
    return sanction_decide(actor=personas.district_officer, application=application, approve=True)


def upload(world, actor, *, date=DAY, category="SP", **facts):
    data = usebio_pairs(
        club_number=world.club_a.number,
        date=date,
        name="Sommerturnering",
        sections=[pairs_from_numbers(NUMBERS, seed=3)],
        boards=48,
    )
    return results_upload_create(
        actor=actor,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="sommer.xml",
        facts={"organiser_kind": "club", "category": category, "form": "", "boards": None, **facts},
    )


def issue_codes(preview) -> set[str]:
    return {issue.code for issue in preview.issues}


def winner_units(preview) -> int:
    return max(award.units for _line, award in preview.ledger_awards)


def test_a_club_may_not_award_sp_without_a_sanction_403(world, personas, clubs):
    register(world, spread(clubs))
    assert "CATEGORY_NOT_ALLOWED" in issue_codes(build_preview(upload(world, personas.director_a)))


def test_an_approved_sanction_lets_the_club_award_sp_and_says_so_403b1(world, personas, clubs, monday):
    register(world, spread(clubs))
    grant(world, personas, monday)
    created = upload(world, personas.director_a)
    preview = build_preview(created)
    assert "CATEGORY_NOT_ALLOWED" not in issue_codes(preview)
    assert "SANCTION_APPLIED" in issue_codes(preview)
    assert preview.sanction == "full"
    results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    assert set(Award.objects.values_list("kind", flat=True)) == {"SP"}


def test_a_sanction_covers_its_own_dates_only_403b(world, personas, clubs, monday):
    register(world, spread(clubs))
    grant(world, personas, monday, date=DAY + datetime.timedelta(days=7))
    assert "CATEGORY_NOT_ALLOWED" in issue_codes(build_preview(upload(world, personas.director_a)))


def test_a_half_sanction_pays_exactly_half_the_quota_403b2(world, personas, clubs, monday):
    register(world, spread(clubs))
    later = DAY + datetime.timedelta(days=30)
    grant(world, personas, monday, quota="half")
    grant(world, personas, monday, quota="full", date=later, name="Efterår")
    half = build_preview(upload(world, personas.director_a))
    full = build_preview(upload(world, personas.director_a, date=later))
    assert (half.sanction, full.sanction) == ("half", "full")
    # D-Q2: n1 = ½ halves the unrounded award, then rounding up to 0.1 SP: ⌈x/2⌉ = ⌈⌈x⌉/2⌉ in units.
    assert winner_units(half) == -(-winner_units(full) // 2)
    assert winner_units(half) < winner_units(full)


def test_a_sanctioned_tournament_needs_five_clubs_and_at_most_half_from_one_403b5c(world, personas, clubs, monday):
    register(world, [world.club_a] * 24)
    grant(world, personas, monday)
    created = upload(world, personas.director_a)
    assert {"SANCTION_FEW_CLUBS", "SANCTION_ONE_CLUB_MAJORITY"} <= issue_codes(build_preview(created))
    with pytest.raises(ValidationError):
        results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    assert not Award.objects.exists()


def test_more_than_half_of_the_players_from_one_club_is_refused_403b5c(world, personas, clubs, monday):
    home = [world.club_a] * 13 + spread(clubs[1:])[:11]  # six clubs, but 13 of 24 from club A
    register(world, home)
    grant(world, personas, monday)
    codes = issue_codes(build_preview(upload(world, personas.director_a)))
    assert "SANCTION_ONE_CLUB_MAJORITY" in codes
    assert "SANCTION_FEW_CLUBS" not in codes


def test_five_clubs_with_half_from_one_pass_the_check_403b5c(world, personas, clubs, monday):
    register(world, [world.club_a] * 12 + spread(clubs[1:5])[:12])
    grant(world, personas, monday)
    codes = issue_codes(build_preview(upload(world, personas.director_a)))
    assert not codes & {"SANCTION_FEW_CLUBS", "SANCTION_ONE_CLUB_MAJORITY"}


def test_no_outside_entries_refused_waives_the_entry_list_check_403b5c(world, personas, clubs, monday):
    register(world, [world.club_a] * 24)
    grant(world, personas, monday)
    created = upload(world, personas.director_a, no_outside_entries_refused=True)
    assert not issue_codes(build_preview(created)) & {"SANCTION_FEW_CLUBS", "SANCTION_ONE_CLUB_MAJORITY"}
    results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    assert Award.objects.filter(kind="SP").exists()


def test_a_dispensation_from_c_waives_the_entry_list_check_403b5e(world, personas, clubs, monday):
    register(world, [world.club_a] * 24)
    grant(world, personas, monday, dispensations=["c"])
    codes = issue_codes(build_preview(upload(world, personas.director_a)))
    assert not codes & {"SANCTION_FEW_CLUBS", "SANCTION_ONE_CLUB_MAJORITY"}


def klubsolv(world, *, kind="klubsolv", starts_on=DAY, ends_on=DAY, name="Klubsølv 2025 (1)"):
    """An event DBf announced (§ 403A1), as the secretariat records it."""
    return SimultaneousEvent.objects.create(
        federation=world.dbf, name=name, kind=kind, starts_on=starts_on, ends_on=ends_on
    )


def test_klubsolv_gives_a_club_sp_without_applying_403a1(world, personas, clubs):
    """§ 403A1: SP is automatic in a simultaneous event DBf announced, here Klubsølv covering the day."""
    register(world, [world.club_a] * 24)
    event = klubsolv(world)
    preview = build_preview(upload(world, personas.director_a, special="simultaneous", simultaneous_event=event.pk))
    assert preview.sanction == "automatic"
    assert not issue_codes(preview) & {"CATEGORY_NOT_ALLOWED", "SANCTION_FEW_CLUBS"}
    assert preview.ledger_awards, "Klubsølv pays SP at half quota (§ 433E2)"


def test_a_simultaneous_claim_that_names_no_announced_event_is_no_claim_403a1(world, personas, clubs):
    """§ 403A1 "udskrevet af DBf": the old tick without an announced event gives no SP."""
    register(world, [world.club_a] * 24)
    preview = build_preview(upload(world, personas.director_a, special="simultaneous"))
    assert preview.sanction == "none"
    assert "CATEGORY_NOT_ALLOWED" in issue_codes(preview)
    assert not preview.ledger_awards


def held_top16(world, date: datetime.date, key: str, *, playing_time=None, combined=False) -> Tournament:
    facts = {"special": "top16", "category": "SP", "top16": "combined" if combined else "playing_time"}
    upload_row = ResultUpload.objects.create(
        federation=world.dbf,
        club=world.club_a,
        file="uploads/x",
        original_name="top16.xml",
        sha256=key.ljust(64, "0"),
        size=1,
        facts=facts,
        status=ResultUpload.Status.CONFIRMED,
    )
    return Tournament.objects.create(
        federation=world.dbf,
        organiser_kind="club",
        club=world.club_a,
        name="Top-16",
        event_key=key,
        date=date,
        form="individual",
        category="SP",
        boards=28,
        upload=upload_row,
        playing_time=playing_time,
    )


def test_one_top16_with_sp_per_playing_time_per_season_403a2(world, monday):
    """§ 403A2 "En Top-16 … pr. sæson for hvert spilletidspunkt" (D-Q28): counted per playing time, not
    against the number of playing times."""
    thursday = PlayingTime.objects.create(club=world.club_a, weekday=3, part_of_day="evening")

    def right(key="new", playing_time=monday):
        claim = Claim(special="top16", playing_time=playing_time)
        return event_sanction(club=world.club_a, category="SP", on_date=DAY, event_key=key, claim=claim)

    assert right().kind == "automatic"
    held_top16(world, datetime.date(2025, 5, 10), "last-season", playing_time=monday)  # 2024/25 ended 15 May
    assert right().kind == "automatic"
    held_top16(world, datetime.date(2025, 9, 1), "this-season", playing_time=monday)
    refused = right()
    assert refused.kind == "none"
    assert [issue.code for issue in refused.issues] == ["TOP16_PLAYING_TIME_HELD"]
    assert right("this-season").kind == "automatic", "a re-upload of the same top-16 is not a second one"
    assert right(playing_time=thursday).kind == "automatic", "Thursday evening has not had its top-16"
    assert [i.code for i in right(playing_time=None).issues] == ["TOP16_NO_PLAYING_TIME"]

"""One sanction pays one tournament (DBf § 403B1, § 403B7, D-Q24), through the real path: the club applies, the
district grants, the director uploads, previews and confirms, the ledger holds the SP and the tournament page,
the preview page and the admin name the sanction used; a second event under the same sanction is refused and a
re-upload of the same event keeps it.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Sum
from django.urls import reverse
from django.utils.formats import date_format

from clubs.models import Club, ClubMembership, PlayingTime
from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads import services as upload_services
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import make_tournament, pairs_from_numbers, usebio_pairs
from tests.masterpoints.uploads.test_confirm_race import race
from tournaments.models import ResultUpload, Tournament
from tournaments.sanctions.services import sanction_apply, sanction_decide

DAY = datetime.date(2025, 6, 14)
NUMBERS = [str(71001 + i) for i in range(24)]


@pytest.fixture
def sanctioned(world, personas):
    """Club A's Monday evening, 24 players of six clubs (four each, § 403B5c met), and a full SP sanction for
    its "Sommerturnering" on DAY, filed by the club and granted by the district (§ 403B1, § 403B4, § 403B7)."""
    monday = PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")
    clubs = [world.club_a] + [
        Club.objects.create(federation=world.dbf, number=str(3000 + i), name=f"Klub {i}") for i in range(5)
    ]
    for index, number in enumerate(NUMBERS):
        player = Player.objects.create(federation=world.dbf, number=number, first_name="Lise", last_name=number)
        ClubMembership.objects.create(player=player, club=clubs[index % 6], is_home=True)
    application = sanction_apply(
        actor=personas.director_a,
        club=world.club_a,
        name="Sommerturnering",
        date=DAY,
        entry_deadline=DAY - datetime.timedelta(days=7),
        advertised_on=DAY - datetime.timedelta(days=40),
        advertisement="dansk_bridge_website",
        form="pairs",
        boards=48,
        category="SP",
        quota="full",
        playing_time=monday,
        today=DAY - datetime.timedelta(days=90),
    )
    return sanction_decide(actor=personas.district_officer, application=application, approve=True)


def upload(world, actor, *, name: str, seed: int = 3):
    data = usebio_pairs(
        club_number=world.club_a.number,
        date=DAY,
        name=name,
        sections=[pairs_from_numbers(NUMBERS, seed=seed)],
        boards=48,
    )
    return results_upload_create(
        actor=actor,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename=f"{name}.xml",
        facts={"organiser_kind": "club", "category": "SP", "form": "", "boards": None},
    )


def confirm(actor, created, **kwargs) -> Tournament:
    return results_upload_confirm(actor=actor, upload=created, acknowledge_warnings=True, **kwargs)


def sp_total(world) -> int:
    return Award.objects.filter(federation=world.dbf, kind="SP").aggregate(total=Sum("units"))["total"] or 0


def codes(preview) -> set[str]:
    return {issue.code for issue in preview.issues}


def test_a_confirmed_upload_records_its_sanction_on_upload_tournament_page_and_admin_403b1_b7_d_q24(
    client, world, personas, sanctioned
):
    """§ 403B1, § 403B7, D-Q24: the upload and its tournament name the sanction whose SP they paid; the preview
    page, the public tournament page and the secretariat's list of sanctions show it."""
    created = upload(world, personas.director_a, name="Sommerturnering")
    client.force_login(personas.director_a)
    page = client.get(reverse("uploads:preview", args=[created.pk])).content.decode()
    assert f"no. {sanctioned.pk}, Sommerturnering" in page and "for this tournament only" in page
    tournament = confirm(personas.director_a, created)
    created.refresh_from_db()
    assert tournament.sanction == sanctioned and created.sanction == sanctioned
    assert sp_total(world) > 0
    page = client.get(reverse("public:tournament", args=[tournament.pk])).content.decode()
    assert f"no. {sanctioned.pk}, Sommerturnering" in page
    client.force_login(personas.secretariat)
    listing = client.get(reverse("admin:tournaments_sanction_changelist")).content.decode()
    assert f'href="{tournament.get_absolute_url()}"' in listing
    detail = client.get(reverse("sanctions:detail", args=[sanctioned.application_id])).content.decode()
    assert "used by" in detail and tournament.get_absolute_url() in detail


def test_a_second_event_under_the_same_sanction_is_refused_naming_it_403b1_b7_d_q24(world, personas, sanctioned):
    """§ 403B1 ("En årlig turnering … med fuld MP-uddeling"), § 403B7 (the application names the tournament),
    D-Q24: another event of the club on the sanction's date gets no SP from it; the refusal names the sanction,
    the tournament that used it and the rules, and nothing is written."""
    first = confirm(personas.director_a, upload(world, personas.director_a, name="Sommerturnering"))
    total = sp_total(world)
    second = upload(world, personas.director_a, name="Aftenturnering", seed=5)
    preview = build_preview(second)
    assert "SANCTION_USED" in codes(preview) and "SANCTION_APPLIED" not in codes(preview)
    assert preview.sanction == "none" and not preview.ledger_awards
    message = next(str(issue.message) for issue in preview.issues if issue.code == "SANCTION_USED")
    day = date_format(datetime.date(2025, 6, 14))  # "June 14, 2025": the reader's locale (issue 18)
    assert f"Sanction no. {sanctioned.pk}, for Sommerturnering on {day}" in message
    assert f"already used by {first.name} of {day}" in message
    assert "§ 403B1" in message and "§ 403B7" in message
    with pytest.raises(ValidationError):
        confirm(personas.director_a, second)
    second.refresh_from_db()
    assert second.status == ResultUpload.Status.PENDING and second.sanction is None
    assert sp_total(world) == total
    assert list(Tournament.objects.current().filter(sanction=sanctioned)) == [first]


def test_a_re_upload_of_the_same_event_keeps_its_sanction_403b1_d_q24(client, world, personas, sanctioned):
    """D-Q24: a corrected file of the same event (same key) supersedes the first version under the same
    sanction; the first version's SP are reversed, the second's posted, and the page names the sanction."""
    first = confirm(personas.director_a, upload(world, personas.director_a, name="Sommerturnering"))
    corrected = upload(world, personas.director_a, name="Sommerturnering", seed=9)
    preview = build_preview(corrected)
    assert {"SANCTION_APPLIED", "SUPERSEDES"} <= codes(preview) and "SANCTION_USED" not in codes(preview)
    assert preview.sanction_row == sanctioned
    second = confirm(personas.director_a, corrected, expected_previous=first.pk)
    first.refresh_from_db()
    assert second.sanction == sanctioned and second.supersedes == first and not first.is_current
    assert first.sanction == sanctioned, "the superseded version keeps the sanction it used"
    assert sp_total(world) == sum(award.units for _line, award in preview.ledger_awards)
    page = client.get(reverse("public:tournament", args=[second.pk])).content.decode()
    assert f"no. {sanctioned.pk}, Sommerturnering" in page


def test_the_database_refuses_a_second_current_tournament_per_sanction_d_q24(world, sanctioned):
    """D-Q24: one current tournament per sanction is a constraint, not only a check (design.md § Invariants);
    a superseded version does not count."""
    make_tournament(world.dbf, world.club_a, category="SP", key="a", sanction=sanctioned, is_current=False)
    make_tournament(world.dbf, world.club_a, category="SP", key="b", sanction=sanctioned)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_tournament(world.dbf, world.club_a, category="SP", key="c", sanction=sanctioned)


def test_a_confirm_whose_sanction_another_event_took_after_its_check_is_refused_by_the_constraint_d_q24(
    world, personas, sanctioned, monkeypatch
):
    """D-Q24, design.md § Invariants (a constraint, not only a check): another event's confirm lands after this
    confirm checked its preview; the constraint of one current tournament per sanction refuses this one, the
    refusal names the sanction and the tournament that has it, and the upload stays pending."""
    other = upload(world, personas.director_a, name="Sommerturnering")
    late = upload(world, personas.director_a, name="Aftenturnering", seed=5)
    lock_event = upload_services._lock_event
    waiting = [other]

    def other_confirm_lands_first(federation_id, key):
        if waiting:
            confirm(personas.director_a, waiting.pop())
        lock_event(federation_id, key)

    monkeypatch.setattr(upload_services, "_lock_event", other_confirm_lands_first)
    with pytest.raises(ValidationError) as refused:
        confirm(personas.director_a, late)
    assert refused.value.code == "sanction_used"
    text = " ".join(refused.value.messages)
    assert f"Sanction no. {sanctioned.pk}" in text and "already used by Sommerturnering" in text
    late.refresh_from_db()
    assert late.status == ResultUpload.Status.PENDING


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite runs one writer at a time, so nothing races")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_events_confirmed_at_once_under_one_sanction_leave_one_with_its_sp_d_q24(
    postgres, world, personas, sanctioned
):
    """D-Q24: two different events of the club confirmed at the same moment under one sanction: the constraint
    of one current tournament per sanction lets one stand with the SP; the other is refused and left pending."""
    uploads = [upload(world, personas.director_a, name=name) for name in ("Sommerturnering", "Aftenturnering")]
    errors = race(*(lambda u=u: confirm(personas.director_a, u) for u in uploads))
    refused = [error for error in errors if error is not None]
    assert len(refused) == 1 and isinstance(refused[0], ValidationError), errors
    assert f"Sanction no. {sanctioned.pk}" in " ".join(refused[0].messages)
    assert Tournament.objects.current().filter(sanction=sanctioned).count() == 1
    statuses = sorted(ResultUpload.objects.filter(pk__in=[u.pk for u in uploads]).values_list("status", flat=True))
    assert statuses == ["confirmed", "pending"]

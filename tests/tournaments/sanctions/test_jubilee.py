"""Jubilee GP (DBf § 403B4: "i de år, hvor klubben fejrer jubilæum (et med 5 deleligt antal år)", D-Q25, D-Q26):
the secretariat records the club's founding year in the admin, the application form shows it, a year that is no
jubilee is refused with the founding year and the years that would qualify, and a granted jubilee sanction pays
GP through the upload, the ledger and the tournament page.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import FIRST_FOUNDING_YEAR, Club, ClubMembership
from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.sanctions.services import sanction_apply, sanction_decide, sanction_recommend

DAY = datetime.date(2025, 6, 14)
NUMBERS = [str(72001 + i) for i in range(24)]


def club_form(world, founding_year) -> dict:
    club = world.club_a
    data = {
        "federation": club.federation_id,
        "number": club.number,
        "name": club.name,
        "regions": [region.pk for region in club.regions.all()],
        "active": "on",
        "founding_year": "" if founding_year is None else str(founding_year),
        "playing_times-TOTAL_FORMS": "0",
        "playing_times-INITIAL_FORMS": "0",
    }
    return data


def test_the_secretariat_records_the_founding_year_in_the_admin_within_its_bounds_d_q26(client, world, personas):
    """D-Q26: the secretariat's record decides; a year before the first rules of bridge (1886) or after this
    year is refused on the form, a plausible one is saved."""
    client.force_login(personas.secretariat)
    url = reverse("admin:clubs_club_change", args=[world.club_a.pk])
    this_year = timezone.localdate().year
    for wrong in (FIRST_FOUNDING_YEAR - 1, this_year + 1):
        page = client.post(url, club_form(world, wrong))
        assert page.status_code == 200, "the form is shown again with the error"
        assert "founding_year" in page.context["adminform"].form.errors
    assert "lies in the future; it can be" in client.post(url, club_form(world, this_year + 1)).content.decode()
    assert client.post(url, club_form(world, 1975)).status_code == 302
    world.club_a.refresh_from_db()
    assert world.club_a.founding_year == 1975
    assert "1975" in client.get(reverse("admin:clubs_club_changelist")).content.decode()


def test_the_application_form_shows_the_founding_year_and_refuses_a_year_that_is_no_jubilee_403b4_d_q25(
    client, world, personas
):
    """§ 403B4, D-Q25: the form says the founding year on record; a jubilee GP application for a year in which
    the club is not a multiple of five years old is refused at the date, naming the years that would qualify."""
    day = timezone.localdate() + datetime.timedelta(days=100)
    world.club_a.founding_year = day.year - 42
    world.club_a.save(update_fields=["founding_year"])
    client.force_login(personas.director_a)
    page = client.get(reverse("sanctions:apply")).content.decode()
    assert f"Bridgeklubben A: founded {day.year - 42}" in page
    data = {
        "club": world.club_a.pk,
        "name": "Jubilæumsturnering",
        "category": "GP",
        "quota": "full",
        "basis": "jubilee",
        "date": day.isoformat(),
        "form": "pairs",
        "boards": "60",
        "entry_deadline": (day - datetime.timedelta(days=7)).isoformat(),
        "advertised_on": (day - datetime.timedelta(days=30)).isoformat(),
        "advertisement": "quarter_page",
        "open_to_all": "on",
        "national": "on",
    }
    response = client.post(reverse("sanctions:apply"), data)
    errors = response.context["form"].errors
    assert list(errors) == ["date"]
    text = " ".join(errors["date"])
    assert f"founded in {day.year - 42}, it is 42 years old in {day.year}" in text
    assert f"{day.year - 2}, {day.year + 3}" in text and "§ 403B4" in text
    world.club_a.founding_year = day.year - 40
    world.club_a.save(update_fields=["founding_year"])
    assert client.post(reverse("sanctions:apply"), data).status_code == 302


@pytest.fixture
def players(world):
    """24 players, four from each of six clubs (§ 403B6c met)."""
    clubs = [world.club_a] + [
        Club.objects.create(federation=world.dbf, number=str(4000 + i), name=f"Klub {i}") for i in range(5)
    ]
    for index, number in enumerate(NUMBERS):
        player = Player.objects.create(federation=world.dbf, number=number, first_name="Lise", last_name=number)
        ClubMembership.objects.create(player=player, club=clubs[index % 6], is_home=True)


def test_a_granted_jubilee_sanction_pays_gp_through_upload_ledger_and_page_403b4_d_q24(
    client, world, personas, players
):
    """§ 403B4 (GP in the jubilee year, the secretariat deciding on the district's recommendation, § 403B7) and
    D-Q24: the club, founded 1975, files for its 50th year; the upload pays GP under that sanction, and the
    tournament page names it."""
    world.club_a.founding_year = 1975
    world.club_a.save(update_fields=["founding_year"])
    application = sanction_apply(
        actor=personas.director_a,
        club=world.club_a,
        name="Jubilæumsturnering",
        date=DAY,
        entry_deadline=DAY - datetime.timedelta(days=7),
        advertised_on=DAY - datetime.timedelta(days=40),
        advertisement="quarter_page",
        national=True,
        form="pairs",
        boards=60,
        category="GP",
        quota="full",
        basis="jubilee",
        today=DAY - datetime.timedelta(days=90),
    )
    assert application.jubilee_years == 50
    sanction_recommend(actor=personas.district_officer, application=application, recommend=True)
    sanction = sanction_decide(actor=personas.secretariat, application=application, approve=True)
    data = usebio_pairs(
        club_number=world.club_a.number,
        date=DAY,
        name="Jubilæumsturnering",
        sections=[pairs_from_numbers(NUMBERS, seed=4)],
        boards=60,
    )
    created = results_upload_create(
        actor=personas.director_a,
        federation=world.dbf,
        club=world.club_a,
        region=None,
        data=data,
        filename="jubilaeum.xml",
        facts={"organiser_kind": "club", "category": "GP", "form": "", "boards": None},
    )
    preview = build_preview(created)
    assert preview.sanction_row == sanction and preview.ledger_awards
    tournament = results_upload_confirm(actor=personas.director_a, upload=created, acknowledge_warnings=True)
    assert tournament.sanction == sanction
    assert set(Award.objects.filter(tournament=tournament).values_list("kind", flat=True)) == {"GP"}
    page = client.get(reverse("public:tournament", args=[tournament.pk])).content.decode()
    assert f"no. {sanction.pk}, Jubilæumsturnering" in page
    client.force_login(personas.director_a)
    detail = client.get(reverse("sanctions:detail", args=[application.pk])).content.decode()
    assert "Founding year on record" in detail and "1975" in detail and "50 years" in detail
    client.force_login(personas.secretariat)
    listing = client.get(reverse("admin:tournaments_sanctionapplication_changelist")).content.decode()
    assert '<td class="field-founded">1975</td>' in listing

"""The demo logins tell one story (issue 19): each officer serves what the demo club works with, so the
sanction journey director → district → secretariat (§ 403B7) and a player's correction decided by the
commission (HBS transition rule 6, H-12, H-14) run with demo logins only; each demo player has a history of
several seasons (issue 18)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

from clubs.models import Club
from federation.models import AuditEvent, Player, Region
from masterpoints.corrections.services import correction_decide, correction_request_file, is_commission, open_window
from masterpoints.models import Award
from office.access import COMMISSION_GROUP, can_act_for_club, can_act_for_region
from office.models import Officer
from tournaments.sanctions.rules import club_district
from tournaments.sanctions.services import sanction_apply, sanction_decide, sanction_recommend

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(settings):
    """The demo's federations and logins without a history (quick)."""
    settings.DEBUG = True
    call_command("seed_demo", players=60, hbs_players=20, awards=0, verbosity=0)


@pytest.fixture
def history(settings):
    """The demo with its default history of seasons, at a scale where the demo club's players play."""
    settings.DEBUG = True
    call_command("seed_demo", players=100, hbs_players=150, verbosity=0)


@pytest.fixture
def login(django_user_model):
    def login(username):
        user = django_user_model.objects.get(username=username)
        assert user.check_password(username)  # the demo password is the user name, as the README says
        return user

    return login


def test_the_district_officer_serves_the_district_of_the_directors_club_403b7(seeded, login):
    club = Club.objects.get(federation__code="dbf", number="1001")
    assert can_act_for_club(login("klubleder"), club)
    district = club_district(club)
    assert can_act_for_region(login("distrikt"), district)
    assert district.code == "nordjylland"


def test_director_district_and_secretariat_carry_a_sanction_through_with_demo_logins_403b3_403b7(seeded, login):
    """An extra SP tournament (§ 403B3) is the secretariat's to decide, on the district's recommendation."""
    club = Club.objects.get(federation__code="dbf", number="1001")
    day = timezone.localdate() + datetime.timedelta(days=120)
    application = sanction_apply(
        actor=login("klubleder"),
        club=club,
        name="Aalborg Sommer-SP",
        date=day,
        entry_deadline=day - datetime.timedelta(days=7),
        advertised_on=day - datetime.timedelta(days=40),
        advertisement="dansk_bridge_website",
        form="pairs",
        boards=48,
        category="SP",
        quota="full",
        basis="extra",
    )
    sanction_recommend(actor=login("distrikt"), application=application, recommend=True)
    sanction = sanction_decide(actor=login("sekretariat"), application=application, approve=True)
    application.refresh_from_db()
    assert application.status == "approved" and sanction.club == club


@pytest.mark.parametrize(("username", "federation"), [("kommission", "dbf"), ("komisija", "hbs")])
def test_each_federation_has_a_commission_login_for_the_admin(seeded, login, username, federation):
    user = login(username)
    assert user.is_staff and not user.is_superuser
    assert user.groups.filter(name=COMMISSION_GROUP).exists() and Group.objects.get(name=COMMISSION_GROUP)
    assert is_commission(user, Player.objects.filter(federation__code=federation).first().federation)


@pytest.mark.parametrize(("username", "federation"), [("spiller", "dbf"), ("igrac", "hbs")])
def test_each_demo_player_has_a_login_and_several_seasons_of_points_issue_18(history, login, username, federation):
    player = Player.objects.get(user=login(username))
    assert player.federation.code == federation
    assert (
        player.memberships.get(is_home=True).club.number
        == Club.objects.filter(federation__code=federation).order_by("number").values_list("number", flat=True).first()
    )
    info = player.federation.scheme_info
    results = Award.objects.filter(player=player, source="result")
    seasons = {info.season_of(day) for day in results.values_list("awarded_on", flat=True)}
    assert len(seasons) >= 3, seasons


@pytest.mark.parametrize(
    ("username", "commission", "window"), [("igrac", "komisija", True), ("spiller", "kommission", None)]
)
def test_each_demo_player_files_a_correction_and_their_commission_grants_it(
    history, login, username, commission, window
):
    """HBS takes requests only in a window of its transition period (rule 6, H-12) and with a document (H-14),
    and ``seed_demo`` opens one; DBf's rules set no window (``open_window`` is ``None``)."""
    player = Player.objects.get(user=login(username))
    assert open_window(player.federation, timezone.localdate()) is window
    award = Award.objects.filter(player=player, source="result").order_by("-awarded_on").first()
    document = SimpleUploadedFile("rezultati.txt", b"Slip of the scorer: we were second.", content_type="text/plain")
    correction = correction_request_file(
        actor=login(username), player=player, award=award, text="We were second, not third.", document=document
    )
    posted = correction_decide(
        actor=login(commission), correction=correction, grant=True, reason="Checked.", adjustments=[(award.kind, 2)]
    )
    assert [entry.units for entry in posted] == [2]


def test_a_second_seed_keeps_the_logins_and_their_players(seeded, login, settings):
    before = set(Player.objects.filter(user__isnull=False).values_list("number", "user__username"))
    call_command("seed_demo", players=100, hbs_players=150, verbosity=0)
    assert set(Player.objects.filter(user__isnull=False).values_list("number", "user__username")) == before
    assert len(before) == 2


def test_a_demo_database_seeded_before_gets_the_district_officer_of_the_demo_club_issue_19(settings, login):
    """The demo's district officer once served Distrikt Fyn, so the club's sanctions ended in 403: a new seed
    gives the existing login the club's own district, and a further seed writes nothing more."""
    settings.DEBUG = True
    call_command("seed_demo", players=60, hbs_players=20, awards=0, verbosity=0)
    distrikt = login("distrikt")
    Officer.objects.filter(user=distrikt).update(region=Region.objects.get(federation__code="dbf", code="fyn"))
    call_command("seed_demo", players=60, hbs_players=20, awards=0, verbosity=0)
    club = Club.objects.get(federation__code="dbf", number="1001")
    assert can_act_for_region(distrikt, club_district(club))
    audited = AuditEvent.objects.count()
    call_command("seed_demo", players=60, hbs_players=20, awards=0, verbosity=0)
    assert AuditEvent.objects.count() == audited

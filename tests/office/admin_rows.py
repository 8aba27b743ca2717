"""One row per federation of every model the admin shows, for the admin's scoping tests.

``ROWS[label](world, key)`` makes the row of federation ``key`` (``"dbf"`` or ``"hbs"``), or returns ``None``
where the model is one federation's rule only (HBS's recognised list, DBf's sanctions, cups and foreign
MP). Rows are written straight to the database: the tests are about who may open them, not how they arise.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from clubs.models import ClubMembership
from federation.models import JobRun, Player, Region, RuleSet
from federation.services import audit_record
from masterpoints.models import (
    CorrectionRequest,
    CorrectionWindow,
    CupSeries,
    CupWin,
    ForeignConversion,
    ForeignPoints,
    OfficeCase,
    ProvisionalPlayer,
    Standing,
    TitleAchievement,
    TitleMailing,
)
from masterpoints.uploads.models import ClubAlias
from office.models import Officer
from office.services import officer_assign
from tests.factories import make_tournament
from tournaments.models import (
    DirectorLicence,
    Entry,
    Participation,
    RankingGroup,
    RecognisedAward,
    RecognisedTournament,
    SimultaneousEvent,
    TouristApproval,
)
from tournaments.sanctions.models import Sanction, SanctionApplication

DAY = datetime.date(2025, 2, 3)


def hbs_secretariat(world):
    """The HBS secretariat persona (``tajnik``): staff of HBS only."""
    user = get_user_model().objects.create_user("tajnik", "tajnik@example.com", "pw-tajnik")
    officer_assign(actor=None, user=user, role="secretariat", federation=world.hbs)
    return user


def federation(world, key):
    return getattr(world, key)


def club(world, key):
    return world.club_a if key == "dbf" else world.club_hr


def region(world, key):
    if key == "dbf":
        return world.district
    return Region.objects.get_or_create(federation=world.hbs, code="zagreb", name="Regija Zagreb", kind="district")[0]


def player(world, key):
    if key == "dbf":
        return world.player
    return Player.objects.get_or_create(federation=world.hbs, number="501", first_name="Ana", last_name="Horvat")[0]


def membership(world, key):
    if key == "dbf":
        return ClubMembership.objects.get(player=world.player)
    return ClubMembership.objects.get_or_create(player=player(world, key), club=world.club_hr, is_home=True)[0]


def rule_set(world, key):
    return RuleSet.objects.create(federation=federation(world, key), valid_from=datetime.date(2020, 1, 1), name=key)


def audit_event(world, key):
    return audit_record(actor=None, action="test.scope", target=club(world, key))


def officer(world, key):
    user = get_user_model().objects.create_user(f"officer_{key}")
    return Officer.objects.create(
        user=user, role="club_director", federation=federation(world, key), club=club(world, key)
    )


def recognised(world, key, *, tourist=False):
    if key != "hbs":
        return None
    name = "Ljeto u Poreču" if tourist else "Zagreb Open"
    entry = RecognisedTournament.objects.create(federation=world.hbs, year=2025, name=name, tourist=tourist)
    RecognisedAward.objects.create(tournament=entry, kind="black", strength=Decimal(1))
    return entry


def tourist_approval(world, key):
    entry = recognised(world, key, tourist=True)
    if entry is None:
        return None
    return TouristApproval.objects.create(
        tournament=entry, organiser="Sunce", place="Poreč", starts_on=DAY, ends_on=DAY
    )


def licence(world, key):
    if key != "hbs":
        return None
    user = get_user_model().objects.create_user("licensed")
    return DirectorLicence.objects.create(
        federation=world.hbs, user=user, number="HBS-I-1", valid_from=DAY, valid_until=DAY
    )


def sanction_application(world, key):
    if key != "dbf":
        return None
    return SanctionApplication.objects.create(
        federation=world.dbf,
        club=world.club_a,
        district=world.district,
        name="Fyn Open",
        date=DAY,
        entry_deadline=DAY,
        advertised_on=DAY,
        advertisement="district_email",
        form="pairs",
        boards=48,
        category="SP",
        quota="full",
        status="recommended",
    )


def simultaneous_event(world, key):
    if key != "dbf":
        return None
    return SimultaneousEvent.objects.create(
        federation=world.dbf, name="Klubsølv 2025 (1)", kind="klubsolv", starts_on=DAY, ends_on=DAY
    )


def sanction(world, key):
    application = sanction_application(world, key)
    if application is None:
        return None
    return Sanction.objects.create(
        federation=world.dbf,
        club=world.club_a,
        application=application,
        category="SP",
        quota="full",
        date=DAY,
        end_date=DAY,
    )


def correction_request(world, key):
    tournament = make_tournament(federation(world, key), club(world, key), key=f"correction-{key}")
    the_player = player(world, key)
    return CorrectionRequest.objects.create(
        federation=federation(world, key),
        player=the_player,
        tournament=tournament,
        text="Wrong place",
        requested_by=get_user_model().objects.create_user(f"requester_{key}"),
    )


def correction_window(world, key):
    return CorrectionWindow.objects.create(federation=federation(world, key), opens_on=DAY, closes_on=DAY)


def cup_series(world, key):
    if key != "dbf":
        return None
    return CupSeries.objects.get_or_create(federation=world.dbf, cup="bronze", first_season=2020)[0]


def cup_win(world, key):
    series = cup_series(world, key)
    if series is None:
        return None
    winner = player(world, key)
    return CupWin.objects.create(series=series, season=2020, player=winner, units=10, top_player=winner, top_units=10)


def foreign_conversion(world, key):
    if key != "dbf":
        return None
    return ForeignConversion.objects.create(
        federation=world.dbf, country="SE", foreign_kind="guldpoäng", dbf_kind="GP", factor=Decimal(1)
    )


def foreign_points(world, key):
    if key != "dbf":
        return None
    return ForeignPoints.objects.create(
        federation=world.dbf,
        player=world.player,
        country="SE",
        foreign_kind="guldpoäng",
        foreign_amount="3",
        foreign_units=3,
        earned_on=DAY,
    )


def office_case(world, key, *, event: str = "office"):
    tournament = make_tournament(federation(world, key), club(world, key), key=f"{event}-{key}")
    group = RankingGroup.objects.create(tournament=tournament, key="A", name="A", field_size=2)
    entry = Entry.objects.create(group=group, key="1", number="1", place_first=1, place_last=1)
    participation = Participation.objects.create(
        entry=entry, name_in_file="Ukendt", id_in_file="1", resolution="office"
    )
    return OfficeCase.objects.create(
        federation=federation(world, key),
        tournament=tournament,
        participation=participation,
        name_in_file="Ukendt",
        awards=[{"kind": "BP" if key == "dbf" else "black", "units": 4, "part": "", "explanation": {}}],
    )


def provisional_player(world, key):
    case = office_case(world, key, event="provisional")
    held = ProvisionalPlayer.objects.create(federation=federation(world, key), name="Ukendt", number="1")
    OfficeCase.objects.filter(pk=case.pk).update(provisional=held)
    return held


def standing(world, key):
    return Standing.objects.create(player=player(world, key), federation=federation(world, key))


def title_achievement(world, key):
    return TitleAchievement.objects.create(
        player=player(world, key), federation=federation(world, key), rung=1, title="Klubmester", reached_on=DAY
    )


def title_mailing(world, key):
    return TitleMailing.objects.create(
        federation=federation(world, key), club=club(world, key), month=datetime.date(2025, 2, 1)
    )


def club_alias(world, key):
    return ClubAlias.objects.create(federation=federation(world, key), club=club(world, key), file_club_id=f"9{key}")


def job_run(world, key):
    return JobRun.objects.create(kind=JobRun.Kind.STANDINGS_REBUILD, federation=federation(world, key))


def _row(label: str, **fields):
    """A row of another app's model (looked up by label: the app may come and go with the settings)."""
    return lambda world: apps.get_model(label).objects.create(**fields)


def _device(label: str):
    return lambda world: apps.get_model(label).objects.create(
        user=get_user_model().objects.create_user(f"device_{label}"), name="phone"
    )


_REQUEST = {"user_agent": "test", "ip_address": "127.0.0.1", "username": "someone", "http_accept": "*/*"}

#: The models of Django's and other apps (users, groups, login attempts, second-factor devices): their rows
#: belong to no federation, no staff role has a permission on them, only a superuser reaches them (one row,
#: key ``None``).
UNSCOPED = {
    "auth.user": lambda world: get_user_model().objects.create_user("nobody"),
    "auth.group": lambda world: Group.objects.get_or_create(name="Secretariat")[0],
    "axes.accessattempt": _row(
        "axes.accessattempt",
        **_REQUEST,
        path_info="/accounts/login/",
        get_data="",
        post_data="",
        failures_since_start=1,
    ),
    "axes.accesslog": _row("axes.accesslog", **_REQUEST, path_info="/accounts/login/"),
    "axes.accessfailurelog": _row("axes.accessfailurelog", **_REQUEST, path_info="/accounts/login/"),
    "otp_totp.totpdevice": _device("otp_totp.totpdevice"),
    "otp_static.staticdevice": _device("otp_static.staticdevice"),
}

ROWS = {
    "federation.federation": federation,
    "federation.region": region,
    "federation.player": player,
    "federation.ruleset": rule_set,
    "federation.auditevent": audit_event,
    "federation.jobrun": job_run,
    "clubs.club": club,
    "clubs.clubmembership": membership,
    "office.officer": officer,
    "tournaments.recognisedtournament": recognised,
    "tournaments.touristapproval": tourist_approval,
    "tournaments.directorlicence": licence,
    "tournaments.sanctionapplication": sanction_application,
    "tournaments.sanction": sanction,
    "tournaments.simultaneousevent": simultaneous_event,
    "masterpoints.correctionrequest": correction_request,
    "masterpoints.correctionwindow": correction_window,
    "masterpoints.cupseries": cup_series,
    "masterpoints.cupwin": cup_win,
    "masterpoints.foreignconversion": foreign_conversion,
    "masterpoints.foreignpoints": foreign_points,
    "masterpoints.officecase": office_case,
    "masterpoints.provisionalplayer": provisional_player,
    "masterpoints.clubalias": club_alias,
    "masterpoints.standing": standing,
    "masterpoints.titleachievement": title_achievement,
    "masterpoints.titlemailing": title_mailing,
}


def rows_of(label: str, world) -> dict:
    """``{federation key: row}`` of the model ``label`` (``{None: row}`` for a model of no federation)."""
    if label in UNSCOPED:
        return {None: UNSCOPED[label](world)}
    made = {key: ROWS[label](world, key) for key in ("dbf", "hbs")}
    return {key: row for key, row in made.items() if row is not None}

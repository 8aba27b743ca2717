"""Issue 35, part 3, input by input: each thing the preview reads besides the rule set, the names and the
statuses (``test_preview_trust.py``), changed after the director opened the preview and before the confirm
posts. A change that alters what the confirm would pay or the issues it would find is refused with nothing
written; a change the result does not depend on leaves the confirm writing exactly what the preview showed.

The refusals go two ways. A change that moves points without an error (a newer sanction of another quota)
is refused by the guard of the preview checked (``points_changed``), naming the players and their points. A
change that makes the recomputed preview fail (a licence revoked, a list entry moved to another club, an
announced event moved off the date, a home club that tips a sanctioned entry list) is refused by the
confirm's first check, ``has_errors``, before the guard is reached: nothing is written, but the refusal
does not name what changed and the page keeps the stored summary without the error (see
``test_an_error_that_appeared_after_the_preview_is_named_and_the_page_built_again``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import pytest

from clubs.models import Club, ClubMembership, PlayingTime
from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.summary import units_text
from office.services import officer_assign
from tests.factories import (
    SyntheticPair,
    make_player,
    make_players,
    make_upload,
    pairs_from_numbers,
    usebio_pairs,
)
from tests.masterpoints.uploads.test_preview_trust import checked, confirm
from tournaments.models import RecognisedTournament, ResultUpload, SimultaneousEvent, Tournament
from tournaments.recognised import (
    director_licence_grant,
    director_licence_revoke,
    recognised_tournament_save,
    upload_kinds,
)
from tournaments.sanctions.services import sanction_apply, sanction_decide, sanction_recommend
from tournaments.simultaneous import simultaneous_event_save

TUESDAY = datetime.date(2025, 5, 6)
SUMMER = datetime.date(2025, 6, 14)  # a Saturday in the season 2025/26 (§ 451C)
MONDAY = datetime.date(2025, 10, 6)
ZAGREB = datetime.date(2025, 3, 4)
NUMBERS = [str(81001 + i) for i in range(24)]
CHANGED = "The results changed since the preview you checked"


# --- what every test reads ------------------------------------------------------------------------------


def written() -> dict[str, dict[str, int]]:
    """The ledger's units by player id and kind, as the summary's ``payable`` holds them."""
    paid: dict[str, dict[str, int]] = {}
    for award in Award.objects.all():
        kinds = paid.setdefault(str(award.player_id), {})
        kinds[award.kind] = kinds.get(award.kind, 0) + award.units
    return paid


def assert_nothing_written(page: str, upload: ResultUpload) -> None:
    assert "The results are confirmed" not in page
    assert not Award.objects.exists()
    assert not Tournament.objects.filter(upload=upload).exists()
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.PENDING


def pairs_file(club_number: str, day: datetime.date, name: str, *, boards: int = 24) -> bytes:
    """12 pairs of the players :data:`NUMBERS`, no ties."""
    return usebio_pairs(
        club_number=club_number, date=day, name=name, sections=[pairs_from_numbers(NUMBERS, seed=3)], boards=boards
    )


# --- the people and the register ----------------------------------------------------------------------


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
        Player.objects.create(federation=world.hbs, number=number, first_name="Player", last_name=number)
    return user


@pytest.fixture
def clubs(world) -> list[Club]:
    """Club A and five more clubs of DBf: a sanctioned tournament's entry list needs five (§ 403B5c)."""
    others = [Club.objects.create(federation=world.dbf, number=str(2000 + i), name=f"Klub {i}") for i in range(5)]
    return [world.club_a, *others]


@pytest.fixture
def monday(world) -> PlayingTime:
    return PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")


def grant(world, personas, playing_time, *, quota: str, name: str):
    """A sanction for SP on :data:`SUMMER` in club A, applied for in time and approved (§ 403B1–2, B7)."""
    application = sanction_apply(
        actor=personas.director_a,
        club=world.club_a,
        name=name,
        date=SUMMER,
        entry_deadline=SUMMER - datetime.timedelta(days=7),
        advertised_on=SUMMER - datetime.timedelta(days=40),
        advertisement="dansk_bridge_website",
        form="pairs",
        boards=48,
        category="SP",
        quota=quota,
        playing_time=playing_time,
        today=SUMMER - datetime.timedelta(days=90),
    )
    if application.secretariat_decides:
        sanction_recommend(actor=personas.district_officer, application=application, recommend=True)
        return sanction_decide(actor=personas.secretariat, application=application, approve=True)
    return sanction_decide(actor=personas.district_officer, application=application, approve=True)


def sanctioned_upload(world, personas, clubs, monday) -> ResultUpload:
    """Club A's SP tournament of 24 players, four at home in each of six clubs, under a full sanction."""
    for index, number in enumerate(NUMBERS):
        make_player(world.dbf, number, first="Player", last=number, club=clubs[index % len(clubs)])
    grant(world, personas, monday, quota="full", name="Sommerturnering")
    data = pairs_file(world.club_a.number, SUMMER, "Sommerturnering", boards=48)
    return make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="SP")


@dataclass
class Scenario:
    """An upload its director has open in the preview, the change made meanwhile and the error it causes."""

    upload: ResultUpload
    director: object
    change: Callable[[], None]
    code: str


def licence_revoked(request) -> Scenario:
    """HBS rule 10: an internet tournament counts only when its director holds a valid licence."""
    world, tajnik, direktor = (request.getfixturevalue(name) for name in ("world", "tajnik", "direktor"))
    licence = director_licence_grant(
        actor=tajnik,
        federation=world.hbs,
        user=direktor,
        number="HBS-I-7",
        valid_from=datetime.date(2025, 1, 1),
        valid_until=datetime.date(2025, 12, 31),
    )
    data = pairs_file(world.club_hr.number, ZAGREB, "Internet turnir")
    upload = make_upload(world.hbs, world.club_hr, data, actor=direktor, category="black", strength="1", internet=True)
    return Scenario(
        upload,
        direktor,
        lambda: director_licence_revoke(actor=tajnik, licence=licence, reason="Prijave kasne"),
        "DIRECTOR_NOT_LICENSED",
    )


def entry_moved_to_another_club(request) -> Scenario:
    """HBS H-1: an entry of the list is the tournament of the club it names."""
    world, tajnik, direktor = (request.getfixturevalue(name) for name in ("world", "tajnik", "direktor"))
    listed = recognised_tournament_save(
        actor=tajnik,
        tournament=RecognisedTournament(federation=world.hbs, year=ZAGREB.year, name="Zagreb Open", club=world.club_hr),
        kinds={"black": Decimal("1"), "red": Decimal("1.5")},
    )
    data = pairs_file(world.club_hr.number, ZAGREB, "Zagreb Open")
    upload = make_upload(world.hbs, world.club_hr, data, actor=direktor, **upload_kinds(listed))

    def move() -> None:
        listed.club = Club.objects.create(federation=world.hbs, number="102", name="BK Split")
        recognised_tournament_save(
            actor=tajnik, tournament=listed, kinds={"black": Decimal("1"), "red": Decimal("1.5")}
        )

    return Scenario(upload, direktor, move, "RECOGNISED_OTHER_ORGANISER")


def event_moved_off_the_date(request) -> Scenario:
    """DBf § 403A1: SP is automatic in a simultaneous event DBf announced for the tournament's date."""
    world, personas = request.getfixturevalue("world"), request.getfixturevalue("personas")
    make_players(world.dbf, NUMBERS)
    event = SimultaneousEvent.objects.create(
        federation=world.dbf, name="Landsdækkende Handicap", kind="other", starts_on=MONDAY, ends_on=MONDAY
    )
    data = pairs_file(world.club_a.number, MONDAY, "Handicap")
    upload = make_upload(
        world.dbf,
        world.club_a,
        data,
        actor=personas.director_a,
        category="SP",
        special="simultaneous",
        simultaneous_event=str(event.pk),
    )

    def move() -> None:
        event.starts_on = event.ends_on = MONDAY + datetime.timedelta(days=7)
        simultaneous_event_save(actor=personas.secretariat, event=event)

    return Scenario(upload, personas.director_a, move, "SIMULTANEOUS_NOT_ON_DATE")


def home_clubs_moved(request) -> Scenario:
    """DBf § 403B5c: at most half of a sanctioned tournament's players from one club."""
    world, personas = request.getfixturevalue("world"), request.getfixturevalue("personas")
    upload = sanctioned_upload(world, personas, request.getfixturevalue("clubs"), request.getfixturevalue("monday"))

    def move() -> None:  # nine players of other clubs join club A as their home club: 13 of 24 from one club
        movers = [number for index, number in enumerate(NUMBERS) if index % 6][:9]
        ClubMembership.objects.filter(player__number__in=movers, is_home=True).update(club=world.club_a)

    return Scenario(upload, personas.director_a, move, "SANCTION_ONE_CLUB_MAJORITY")


def refused_by_an_error(client, scenario: Scenario) -> str:
    """The director checks the preview, the change is made, the director confirms what they checked."""
    client.force_login(scenario.director)
    form = checked(client, scenario.upload)
    assert not scenario.upload.preview_summary["has_errors"], "the preview the director checked had no error"
    scenario.change()
    assert scenario.code in {issue.code for issue in build_preview(scenario.upload, suggest=False).issues}
    page = confirm(client, scenario.upload, form).content.decode()
    assert_nothing_written(page, scenario.upload)
    return page


# --- 1. memberships ---------------------------------------------------------------------------------------


def test_a_membership_ended_after_the_preview_changes_nothing_the_confirm_writes_what_was_shown_appendix_b(
    client, world, personas
):
    """DBf appendix "B. Registrering af MP": the points of an ordinary club event follow the number in the file
    to its member, whatever their club. The preview reads memberships only to suggest members for players still to
    resolve (``names.Register``, the organising club's current members; the page only, the confirm builds
    without suggestions) and, for a sanctioned event, the home clubs of its entry list (the next test). So the
    membership ended and the player at home in another club, the confirm writes what the preview showed."""
    players = [make_player(world.dbf, n, first="Ole", last=f"Spiller{n}", club=world.club_a) for n in NUMBERS[:8]]
    rows = [
        SyntheticPair(str(i + 1), ((str(a), a.number), (str(b), b.number)), f"{60 - 5 * i}.00")
        for i, (a, b) in enumerate(zip(players[0::2], players[1::2], strict=True))
    ]
    data = usebio_pairs(club_number=world.club_a.number, date=TUESDAY, name="Tirsdag", sections=[rows], boards=24)
    upload = make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP")
    client.force_login(personas.director_a)
    form = checked(client, upload)
    shown = upload.preview_summary["payable"]
    ClubMembership.objects.filter(player=players[0]).update(until=TUESDAY, is_home=False)
    ClubMembership.objects.create(player=players[0], club=world.club_b, is_home=True, since=TUESDAY)
    assert "The results are confirmed" in confirm(client, upload, form).content.decode()
    assert written() == shown and str(players[0].pk) in shown


def test_a_home_club_moved_after_the_preview_of_a_sanctioned_tournament_refuses_the_confirm_403b5c(client, request):
    """§ 403B5c: the home clubs of a sanctioned tournament's players are read at the confirm again; nine
    players who moved their home to the organising club make 13 of 24 from one club, an error."""
    refused_by_an_error(client, home_clubs_moved(request))


def test_a_playing_time_ended_after_the_preview_is_not_recorded_silently_452a_d_q27(client, world, personas, monday):
    """§ 452A: the preview showed "Monday evening (the club's one playing time on that weekday)"; the club's
    playing time ended before the confirm; the tournament must not be recorded without it in silence (a
    top-16 per playing time, § 403A2, counts by it)."""
    make_players(world.dbf, NUMBERS)
    data = pairs_file(world.club_a.number, MONDAY, "Mandag")
    upload = make_upload(world.dbf, world.club_a, data, actor=personas.director_a, category="BP")
    client.force_login(personas.director_a)
    form = checked(client, upload)
    assert upload.preview_summary["event"]["playing_time"] == monday.pk
    PlayingTime.objects.filter(pk=monday.pk).update(active=False)
    page = confirm(client, upload, form).content.decode()
    assert "the playing time (§ 452A)" in page and not Tournament.objects.filter(upload=upload).exists()


# --- 2. sanction decisions ----------------------------------------------------------------------------------


def test_a_half_sanction_granted_after_the_preview_refuses_the_confirm_naming_the_points_shown_and_now_403b2_d_q24(
    client, world, personas, clubs, monday
):
    """§ 403B1–2, D-Q24: the event takes the newest sanction for its date that no other event uses. The
    preview paid full SP by the sanction granted then; a half sanction granted for the same day before the
    confirm would halve the points: refused, naming the winner's SP shown and now, nothing written.

    A granted sanction is never revoked (the admin shows sanctions read only, ``sanction_decide`` decides an
    application once and refuses a decided one), so a decision after the preview can only add a sanction."""
    upload = sanctioned_upload(world, personas, clubs, monday)
    client.force_login(personas.director_a)
    form = checked(client, upload)
    winner = Player.objects.get(number=NUMBERS[0])
    shown = upload.preview_summary["payable"][str(winner.pk)]
    grant(world, personas, monday, quota="half", name="Sommerturnering, B-rækken")
    page = confirm(client, upload, form).content.decode()
    assert_nothing_written(page, upload)
    now = upload.preview_summary["payable"][str(winner.pk)]
    assert 0 < now["SP"] < shown["SP"], "the page built the preview again, with half SP"
    assert CHANGED in page and f"{winner}: {units_text(shown)} shown, {units_text(now)} now" in page


# --- 3. licences ---------------------------------------------------------------------------------------------


def test_a_licence_revoked_after_the_preview_refuses_the_confirm_of_the_internet_tournament_rule_10(client, request):
    """HBS rule 10: the licence is read at the confirm again; revoked meanwhile, the tournament is not scored."""
    refused_by_an_error(client, licence_revoked(request))


# --- 4. the recognised list ----------------------------------------------------------------------------------


def test_an_entry_moved_to_another_club_after_the_preview_refuses_the_confirm_h_1(client, request):
    """H-1: the entry's organiser is read at the confirm again; given to another club meanwhile, refused."""
    refused_by_an_error(client, entry_moved_to_another_club(request))


def test_an_s_changed_on_the_list_after_the_preview_changes_nothing_the_confirm_writes_what_was_shown_h_1_h_4(
    client, world, tajnik, direktor
):
    """H-1, H-4: an upload of a listed tournament takes the kinds, S and fixed B of its entry when it is
    uploaded (``upload_kinds`` into the facts), and the preview and the confirm both score by the facts. The
    secretariat's new S for the entry does not reach this upload: the confirm writes what the preview showed
    (the new S reaches an upload made after it)."""
    listed = recognised_tournament_save(
        actor=tajnik,
        tournament=RecognisedTournament(federation=world.hbs, year=ZAGREB.year, name="Zagreb Open", club=world.club_hr),
        kinds={"black": Decimal("1"), "red": Decimal("1.5")},
    )
    data = pairs_file(world.club_hr.number, ZAGREB, "Zagreb Open")
    upload = make_upload(world.hbs, world.club_hr, data, actor=direktor, **upload_kinds(listed))
    client.force_login(direktor)
    form = checked(client, upload)
    shown = upload.preview_summary["payable"]
    recognised_tournament_save(actor=tajnik, tournament=listed, kinds={"black": Decimal("3"), "red": Decimal("4")})
    assert "The results are confirmed" in confirm(client, upload, form).content.decode()
    assert written() == shown and {kind for kinds in shown.values() for kind in kinds} == {"black", "red"}


# --- 5. simultaneous events ----------------------------------------------------------------------------------


def test_an_announced_event_moved_off_the_date_after_the_preview_refuses_the_confirm_403a1(client, request):
    """§ 403A1: the announced event is read at the confirm again; moved to another week meanwhile, the
    club's SP is no longer automatic and the confirm is refused."""
    refused_by_an_error(client, event_moved_off_the_date(request))


# --- what an error found only at the confirm should say --------------------------------------------------


@pytest.mark.parametrize(
    "scenario", [licence_revoked, entry_moved_to_another_club, event_moved_off_the_date, home_clubs_moved]
)
def test_an_error_that_appeared_after_the_preview_is_named_and_the_page_built_again(client, request, scenario):
    """Issue 35: "changed after the preview, the confirm refuses naming it, or the preview shown is rebuilt;
    never a silent difference". Rule 10, H-1, § 403A1, § 403B5c: the refusal names the new error's code and the
    page the director returns to shows it."""
    found = scenario(request)
    page = refused_by_an_error(client, found)
    assert found.code in page
    assert found.code in {item["code"] for item in found.upload.preview_summary["issue_counts"]}

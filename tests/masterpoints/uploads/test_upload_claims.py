"""The playing time and the claims of automatic SP through the real path: upload form → preview → confirm →
ledger and tournament page (DBf § 452A, § 403A1–A2, § 443B2, § 453; D-Q27, D-Q28, D-Q29)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.formats import date_format

from clubs.models import PlayingTime
from masterpoints.models import Award
from masterpoints.uploads.services import results_upload_choose_playing_time
from tests.factories import make_players, pairs_from_numbers, usebio_pairs
from tournaments.models import ResultUpload, SimultaneousEvent, Tournament

MONDAY = datetime.date(2025, 10, 6)  # the season 2025/26 (§ 451C: 16 May – 15 May)
#: A date as the messages show it in English, "N j, Y" (issue 18: dates in the reader's locale).
MONDAY_SHOWN = "2025-10-06"
FRIDAY = datetime.date(2025, 10, 10)
NUMBERS = [str(80001 + i) for i in range(24)]


@pytest.fixture
def members(world):
    return make_players(world.dbf, NUMBERS)


@pytest.fixture
def monday(world):
    return PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")


def usebio_file(day: datetime.date, name: str) -> SimpleUploadedFile:
    """A pairs file of 12 pairs with the members' numbers; USEBIO gives a date and no start time."""
    data = usebio_pairs(club_number="1001", date=day, name=name, sections=[pairs_from_numbers(NUMBERS)], boards=24)
    return SimpleUploadedFile(f"{name}.xml", data, content_type="text/xml")


def pbn_file(day: datetime.date, start: str, name: str = "Fredag") -> SimpleUploadedFile:
    """A PBN ranking of 12 pairs whose ``Time`` tag gives the start time."""
    head = f'% PBN 2.1\n[Event "{name}"]\n[Date "{day:%Y.%m.%d}"]\n[Time "{start}"]\n[Competition "Pairs"]\n'
    rows = "".join(
        f'{i + 1} {i + 1} "Player {a};Player {b}" "{a};{b}" {70 - i}\n'
        for i, (a, b) in enumerate(zip(NUMBERS[::2], NUMBERS[1::2], strict=True))
    )
    columns = "Rank\\2R;PairId\\2R;Names\\40L;MemberID\\12L;TotalPercentage\\6R"
    table = f'[Scoring "MP"]\n[Board "1"]\n[TotalScoreTable "{columns}"]\n'
    return SimpleUploadedFile(f"{name}.pbn", (head + table + rows).encode(), content_type="text/plain")


def top16_file(day: datetime.date, name: str) -> SimpleUploadedFile:
    """Our CSV template: an individual tournament of 18 members over 30 boards (§ 443B3: at least 16)."""
    rows = "".join(f"{i + 1};{i + 1};{number};Player {number};{200 - i}\n" for i, number in enumerate(NUMBERS[:18]))
    head = f"event_date;{day.isoformat()}\nevent_name;{name}\nevent_type;individual\nclub_id;1001\nboards_played;30\n"
    data = (head + "entry_no;place;player_1_id;player_1_name;score\n" + rows).encode()
    return SimpleUploadedFile(f"{name}.csv", data, content_type="text/csv")


def post_upload(client, world, file, *, category="BP", **fields) -> ResultUpload:
    values = {"organiser": f"club:{world.club_a.pk}", "category": category, "file": file, **fields}
    response = client.post(reverse("uploads:upload"), values)
    assert response.status_code == 302, response.context["form"].errors
    return ResultUpload.objects.order_by("-pk").first()


def preview_text(client, upload: ResultUpload) -> str:
    response = client.get(reverse("uploads:preview", args=[upload.pk]))
    assert response.status_code == 200
    return response.content.decode()


def confirm(client, upload: ResultUpload) -> Tournament | None:
    """Confirm as the page does; the tournament written, or ``None`` when the confirm was refused."""
    client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    upload.refresh_from_db()
    return Tournament.objects.filter(upload=upload).first()


def page_text(client, tournament: Tournament) -> str:
    return client.get(tournament.get_absolute_url()).content.decode()


# --- § 452A: a tournament records its playing time ---------------------------------------------------------


def test_the_one_playing_time_on_the_weekday_is_the_default_and_shows_on_the_page_452a_d_q27(
    client, world, personas, members, monday
):
    """§ 452A "hver ugentlig spilleperiode for sig", D-Q27: a USEBIO file gives no time; the club's one
    active playing time on the weekday is the default, stored at confirm and shown on the tournament page."""
    PlayingTime.objects.create(club=world.club_a, weekday=3, part_of_day="evening")
    client.force_login(personas.director_a)
    upload = post_upload(client, world, usebio_file(MONDAY, "Mandag"))
    assert "(the club's one playing time on that weekday)" in preview_text(client, upload)
    tournament = confirm(client, upload)
    assert tournament.playing_time == monday
    assert "Monday evening" in page_text(client, tournament)


def test_two_playing_times_on_the_weekday_without_a_time_make_the_director_choose_452a_d_q27(
    client, world, personas, members, monday
):
    """§ 452A, D-Q27: with Monday afternoon and Monday evening and no start time in the file there is no
    default: the confirm is refused until the director chooses on the preview."""
    afternoon = PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="afternoon")
    client.force_login(personas.director_a)
    upload = post_upload(client, world, usebio_file(MONDAY, "Mandag"))
    text = preview_text(client, upload)
    assert "The club has 2 playing times on Monday (Monday afternoon, Monday evening)" in text
    assert confirm(client, upload) is None
    assert not Award.objects.exists()
    response = client.post(reverse("uploads:playing_time", args=[upload.pk]), {"playing_time": str(afternoon.pk)})
    assert response.status_code == 302
    assert "(as you chose)" in preview_text(client, upload)
    assert confirm(client, upload).playing_time == afternoon


def test_the_start_time_in_a_pbn_file_picks_the_part_of_day_452a_d_q27(client, world, personas, members):
    """§ 452A, D-Q27: PBN's ``Time`` tag gives the start time; 19:30 is Friday evening, not Friday afternoon."""
    PlayingTime.objects.create(club=world.club_a, weekday=4, part_of_day="afternoon")
    evening = PlayingTime.objects.create(club=world.club_a, weekday=4, part_of_day="evening")
    client.force_login(personas.director_a)
    upload = post_upload(client, world, pbn_file(FRIDAY, "19:30:00"), boards="24")
    assert "from the weekday and the start time 19:30 in the file" in preview_text(client, upload)
    assert confirm(client, upload).playing_time == evening


def test_a_start_time_outside_the_playing_times_records_none_with_a_warning_452a_d_q27(
    client, world, personas, members
):
    """§ 452A, D-Q27: a Friday tournament started at 10:00 where the club plays Friday evenings only was not
    played in a playing time: none is recorded, and the warning says so."""
    PlayingTime.objects.create(club=world.club_a, weekday=4, part_of_day="evening")
    client.force_login(personas.director_a)
    upload = post_upload(client, world, pbn_file(FRIDAY, "10:00"), boards="24")
    assert "started at 10:00 on Friday" in preview_text(client, upload)
    tournament = confirm(client, upload)
    assert tournament is not None and tournament.playing_time is None


def test_another_clubs_playing_time_is_refused_on_the_form_the_preview_and_the_confirm_452a(
    client, world, personas, members, monday
):
    """§ 452A: a playing time is the organising club's own. The secretariat sees both clubs' playing times
    but may not give club A's tournament club B's; a director is not offered it; a forged fact is an error."""
    theirs = PlayingTime.objects.create(club=world.club_b, weekday=0, part_of_day="evening")
    client.force_login(personas.secretariat)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_a.pk}",
            "category": "BP",
            "playing_time": str(theirs.pk),
            "file": usebio_file(MONDAY, "Mandag"),
        },
    )
    assert response.status_code == 200 and "playing_time" in response.context["form"].errors
    client.force_login(personas.director_a)
    upload = post_upload(client, world, usebio_file(MONDAY, "Mandag"))
    client.post(reverse("uploads:playing_time", args=[upload.pk]), {"playing_time": str(theirs.pk)})
    upload.refresh_from_db()
    assert upload.facts["playing_time"] == ""  # not in the choices: nothing recorded
    with pytest.raises(ValidationError, match="Choose one of the playing times of Bridgeklubben A"):
        results_upload_choose_playing_time(actor=personas.director_a, upload=upload, playing_time=str(theirs.pk))
    ResultUpload.objects.filter(pk=upload.pk).update(facts={**upload.facts, "playing_time": str(theirs.pk)})
    assert "is not one of Bridgeklubben A (1001)" in preview_text(client, upload)
    assert confirm(client, upload) is None


# --- § 403A2, § 443B2: a top-16 per playing time, or one combined ------------------------------------------


@pytest.fixture
def thursday(world):
    return PlayingTime.objects.create(club=world.club_a, weekday=3, part_of_day="evening")


def top16(client, world, day, name, **fields) -> ResultUpload:
    return post_upload(client, world, top16_file(day, name), category="SP", **fields)


def test_one_top16_per_playing_time_per_season_403a2_443b2a_d_q28(client, world, personas, members, monday, thursday):
    """§ 403A2 "En Top-16 … pr. sæson for hvert spilletidspunkt", § 443B2a (D-Q28): the Monday top-16 awards
    SP; a second Monday top-16 that season is refused naming the first, the season and the rule; Thursday's
    own top-16 is allowed."""
    client.force_login(personas.director_a)
    first = confirm(client, top16(client, world, MONDAY, "Top-16 mandag", special="top16"))
    assert first.playing_time == monday and first.top16 == "playing_time"
    assert Award.objects.filter(tournament=first, kind="SP").exists()
    assert "the top-16 of its playing time" in page_text(client, first)
    second = top16(client, world, MONDAY + datetime.timedelta(days=28), "Top-16 igen", special="top16")
    text = preview_text(client, second)
    held = f"Monday evening already had its top-16 with SP in the season 2025/26: Top-16 mandag ({MONDAY_SHOWN})"
    assert held in text
    assert "§ 403A2, § 443B2a" in text
    assert confirm(client, second) is None
    thursday_top16 = top16(
        client, world, datetime.date(2025, 10, 9), "Top-16 torsdag", special="top16", playing_time=str(thursday.pk)
    )
    assert confirm(client, thursday_top16).playing_time == thursday


def test_a_combined_top16_and_one_per_playing_time_exclude_each_other_443b2_d_q28(
    client, world, personas, members, monday, thursday
):
    """§ 443B2 "en top-16 pr. spilletidspunkt eller en samlet top-16" (D-Q28): after Monday's top-16 the
    club's combined one is refused that season; after a combined one, no top-16 per playing time; the next
    season starts afresh."""
    client.force_login(personas.director_a)
    confirm(client, top16(client, world, MONDAY, "Top-16 mandag", special="top16"))
    combined = top16(client, world, datetime.date(2025, 11, 3), "Samlet top-16", special="top16_combined")
    text = preview_text(client, combined)
    assert f"The club held the top-16 of Monday evening in the season 2025/26: Top-16 mandag ({MONDAY_SHOWN})" in text
    assert "§ 443B2, § 403A2" in text
    assert confirm(client, combined) is None
    next_season = datetime.date(2026, 6, 1)
    held = confirm(client, top16(client, world, next_season, "Samlet 2026", special="top16_combined"))
    assert held.top16 == "combined" and "combined top-16" in page_text(client, held)
    later = top16(client, world, next_season + datetime.timedelta(days=3), "Torsdag 2026", special="top16")
    combined_held = f"The club held its combined top-16 in the season 2026/27: Samlet 2026 ({date_format(next_season)})"
    assert combined_held in preview_text(client, later)
    assert confirm(client, later) is None


def test_a_top16_per_playing_time_needs_one_403a2_443b2a(client, world, personas, members):
    """§ 403A2, § 443B2a: a top-16 of a playing time names it; the club has none on the day, so it is refused."""
    client.force_login(personas.director_a)
    upload = top16(client, world, MONDAY, "Top-16", special="top16")
    assert "A top-16 per playing time names its playing time" in preview_text(client, upload)
    assert confirm(client, upload) is None


# --- § 403A1: the simultaneous events DBf announced --------------------------------------------------------


def announce(world, name, kind, starts_on, ends_on=None) -> SimultaneousEvent:
    return SimultaneousEvent.objects.create(
        federation=world.dbf, name=name, kind=kind, starts_on=starts_on, ends_on=ends_on or starts_on
    )


def test_the_secretariat_records_dbfs_simultaneous_events_in_the_admin_for_dbf_only_403a1(client, world, personas):
    """§ 403A1 "udskrevet af DBf": the DBf secretariat records an announced event (audited); an HBS
    federation cannot be chosen, and dates out of order are refused."""
    client.force_login(personas.secretariat)
    url = reverse("admin:tournaments_simultaneousevent_add")
    values = {"name": "Klubsølv 2025 (1)", "kind": "klubsolv", "starts_on": "2025-10-06", "ends_on": "2025-10-10"}
    assert client.post(url, {"federation": world.dbf.pk, **values}).status_code == 302
    event = SimultaneousEvent.objects.get()
    assert (event.federation, event.dates) == (world.dbf, "2025-10-06–2025-10-10")
    response = client.post(url, {"federation": world.hbs.pk, **values, "name": "Other"})
    assert response.status_code == 200 and "federation" in response.context["adminform"].form.errors
    backwards = {**values, "name": "Backwards", "ends_on": "2025-10-01"}
    assert client.post(url, {"federation": world.dbf.pk, **backwards}).status_code == 200
    assert SimultaneousEvent.objects.count() == 1


def test_a_club_event_in_an_announced_klubsolv_awards_sp_and_the_page_names_it_403a1(
    client, world, personas, members, monday
):
    """§ 403A1: the club claims the Klubsølv DBf announced for its date; SP at half quota (§ 433E2) without a
    sanction, and the tournament page names the event."""
    event = announce(world, "Klubsølv 2025 (1)", "klubsolv", MONDAY - datetime.timedelta(days=2), MONDAY)
    client.force_login(personas.director_a)
    upload = post_upload(client, world, usebio_file(MONDAY, "Klubsølv"), category="SP", simultaneous_event=event.pk)
    tournament = confirm(client, upload)
    assert tournament.simultaneous_event == event
    assert Award.objects.filter(tournament=tournament, kind="SP").exists()
    assert "Klubsølv 2025 (1)" in page_text(client, tournament)


def test_an_event_on_a_date_no_announced_event_covers_is_refused_with_the_dates_403a1(
    client, world, personas, members, monday
):
    """§ 403A1: a claim of an event whose dates do not cover the tournament's is refused with both dates and
    the events DBf announced for that day."""
    event = announce(world, "Klubsølv 2025 (2)", "klubsolv", datetime.date(2025, 11, 3), datetime.date(2025, 11, 7))
    client.force_login(personas.director_a)
    upload = post_upload(client, world, usebio_file(MONDAY, "Klubsølv"), category="SP", simultaneous_event=event.pk)
    text = preview_text(client, upload)
    span = f"{date_format(datetime.date(2025, 11, 3))} – {date_format(datetime.date(2025, 11, 7))}"
    assert span == "2025-11-03 – 2025-11-07"  # the reader's locale, English ISO (issue 38)
    assert f"Klubsølv 2025 (2) was announced by DBf for {span}" in text
    assert f"played on {MONDAY_SHOWN}; events DBf announced for that day: none (§ 403A1)" in text
    assert confirm(client, upload) is None


def test_choosing_no_simultaneous_event_is_no_claim_403a1(client, world, personas, members, monday):
    """§ 403A1: with the event left at "none" the club claims nothing and, without a sanction, may not award SP."""
    client.force_login(personas.director_a)
    upload = post_upload(client, world, usebio_file(MONDAY, "Klubaften"), category="SP", simultaneous_event="")
    assert upload.facts["special"] == ""
    assert "may not award SP" in preview_text(client, upload)
    assert confirm(client, upload) is None


# --- § 453: Klubsølv or the alternative Klubsølv ------------------------------------------------------------


def test_an_alternative_klubsolv_excludes_klubsolv_in_every_playing_time_that_season_453_d_q29(
    client, world, personas, members, monday, thursday
):
    """§ 403A1 second sentence, § 453 "den erstatter Klubsølv for alle klubbens spilleperioder. Det ene valg
    udelukker det andet" (D-Q29): after the club's alternative Klubsølv on a Monday, Klubsølv on its Thursday
    is refused naming the alternative, the season and the rule; so is a second alternative."""
    window = announce(
        world,
        "Alternativ Klubsølv 2025/26",
        "alternative_klubsolv",
        datetime.date(2025, 9, 1),
        datetime.date(2026, 4, 30),
    )
    round_1 = announce(world, "Klubsølv 2025 (1)", "klubsolv", datetime.date(2025, 10, 9))
    client.force_login(personas.director_a)
    alternative = confirm(
        client,
        post_upload(client, world, usebio_file(MONDAY, "Alternativ"), category="SP", simultaneous_event=window.pk),
    )
    assert alternative.simultaneous_event == window
    klubsolv = post_upload(
        client, world, usebio_file(datetime.date(2025, 10, 9), "Klubsølv"), category="SP", simultaneous_event=round_1.pk
    )
    text = preview_text(client, klubsolv)
    assert f"The club held an alternative Klubsølv in the season 2025/26: Alternativ ({MONDAY_SHOWN})" in text
    assert "(§ 453, § 403A1)" in text
    assert confirm(client, klubsolv) is None
    again = post_upload(
        client,
        world,
        usebio_file(datetime.date(2025, 11, 3), "Alternativ 2"),
        category="SP",
        simultaneous_event=window.pk,
    )
    assert "already held its alternative Klubsølv of the season 2025/26" in preview_text(client, again)


def test_klubsolv_excludes_an_alternative_klubsolv_that_season_453_d_q29(client, world, personas, members, monday):
    """§ 453 "Det ene valg udelukker det andet" (D-Q29): a club that played Klubsølv cannot hold an alternative
    Klubsølv that season; the next season it may."""
    round_1 = announce(world, "Klubsølv 2025 (1)", "klubsolv", MONDAY)
    window = announce(
        world, "Alternativ Klubsølv", "alternative_klubsolv", datetime.date(2025, 9, 1), datetime.date(2026, 8, 31)
    )
    client.force_login(personas.director_a)
    confirm(
        client,
        post_upload(client, world, usebio_file(MONDAY, "Klubsølv"), category="SP", simultaneous_event=round_1.pk),
    )
    late = post_upload(
        client, world, usebio_file(datetime.date(2026, 3, 2), "Alternativ"), category="SP", simultaneous_event=window.pk
    )
    text = preview_text(client, late)
    assert f"The club played Klubsølv in the season 2025/26: Klubsølv ({MONDAY_SHOWN})" in text
    assert confirm(client, late) is None
    next_season = post_upload(
        client,
        world,
        usebio_file(datetime.date(2026, 6, 1), "Alternativ 26"),
        category="SP",
        simultaneous_event=window.pk,
    )
    assert confirm(client, next_season).simultaneous_event == window

"""Issue 19: a sanction refusal names the numbers it rests on (the deadline, the boards needed, the quota
left this year), and the application form preselects a director's only club."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from clubs.models import Club, PlayingTime
from office.services import officer_assign
from tournaments.issues import Issue
from tournaments.sanctions.rules import add_months, filing_deadline
from tournaments.sanctions.services import sanction_apply

TODAY = datetime.date(2026, 12, 1)
DAY = datetime.date(2026, 12, 11)


@pytest.fixture
def monday(world):
    return PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")


def values(world, monday, **changes) -> dict:
    day = changes.pop("date", datetime.date(2027, 6, 14))
    return {
        "club": world.club_a,
        "name": "Forårsturnering",
        "date": day,
        "entry_deadline": day - datetime.timedelta(days=7),
        "advertised_on": day - datetime.timedelta(days=40),
        "advertisement": "dansk_bridge_website",
        "form": "pairs",
        "boards": 48,
        "category": "SP",
        "quota": "full",
        "playing_time": monday,
        "today": TODAY,
        **changes,
    }


def refusal(world, actor, monday, **changes) -> dict[str, str]:
    with pytest.raises(ValidationError) as caught:
        sanction_apply(actor=actor, **values(world, monday, **changes))
    return {problem.code: " ".join(problem.messages) for problem in caught.value.error_list}


def test_filed_too_late_names_the_deadline_itself_and_the_earliest_first_day_403b7(world, personas, monday):
    """§ 403B7: filed at least two months before the tournament. For 2026-12-11 the deadline was 2026-10-11;
    filed on 2026-12-01 the earliest first day is 2027-02-01 (the date the old message wrongly called "by")."""
    text = refusal(world, personas.director_a, monday, date=DAY)["FILED_TOO_LATE"]
    assert f"the deadline was {date_format(datetime.date(2026, 10, 11))}" in text  # Oct. 11, 2026 (issue 18)
    assert f"for a tournament starting {date_format(DAY)}" in text
    assert f"the earliest first day is {date_format(datetime.date(2027, 2, 1))}" in text
    assert "§ 403B7" in text


def test_filed_too_late_in_danish_names_the_dates_as_danish_writes_them_403b7_issue_18(world, personas, monday):
    """Issue 18: the refusal's dates follow the reader's locale when the message is rendered (Danish "j. F Y")."""
    with pytest.raises(ValidationError) as caught:
        sanction_apply(actor=personas.director_a, **values(world, monday, date=DAY))
    with translation.override("da"):
        text = " ".join(caught.value.messages)
    assert "11. oktober 2026" in text and "11. december 2026" in text and "1. februar 2027" in text
    assert "2026-10-11" not in text


def test_an_upload_issue_shows_its_date_in_the_readers_locale_and_keeps_iso_for_machines_issue_18():
    issue = Issue("DATE_IN_FUTURE", params={"date": DAY})
    assert str(issue.message) == "The event's date 2026-12-11 lies in the future."
    with translation.override("da"):
        assert "11. december 2026" in str(issue.message)
    assert issue.as_dict()["params"] == {"date": "2026-12-11"}


@pytest.mark.parametrize(
    ("first_day", "deadline"),
    [
        (datetime.date(2027, 4, 30), datetime.date(2027, 2, 28)),
        (datetime.date(2027, 3, 31), datetime.date(2027, 1, 31)),
        (datetime.date(2028, 4, 29), datetime.date(2028, 2, 29)),
        (datetime.date(2027, 2, 28), datetime.date(2026, 12, 31)),
    ],
)
def test_the_filing_deadline_is_the_last_day_two_months_before_403b7(first_day, deadline):
    """§ 403B7: the deadline is in time (two months from it end on or before the first day), the day after
    it is not, whatever the months' lengths."""
    assert filing_deadline(first_day) == deadline
    assert add_months(deadline, 2) <= first_day < add_months(deadline + datetime.timedelta(days=1), 2)


def test_club_gp_with_52_boards_says_54_are_needed_403b6d_405b7g(world, personas, monday):
    """§ 403B6d with § 405B7g: a club's GP pays from 54 boards; the refusal of 52 says so."""
    gp = {"category": "GP", "national": True, "advertisement": "quarter_page", "boards": 52}
    text = refusal(world, personas.director_a, monday, **gp)["BOARDS_TOO_FEW"]
    assert "52 boards do not pay GP" in text
    assert "at least 54 boards are needed (§ 405B7g)" in text
    assert "§ 403B6d" in text


def test_sp_with_26_boards_says_27_are_needed_403b5d_405b7c(world, personas, monday):
    """§ 403B5d with § 405B7c: SP pays half from 27 boards."""
    text = refusal(world, personas.director_a, monday, boards=26)["BOARDS_TOO_FEW"]
    assert "at least 27 boards are needed (§ 405B7c)" in text


def test_a_used_quota_says_what_is_left_for_the_playing_time_this_year_403b1_403b2(world, personas, monday):
    """§ 403B1–2: one full and one half tournament per playing time per year; the refusal names what is left."""
    sanction_apply(actor=personas.director_a, **values(world, monday, name="Sommer"))
    text = refusal(world, personas.director_a, monday, name="Høst")["QUOTA_USED"]
    assert "Left for this playing time in 2027: half MP (§ 403B2)." in text
    sanction_apply(actor=personas.director_a, **values(world, monday, name="Vinter", quota="half"))
    text = refusal(world, personas.director_a, monday, name="Høst", quota="half")["QUOTA_USED"]
    assert "Left for this playing time in 2027: none (only an extra SP sanction, § 403B3)." in text


def test_a_third_jubilee_names_the_two_held_and_none_left_this_year_403b4(world, personas, monday):
    """§ 403B4: at most two jubilee GP tournaments a year."""
    world.club_a.founding_year = 1952
    world.club_a.save(update_fields=["founding_year"])
    gp = {"category": "GP", "national": True, "advertisement": "quarter_page", "boards": 60, "basis": "jubilee"}
    for name in ("Jubilæum I", "Jubilæum II"):
        sanction_apply(actor=personas.director_a, **values(world, None, name=name, **gp))
    text = refusal(world, personas.director_a, None, name="III", **gp)["JUBILEE_USED"]
    assert "already has 2 jubilee GP tournaments in 2027 (Jubilæum I; Jubilæum II)" in text
    assert "at most 2 a year (§ 403B4), so none is left in 2027" in text


def test_the_form_preselects_the_directors_only_club_issue_19(client, world, personas):
    client.force_login(personas.director_a)
    form = client.get(reverse("sanctions:apply")).context["form"]
    assert form["club"].value() == world.club_a.pk


def test_the_form_preselects_no_club_for_a_director_of_two_issue_19(client, world, personas):
    second = Club.objects.create(federation=world.dbf, number="1003", name="Bridgeklubben C")
    officer_assign(actor=None, user=personas.director_a, role="club_director", federation=world.dbf, club=second)
    client.force_login(personas.director_a)
    form = client.get(reverse("sanctions:apply")).context["form"]
    assert form["club"].value() is None


@pytest.mark.parametrize(
    ("code", "params", "left"),
    [
        ("TOP16_PLAYING_TIME_HELD", {"playing_time": "Mandag aften"}, "none is left for this playing time in 2025/26"),
        ("TOP16_COMBINED_HELD", {}, "none is left in 2025/26"),
        ("ALTERNATIVE_KLUBSOLV_USED", {}, "none is left in 2025/26"),
    ],
)
def test_a_refusal_on_a_seasons_quota_says_none_is_left_that_season_403a1_403a2_443b2(code, params, left):
    """§ 403A2 and § 443B2: one top-16 per playing time (or one combined) a season; § 403A1 and § 453: one
    alternative Klubsølv a season. The refusal says the season's quota is used up."""
    issue = Issue(code, params={"season": "2025/26", "other": "Top-16 (2025-10-06)", **params})
    assert left in str(issue.message)

"""The bronze and gold cups (§ 451C–E) and the clubs' top-16 lists (§ 452A): services, refusals and pages."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from clubs.models import ClubMembership, PlayingTime
from demo.seasons import _opening_balances
from federation.models import AuditEvent
from masterpoints.corrections.services import correction_decide, correction_request_file
from masterpoints.cups.services import cup_keeper, cup_ranking, cup_win_record, top16
from masterpoints.models import CupSeries, CupWin
from tests.factories import make_player, post_award
from tournaments.models import Tournament

S24 = datetime.date(2024, 9, 1)  # in the season 2024/25 (16 May 2024 – 15 May 2025)
AFTER = datetime.date(2030, 6, 1)


def player(world, number, *, hide=False, fed=None):
    return make_player(fed or world.dbf, number, first="P", hide_name=hide)


def post(p, units, kind="BP", day=S24, source="manual", tournament=None):
    return post_award(
        p, kind, units, day=day, source=source, tournament=tournament, reason="" if source == "result" else "test"
    )


@pytest.fixture
def bronze(world):
    return CupSeries.objects.create(federation=world.dbf, cup="bronze", first_season=2024)


@pytest.fixture
def gold(world):
    return CupSeries.objects.create(federation=world.dbf, cup="gold", first_season=2024)


def record(personas, world, cup, season, **kwargs):
    return cup_win_record(
        actor=personas.secretariat, federation=world.dbf, cup=cup, season=season, today=AFTER, **kwargs
    )


# --- the rankings ---------------------------------------------------------------------------------------------


def test_the_cups_count_points_won_in_denmark_from_16_may_to_15_may_only_451c(world):
    a, b = player(world, "1"), player(world, "2")
    post(a, 100)
    post(a, 500, source="foreign")  # Swedish MP converted: not won in Denmark
    post(a, 50, day=datetime.date(2024, 5, 15))  # the season before
    post(b, 120, day=datetime.date(2025, 5, 15))  # the last day of the season
    lines = cup_ranking(federation=world.dbf, cup="bronze", season=2024)
    assert [(line.player.number, line.units) for line in lines] == [("2", 120), ("1", 100)]


def test_the_bronze_cup_counts_bp_and_the_gold_cup_every_mp_451d_451e(world):
    a, b = player(world, "1"), player(world, "2")
    post(a, 300)
    post(b, 200)
    post(b, 150, kind="GP")  # 1.50 GP = 150 hundredths of MP
    assert cup_ranking(federation=world.dbf, cup="bronze", season=2024)[0].player == a
    gold_lines = cup_ranking(federation=world.dbf, cup="gold", season=2024)
    assert [(line.player.number, line.units) for line in gold_lines] == [("2", 350), ("1", 300)]


def test_the_cups_and_their_report_leave_out_opening_balances_d_q31_451c(
    client, world, personas, bronze, gold, monkeypatch
):
    """§ 451C "MP vundet i Danmark i perioden", § 451D–E "i perioden har erhvervet og fået registreret"
    (D-Q31): opening balances brought from the previous system (the demo's and the transition imports'
    ``source="transition"`` entries, dated in the season) and a correction of one are not won in the season;
    tournament results and the commission's corrections of them are. Through the ledger, the correction
    service and the secretariat's report."""
    from django.utils import timezone

    karen, ole = world.player, player(world, "2")
    _opening_balances(world.dbf, S24)  # the demo's opening entries, for every player that brings one
    opening = post(karen, 5000, source="transition")
    event = club_event(world, S24)
    post(karen, 100, source="result", tournament=event)
    won = post(ole, 200, source="result", tournament=event)
    monkeypatch.setattr(timezone, "localdate", lambda: datetime.date(2025, 1, 10))
    for actor, target, units in ((personas.player, {"award": opening}, 300), (personas.director_a, {"award": won}, 20)):
        request = correction_request_file(actor=actor, player=target["award"].player, text="Saldo", **target)
        correction_decide(
            actor=personas.commission, correction=request, grant=True, reason="Rettet", adjustments=[("BP", units)]
        )
    monkeypatch.setattr(timezone, "localdate", lambda: AFTER)
    for cup in ("bronze", "gold"):
        lines = cup_ranking(federation=world.dbf, cup=cup, season=2024)
        assert [(line.player, line.units) for line in lines] == [(ole, 220), (karen, 100)]
    client.force_login(personas.secretariat)
    page = client.get(reverse("cups:report") + "?season=2024").content.decode()
    assert f"<td>{ole}</td><td>220</td>" in page and f"<td>{karen}</td><td>100</td>" in page
    assert f"<td>{ole}</td><td>2.20</td>" in page  # the gold cup in MP (§ 451E)
    assert f"{ole} (220)" in page


# --- recording winners ---------------------------------------------------------------------------------------


def test_the_secretariat_records_the_bronze_winner_with_an_audit_row_451d(world, personas, bronze):
    a, b = player(world, "1"), player(world, "2")
    post(a, 300)
    post(b, 200)
    win = record(personas, world, "bronze", 2024)
    assert (win.player, win.units, win.top_player, win.top_units) == (a, 300, a, 300)
    assert AuditEvent.objects.filter(action="cup.win.record").exists()


def test_a_bronze_winner_cannot_win_again_in_ten_years_and_the_next_player_wins_451d(world, personas, bronze):
    a, b = player(world, "1"), player(world, "2")
    post(a, 300)
    post(b, 200)
    record(personas, world, "bronze", 2024)
    post(a, 900, day=datetime.date(2025, 9, 1))
    post(b, 100, day=datetime.date(2025, 9, 1))
    lines = cup_ranking(federation=world.dbf, cup="bronze", season=2025)
    assert (lines[0].player, lines[0].eligible, lines[0].won_in) == (a, False, 2024)
    win = record(personas, world, "bronze", 2025)
    assert (win.player, win.top_player, win.top_units) == (b, a, 900)


def test_the_bronze_cup_is_kept_by_the_best_winning_result_even_from_a_later_season_451d(world, bronze):
    a, b, c = player(world, "1"), player(world, "2"), player(world, "3")
    CupWin.objects.create(series=bronze, season=2024, player=a, units=300, top_player=a, top_units=300)
    CupWin.objects.create(series=bronze, season=2025, player=b, units=350, top_player=a, top_units=900)
    for season in range(2026, 2034):
        CupWin.objects.create(series=bronze, season=season, player=c, units=100, top_player=c, top_units=100)
    keeper = cup_keeper(bronze)
    assert keeper.complete and keeper.players == [a] and keeper.result == 900


def test_the_gold_cup_is_won_every_year_and_kept_by_the_most_wins_then_the_best_result_451e(world, personas, gold):
    a, b = player(world, "1"), player(world, "2")
    post(a, 300)
    assert record(personas, world, "gold", 2024).player == a
    post(a, 400, day=datetime.date(2025, 9, 1))
    assert record(personas, world, "gold", 2025).player == a  # no once-in-ten-years rule for gold
    for season, p, units in [(2026, b, 500), (2027, b, 200)]:
        CupWin.objects.create(series=gold, season=season, player=p, units=units, top_player=p, top_units=units)
    keeper = cup_keeper(gold)
    assert not keeper.complete and keeper.wins == 2 and keeper.players == [b] and keeper.result == 500


# --- every refusal -------------------------------------------------------------------------------------------


def test_only_dbf_keeps_cups_451c(world, personas):
    with pytest.raises(ValidationError) as error:
        cup_win_record(actor=personas.secretariat, federation=world.hbs, cup="gold", season=2024, today=AFTER)
    assert error.value.code == "NOT_DBF"


def test_only_the_secretariat_records_a_cup(world, personas, bronze):
    post(player(world, "1"), 10)
    with pytest.raises(PermissionDenied):
        cup_win_record(actor=personas.director_a, federation=world.dbf, cup="bronze", season=2024, today=AFTER)


def test_a_season_is_recorded_only_after_15_may_451c(world, personas, bronze):
    post(player(world, "1"), 10)
    with pytest.raises(ValidationError) as error:
        cup_win_record(
            actor=personas.secretariat,
            federation=world.dbf,
            cup="bronze",
            season=2024,
            today=datetime.date(2025, 5, 15),
        )
    assert error.value.code == "SEASON_RUNNING"


def test_a_season_outside_every_series_is_refused(world, personas, bronze):
    with pytest.raises(ValidationError) as error:
        record(personas, world, "bronze", 2020)  # the series starts in 2024
    assert error.value.code == "NO_SERIES"


def test_a_season_is_recorded_once(world, personas, bronze):
    post(player(world, "1"), 10)
    record(personas, world, "bronze", 2024)
    with pytest.raises(ValidationError) as error:
        record(personas, world, "bronze", 2024)
    assert error.value.code == "ALREADY_RECORDED"


def test_the_bronze_seasons_are_recorded_in_order_451d(world, personas, bronze):
    post(player(world, "1"), 10, day=datetime.date(2025, 9, 1))
    with pytest.raises(ValidationError) as error:
        record(personas, world, "bronze", 2025)
    assert error.value.code == "EARLIER_SEASON_OPEN"


def test_a_season_without_points_has_no_winner(world, personas, bronze):
    with pytest.raises(ValidationError) as error:
        record(personas, world, "bronze", 2024)
    assert error.value.code == "NO_CANDIDATE"


def test_a_tie_at_the_top_is_for_the_secretariat_to_decide_among_the_tied(world, personas, bronze):
    a, b, c = player(world, "1"), player(world, "2"), player(world, "3")
    post(a, 300)
    post(b, 300)
    post(c, 100)
    with pytest.raises(ValidationError) as error:
        record(personas, world, "bronze", 2024)
    assert error.value.code == "TIE"
    with pytest.raises(ValidationError) as error:
        record(personas, world, "bronze", 2024, player=c)
    assert error.value.code == "NOT_THE_LEADER"
    assert record(personas, world, "bronze", 2024, player=b).player == b


def test_a_former_bronze_winner_cannot_be_named_the_winner_451d(world, personas, bronze):
    a, b = player(world, "1"), player(world, "2")
    post(a, 300)
    record(personas, world, "bronze", 2024)
    post(a, 300, day=datetime.date(2025, 9, 1))
    post(b, 100, day=datetime.date(2025, 9, 1))
    with pytest.raises(ValidationError) as error:
        record(personas, world, "bronze", 2025, player=a)
    assert error.value.code == "WON_IN_SERIES"


# --- top-16 (§ 452A) ---------------------------------------------------------------------------------------


def club_event(world, day, club=None, playing_time=None):
    """A confirmed club pairs tournament on ``day``, recording the club playing time it was played in."""
    club = club or world.club_a
    return Tournament.objects.create(
        federation=world.dbf,
        organiser_kind="club",
        club=club,
        name=f"Klubaften {day} {playing_time or ''}",
        event_key=f"club:{club.number}|{day}|{playing_time and playing_time.pk}",
        date=day,
        form="pairs",
        category="BP",
        boards=24,
        playing_time=playing_time,
    )


def test_top16_takes_the_members_bp_from_the_clubs_own_tournaments_per_playing_time_452a(world):
    monday = PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")
    thursday = PlayingTime.objects.create(club=world.club_a, weekday=3, part_of_day="evening")
    mon = club_event(world, datetime.date(2024, 9, 2), playing_time=monday)
    thu = club_event(world, datetime.date(2024, 9, 5), playing_time=thursday)
    elsewhere = club_event(world, datetime.date(2024, 9, 2), club=world.club_b)
    members = [player(world, str(100 + i)) for i in range(20)]
    for i, p in enumerate(members):
        ClubMembership.objects.create(player=p, club=world.club_a)
        post(p, 100 - i, source="result", tournament=mon)
    post(members[19], 500, source="result", tournament=thu)  # Thursday only counts club-wide
    post(members[18], 500, source="result", tournament=elsewhere)  # another club's tournament
    guest = player(world, "999")
    post(guest, 1000, source="result", tournament=mon)  # not a member
    lines = top16(club=world.club_a, season=2024, playing_time=monday)
    assert [line.player for line in lines if line.qualified] == members[:16]
    assert [line.player for line in lines if not line.qualified] == members[16:20]
    whole = top16(club=world.club_a, season=2024)
    assert whole[0].player == members[19] and whole[0].bp == 500 + 81


def test_members_tied_on_the_16th_place_are_all_shown_qualified_and_tied_452a(world):
    event = club_event(world, datetime.date(2024, 9, 2))
    members = [player(world, str(200 + i)) for i in range(18)]
    for i, p in enumerate(members):
        ClubMembership.objects.create(player=p, club=world.club_a)
        post(p, max(50 - i, 35), source="result", tournament=event)  # places 16–18 all have 35
    lines = top16(club=world.club_a, season=2024)
    assert sum(line.qualified for line in lines) == 18
    assert [line.tied for line in lines[15:]] == [True, True, True] and lines[15].place == 16


def member(world, number, **dates):
    """A player who is (or was) a member of club A, ``since``/``until`` as given."""
    p = player(world, number)
    ClubMembership.objects.create(player=p, club=world.club_a, **dates)
    return p


def test_top16_holds_the_clubs_members_on_the_day_it_is_drawn_up_with_all_their_bp_d_q30_452a(
    client, world, monkeypatch
):
    """§ 452A "De 16 medlemmer, der i klubbens turneringer har vundet flest BP i sæsonens løb ... er
    berettigede til at deltage" (D-Q30): a member who left the club during the season is not on a list drawn
    up after leaving, however many BP; one who joined during the season is, with the BP won in the club's
    tournaments before joining; a guest never is."""
    from django.utils import timezone

    autumn = club_event(world, datetime.date(2024, 9, 2))
    stayed = member(world, "301", since=datetime.date(2020, 1, 1))
    left = member(world, "302", since=datetime.date(2020, 1, 1), until=datetime.date(2024, 12, 31))
    joined = member(world, "303", since=datetime.date(2025, 1, 1))
    guest = player(world, "304")
    for p, units in ((stayed, 40), (left, 90), (joined, 60), (guest, 80)):
        post(p, units, source="result", tournament=autumn)
    spring = datetime.date(2025, 3, 1)
    lines = top16(club=world.club_a, season=2024, on=spring)
    assert [(line.player, line.bp, line.place) for line in lines] == [(joined, 60, 1), (stayed, 40, 2)]
    before = top16(club=world.club_a, season=2024, on=datetime.date(2024, 12, 1))
    assert [line.player for line in before] == [left, stayed]
    monkeypatch.setattr(timezone, "localdate", lambda: spring)
    page = client.get(reverse("cups:top16", args=[world.club_a.pk]) + "?season=2024").content.decode()
    assert "P L303" in page and "P L301" in page
    assert "P L302" not in page and "P L304" not in page


def test_two_playing_times_on_one_weekday_each_have_their_own_top16_452a(client, world):
    """§ 452A "hver ugentlig spilleperiode for sig": Monday afternoon and Monday evening are two lists, each
    counting the tournaments that record it; the whole club counts them all, and a tournament that records
    no playing time counts club-wide only."""
    afternoon = PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="afternoon")
    evening = PlayingTime.objects.create(club=world.club_a, weekday=0, part_of_day="evening")
    monday = datetime.date(2024, 9, 2)
    early, late = club_event(world, monday, playing_time=afternoon), club_event(world, monday, playing_time=evening)
    unrecorded = club_event(world, datetime.date(2024, 9, 9))
    a, e, both = member(world, "401"), member(world, "402"), member(world, "403")
    post(a, 70, source="result", tournament=early)
    post(e, 50, source="result", tournament=late)
    post(both, 30, source="result", tournament=early)
    post(both, 45, source="result", tournament=late)
    post(e, 100, source="result", tournament=unrecorded)

    def listed(playing_time=None):
        lines = top16(club=world.club_a, season=2024, playing_time=playing_time)
        return [(line.player, line.bp) for line in lines]

    assert listed(afternoon) == [(a, 70), (both, 30)]
    assert listed(evening) == [(e, 50), (both, 45)]
    assert listed() == [(e, 150), (both, 75), (a, 70)]
    url = reverse("cups:top16", args=[world.club_a.pk]) + f"?season=2024&playing_time={evening.pk}"
    page = client.get(url).content.decode()
    assert "P L402" in page and "P L403" in page and "P L401" not in page
    assert f'<option value="{afternoon.pk}">' in page and f'<option value="{evening.pk}" selected>' in page


def test_a_playing_time_given_up_keeps_its_top16_for_the_seasons_it_was_played_452a(client, world):
    """§ 452A "hver ugentlig spilleperiode for sig": a playing time the club has since given up is still
    offered for the season its tournaments record it in, and not for a season without them."""
    gone = PlayingTime.objects.create(club=world.club_a, weekday=2, part_of_day="afternoon", active=False)
    event = club_event(world, datetime.date(2024, 9, 4), playing_time=gone)
    post(member(world, "501"), 30, source="result", tournament=event)
    url = reverse("cups:top16", args=[world.club_a.pk])
    page = client.get(url + f"?season=2024&playing_time={gone.pk}").content.decode()
    assert f'<option value="{gone.pk}" selected>' in page and "P L501" in page
    assert f'<option value="{gone.pk}"' not in client.get(url + "?season=2023").content.decode()


def test_top16_lists_are_dbfs(world):
    with pytest.raises(ValidationError) as error:
        top16(club=world.club_hr, season=2024)
    assert error.value.code == "NOT_DBF"


# --- pages with the personas ---------------------------------------------------------------------------------


def test_the_cup_page_is_public_and_hides_hidden_names_except_from_the_secretariat(client, world, personas, bronze):
    post(player(world, "77", hide=True), 300, day=datetime.date(2025, 9, 1))
    post(player(world, "78"), 100, day=datetime.date(2025, 9, 1))
    url = reverse("cups:list") + "?cup=bronze&season=2025"
    page = client.get(url).content.decode()
    assert "<td>77</td>" in page and "P L78" in page and "L77" not in page
    client.force_login(personas.secretariat)
    assert "P L77" in client.get(url).content.decode()
    client.force_login(personas.player)
    assert client.get(reverse("cups:list") + "?cup=gold").status_code == 200


def test_the_cup_report_is_the_secretariats_and_records_the_winner(client, world, personas, bronze, monkeypatch):
    from django.utils import timezone

    monkeypatch.setattr(timezone, "localdate", lambda: AFTER)
    a = player(world, "1")
    post(a, 300)
    url = reverse("cups:report") + "?season=2024"
    assert client.get(url).status_code == 302  # anonymous: to the login page
    for persona in (personas.director_a, personas.district_officer, personas.player, personas.commission):
        client.force_login(persona)
        assert client.get(url).status_code == 403
    client.force_login(personas.secretariat)
    assert "Record the winner" in client.get(url).content.decode()
    response = client.post(reverse("cups:report"), {"season": "2024", "cup": "bronze"}, follow=True)
    assert "Recorded" in response.content.decode() and CupWin.objects.get().player == a
    response = client.post(reverse("cups:report"), {"season": "2024", "cup": "bronze"}, follow=True)
    assert "already recorded" in response.content.decode()


def test_the_gold_cup_report_shows_mp_with_their_two_decimals_451e(client, world, personas, gold, monkeypatch):
    from django.utils import timezone

    monkeypatch.setattr(timezone, "localdate", lambda: AFTER)
    post(player(world, "1"), 150, kind="GP")  # 1.50 GP = 1.50 MP, counted in hundredths
    client.force_login(personas.secretariat)
    url = reverse("cups:report") + "?season=2024"
    assert "<td>1.50</td>" in client.get(url).content.decode()
    client.cookies["django_language"] = "da"
    assert "<td>1,50</td>" in client.get(url).content.decode()


def test_the_top16_page_is_public_and_shows_hidden_names_to_the_clubs_directors_only_452a(client, world, personas):
    event = club_event(world, datetime.date(2024, 9, 2))
    hidden = player(world, "55", hide=True)
    ClubMembership.objects.create(player=hidden, club=world.club_a)
    post(hidden, 40, source="result", tournament=event)
    url = reverse("cups:top16", args=[world.club_a.pk]) + "?season=2024"
    page = client.get(url).content.decode()
    assert "<td>55</td>" in page and "qualified" in page
    client.force_login(personas.director_b)
    assert "P L55" not in client.get(url).content.decode()
    client.force_login(personas.director_a)
    assert "P L55" in client.get(url).content.decode()
    assert client.get(reverse("cups:top16", args=[world.club_hr.pk])).status_code == 403

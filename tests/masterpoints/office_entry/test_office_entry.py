"""Awards entered by the office (§ 451A second paragraph, D-Q33): the office form → the upload's preview →
the upload's confirm → the ledger → the player page, for the sections no upload reaches."""

from __future__ import annotations

import pytest
from django.urls import reverse

from masterpoints.models import Award, Standing
from office.services import officer_assign
from tests.factories import DAY, make_players
from tournaments.models import ResultUpload, Tournament

NUMBERS = [str(30001 + i) for i in range(24)]


@pytest.fixture
def register(world):
    return make_players(world.dbf, NUMBERS)


def enter(client, world, office_form: str, ranking: str, **facts):
    """Post the office form; the response (a redirect to the preview when the entry was accepted)."""
    data = {
        "office_form": office_form,
        "name": facts.pop("name", "DM 2025"),
        "date": DAY.isoformat(),
        "participants": 40,
        "boards": 40,
        "level": 1,
        "parallel_rows": 1,
        "ranking": ranking,
        **facts,
    }
    return client.post(f"{reverse('office_entry:new')}?federation={world.dbf.pk}", data)


def enter_and_confirm(client, world, django_capture_on_commit_callbacks, office_form, ranking, **facts):
    """The whole path: the form, the preview page, the confirm; the tournament page's response."""
    response = enter(client, world, office_form, ranking, **facts)
    assert response.status_code == 302, response.content.decode()[:3000]
    preview = client.get(response.url)
    assert preview.status_code == 200
    upload = ResultUpload.objects.latest("pk")
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302, [str(m) for m in done.wsgi_request._messages]
    return client.get(done.url)


def units(number: str, kind: str = "GP") -> int:
    return sum(Award.objects.filter(player__number=number, kind=kind).values_list("units", flat=True))


def test_dm_open_superliga_pays_its_table_and_the_rows_cite_434a1a(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """§ 434A1a: the Superliga's 11 best get 40 – 27 – 18 – 12 – …; places 3–4 tied share 18 + 12 (D-Q12).
    The ledger rows cite § 434A1a and § 451A; the standing and the player page show them."""
    client.force_login(personas.secretariat)
    ranking = f"1 {NUMBERS[0]} {NUMBERS[1]}\n2 {NUMBERS[2]} {NUMBERS[3]}\n3-4 {NUMBERS[4]} {NUMBERS[5]}\n"
    ranking += f"3-4 {NUMBERS[6]} {NUMBERS[7]}\n"
    page = enter_and_confirm(client, world, django_capture_on_commit_callbacks, "dm_open_superliga", ranking)
    assert page.status_code == 200
    assert [units(n) for n in NUMBERS[:8]] == [4000, 4000, 2700, 2700, 1500, 1500, 1500, 1500]
    award = Award.objects.filter(player__number=NUMBERS[0]).get()
    assert {"§ 434A1a", "§ 451A", "D-Q33"} <= set(award.explanation_data["rules"])
    tournament = Tournament.objects.get()
    assert (tournament.organiser_kind, tournament.category, tournament.club) == ("federation", "GP", None)
    assert Standing.objects.get(player__number=NUMBERS[0]).points("GP") == 4000
    player_page = client.get(reverse("public:player", args=[world.dbf.code, NUMBERS[0]]))
    assert "§ 434A1a" in player_page.content.decode()


def test_a_second_entry_of_the_same_event_supersedes_the_first_d_q33(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """§ 434A3 (DM women's pairs: 12 – 10 – …): entered again with the same form, date and name, the entry
    replaces the first one as a re-upload does: the first awards are reversed, the new ones posted."""
    client.force_login(personas.secretariat)
    first = f"1 {NUMBERS[0]} {NUMBERS[1]}\n2 {NUMBERS[2]} {NUMBERS[3]}\n"
    enter_and_confirm(client, world, django_capture_on_commit_callbacks, "dm_women", first)
    assert (units(NUMBERS[0]), units(NUMBERS[2])) == (1200, 1000)
    second = f"1 {NUMBERS[2]} {NUMBERS[3]}\n2 {NUMBERS[0]} {NUMBERS[1]}\n"
    response = enter(client, world, "dm_women", second)
    preview = client.get(response.url).content.decode()
    assert NUMBERS[2] in preview
    enter_upload = ResultUpload.objects.latest("pk")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("uploads:confirm", args=[enter_upload.pk]), {"acknowledge_warnings": "on"})
    assert (units(NUMBERS[0]), units(NUMBERS[2])) == (1000, 1200)
    assert Tournament.objects.filter(is_current=True).count() == 1
    assert Award.objects.filter(source=Award.Source.REVERSAL).count() == 4
    assert Standing.objects.get(player__number=NUMBERS[2]).points("GP") == 1200


def test_gp_division_teams_pay_per_won_match_and_the_bonus_414b(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """§ 414B2a–b, 1st division: 5 GP per won match (40 boards: n1 = 1, § 405A3), a draw half (§ 411C), and
    28 GP to the winner, 20 to no. 2, 14 shared by nos. 3 and 4 (§ 414B2b iii). A player with 100 of the
    team's 280 boards played 14 of each match's 40 (D-Q34): 5·14/40 = 1.75 a win, 0.88 for the draw, and no
    bonus, short of half the boards (§ 411D, § 414A)."""
    client.force_login(personas.secretariat)
    team1 = " ".join(NUMBERS[0:3]) + f" {NUMBERS[3]}:100 won=5 drawn=1"
    ranking = "\n".join(
        [
            f"1 {team1}",
            f"2 {' '.join(NUMBERS[4:8])} won=4",
            f"3-4 {' '.join(NUMBERS[8:12])} won=3",
            f"3-4 {' '.join(NUMBERS[12:16])} won=2",
        ]
    )
    enter_and_confirm(
        client, world, django_capture_on_commit_callbacks, "gp_division", ranking, participants=8, team_boards=280
    )
    assert units(NUMBERS[0]) == 5 * 500 + 250 + 2800
    assert units(NUMBERS[3]) == 5 * 175 + 88
    assert units(NUMBERS[4]) == 4 * 500 + 2000
    assert units(NUMBERS[8]) == 3 * 500 + 700
    bonus = Award.objects.filter(player__number=NUMBERS[0], part__startswith="bonus").get()
    assert "§ 414B" in bonus.explanation_data["rules"]


def test_dm_senior_teams_c_final_plays_for_the_secondary_value_d_q35(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """§ 414E2a ii: "Sekundære finaler … 0,75 GP" a won match, also in the C final (D-Q35), whose winner gets
    the 1 GP bonus of § 414E2d."""
    client.force_login(personas.secretariat)
    ranking = f"1 {' '.join(NUMBERS[0:4])} won=2\n2 {' '.join(NUMBERS[4:8])} won=1"
    enter_and_confirm(
        client,
        world,
        django_capture_on_commit_callbacks,
        "gp_dm_senior",
        ranking,
        participants=4,
        level=3,
        team_boards=120,
    )
    assert units(NUMBERS[0]) == 2 * 75 + 100
    assert units(NUMBERS[4]) == 75


def test_the_cup_pays_each_won_match_by_its_round_414h(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """§ 414H2: final 24, semifinals 12, quarterfinals 6 GP for each won match; no bonus for placing (D-Q36)."""
    client.force_login(personas.secretariat)
    ranking = (
        f"1 {' '.join(NUMBERS[0:4])} rounds=final,semifinal,quarterfinal\n"
        f"2 {' '.join(NUMBERS[4:8])} rounds=semifinal,quarterfinal"
    )
    enter_and_confirm(client, world, django_capture_on_commit_callbacks, "gp_cup_main", ranking, participants=64)
    assert units(NUMBERS[0]) == 2400 + 1200 + 600
    assert units(NUMBERS[4]) == 1800
    assert not Award.objects.filter(part__startswith="bonus").exists()
    final = Award.objects.filter(player__number=NUMBERS[0], part__startswith="final").get()
    assert {"§ 414H2", "§ 414H"} <= set(final.explanation_data["rules"])


def test_beginners_qualifier_pays_half_the_final_433d2(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """§ 433D2a–b: the qualifiers pay SP at half quota and the final at full quota whatever the boards: with
    20 pairs the winners get 1 SP a pair (§ 433) in the final, 20 SP, and 10 SP in a qualifier."""
    client.force_login(personas.secretariat)
    facts = {"participants": 20, "boards": 20}
    line = f"1 {NUMBERS[0]} {NUMBERS[1]}"
    enter_and_confirm(client, world, django_capture_on_commit_callbacks, "beginners_final", line, **facts)
    other = f"1 {NUMBERS[2]} {NUMBERS[3]}"
    enter_and_confirm(
        client, world, django_capture_on_commit_callbacks, "beginners_qualifier", other, name="Kval 1", **facts
    )
    assert (units(NUMBERS[0], "SP"), units(NUMBERS[2], "SP")) == (200, 100)
    rules = Award.objects.filter(player__number=NUMBERS[2]).get().explanation_data["rules"]
    assert "§ 433D2a" in rules


def test_school_pairs_second_row_pays_bp_and_klubsolv_its_band_433c_434a5(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """§ 433C: the second row of the DM school pairs pays BP by the general rules; § 434A5: Klubsølv's
    national comparison of 51–200 pairs pays 2 – 1 GP."""
    client.force_login(personas.secretariat)
    line = f"1 {NUMBERS[0]} {NUMBERS[1]}"
    enter_and_confirm(
        client, world, django_capture_on_commit_callbacks, "school_pairs_second", line, participants=10, boards=24
    )
    assert units(NUMBERS[0], "BP") > 0 and units(NUMBERS[0], "SP") == 0
    assert "§ 433C" in Award.objects.filter(player__number=NUMBERS[0]).get().explanation_data["rules"]
    ranking = f"1 {NUMBERS[2]} {NUMBERS[3]}\n2 {NUMBERS[4]} {NUMBERS[5]}"
    enter_and_confirm(
        client,
        world,
        django_capture_on_commit_callbacks,
        "klubsolv_national",
        ranking,
        participants=120,
        boards=24,
        name="Klubsølv NS",
    )
    assert (units(NUMBERS[2]), units(NUMBERS[4])) == (200, 100)


def test_junior_pairs_final_takes_the_bonus_entered_by_hand_433b2_451a(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """§ 433B2b: the § 406B2 bonus of the DM junior pairs final, whose formula is not known (D-Q15), is entered
    by hand as § 451A lets the organiser compute MP himself: each player of the pair gets it besides the SP of
    the place."""
    client.force_login(personas.secretariat)
    ranking = f"1 {NUMBERS[0]} {NUMBERS[1]} bonus=4.5\n2 {NUMBERS[2]} {NUMBERS[3]}"
    enter_and_confirm(
        client,
        world,
        django_capture_on_commit_callbacks,
        "junior_pairs_final_sp",
        ranking,
        participants=20,
        boards=60,
    )
    bonus = Award.objects.filter(player__number=NUMBERS[0], part__endswith="bonus").get()
    assert bonus.units == 45 and bonus.kind == "SP"
    assert {"§ 433B2", "§ 406B2", "§ 451A"} <= set(bonus.explanation_data["rules"])
    assert not Award.objects.filter(player__number=NUMBERS[2], part__endswith="bonus").exists()


@pytest.mark.parametrize(
    ("ranking", "expected"),
    [
        ("1 30001 39999", "Line 1: no player has the number 39999"),
        ("1 30001 30002\n\n41 30003 30004", "Line 3: place 41 is beyond the field of 40"),
        ("1 30001 30002\nfirst 30003 30004", "Line 2: “first” is not a place"),
        ("1 30001 30002\n3 30003 30004", "Line 2: place 3 leaves a gap in the ranking: the next place is 2"),
        ("1 30001 30002\n2-3 30003 30004", "Line 2: 1 lines share place 2-3"),
        ("1 30001 30002\n2 30001 30004", "Line 2: player 30001 is already on line 1"),
        ("1 30001", "Line 1: a pair has two player numbers, not 1"),
        ("1 30001 30002 won=3", "Line 1: “won=” has no meaning here"),
    ],
)
def test_a_bad_ranking_line_is_named_and_nothing_is_written_d_q33(client, world, personas, register, ranking, expected):
    """Unknown player numbers, a place out of the field, a line that does not parse, a tie that does not add
    up, a gap, a player twice: the message names the line and what is wrong; no upload, no tournament."""
    client.force_login(personas.secretariat)
    response = enter(client, world, "dm_open_superliga", ranking)
    assert response.status_code == 200
    assert expected in response.content.decode().replace("&quot;", '"')
    assert not ResultUpload.objects.exists() and not Tournament.objects.exists() and not Award.objects.exists()


def test_a_team_level_the_section_does_not_print_is_refused_414f(client, world, personas, register):
    """§ 414F: the DM mixed teams is one final: level 2 is refused with the section and its one level."""
    client.force_login(personas.secretariat)
    response = enter(client, world, "gp_dm_mixed", "1 30001 30002 won=1", level=2, team_boards=40)
    assert "§ 414F has 1 level(s), not 2." in response.content.decode()
    assert not ResultUpload.objects.exists()


def test_only_the_secretariat_reaches_the_office_entry_and_sees_its_link(client, world, personas, django_user_model):
    """§ 451A: DBf's secretariat administers the MP scheme: the page answers 403 to everybody else (HBS's
    secretariat too: its rule book has no such forms), and My office links it for the secretariat only."""
    url = reverse("office_entry:new")
    tajnik = django_user_model.objects.create_user("tajnik", "tajnik@example.com", "pw-tajnik")
    officer_assign(actor=None, user=tajnik, role="secretariat", federation=world.hbs)
    for user in (personas.director_a, personas.district_officer, personas.commission, personas.player, tajnik):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(url, {"office_form": "dm_women"}).status_code == 403
        assert url not in client.get(reverse("office:home")).content.decode()
    client.logout()
    assert reverse("login") in client.get(url).url
    client.force_login(personas.secretariat)
    assert client.get(url).status_code == 200
    assert url in client.get(reverse("office:home")).content.decode()


def test_the_service_refuses_anyone_but_the_secretariat_451a(world, personas, register):
    """The write itself checks who acts, whatever view calls it."""
    from django.core.exceptions import PermissionDenied

    from masterpoints.engine.dbf.tables import office_form
    from masterpoints.office_entry.services import office_award_create

    with pytest.raises(PermissionDenied):
        office_award_create(
            actor=personas.director_a,
            federation=world.dbf,
            form=office_form("dm_women"),
            name="DM",
            day=DAY,
            facts={"participants": 10, "boards": 40},
            lines=[],
            players={},
        )
    assert not ResultUpload.objects.exists()


def test_an_office_team_entry_previews_without_estimates_or_encoding_and_confirms_unticked_d_q34(
    client, world, personas, register, django_capture_on_commit_callbacks
):
    """D-Q34: the office states each player's boards (``NUMBER:BOARDS``) and the share is spread evenly by that
    reading, so the preview raises no TEAM_SHARE_ESTIMATED warning to tick, and a file the site wrote itself
    has no character encoding to choose: the confirm goes through without the warnings box."""
    client.force_login(personas.secretariat)
    ranking = f"1 {' '.join(NUMBERS[0:3])} {NUMBERS[3]}:100 won=5\n2 {' '.join(NUMBERS[4:8])} won=4"
    response = enter(client, world, "gp_division", ranking, participants=8, team_boards=280)
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "TEAM_SHARE_ESTIMATED" not in page and 'id="encoding-heading"' not in page
    upload = ResultUpload.objects.latest("pk")
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(reverse("uploads:confirm", args=[upload.pk]))
    assert done.status_code == 302
    assert units(NUMBERS[3]) == 5 * 175

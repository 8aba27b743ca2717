"""HBS transition rules 1, 3, 4 and 8: opening balances, 1991 holders, kept categories and the what-if run."""

from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from federation.models import AuditEvent, Player, RuleSet
from masterpoints.engine.hbs.rules import HBS_DRAFT
from masterpoints.models import Award, Standing, TitleAchievement
from masterpoints.standings.services import standings_refresh_players
from masterpoints.transition.services import (
    PART_OPENING,
    transition_held_1991_import,
    transition_keep_categories,
    transition_opening_import,
)
from masterpoints.transition.what_if import _replay, transition_what_if
from office.services import officer_assign
from tournaments.models import Entry, Participation, RankingGroup, Tournament

ON = datetime.date(2025, 1, 2)


def hbs_player(world, number):
    return Player.objects.create(federation=world.hbs, number=number, first_name="Ana", last_name=f"H{number}")


@pytest.fixture
def office(world, django_user_model):
    user = django_user_model.objects.create_user("tajnik", "t@example.com", "pw")
    officer_assign(actor=None, user=user, role="secretariat", federation=world.hbs)
    return user


def opening(world, office, text: str):
    return transition_opening_import(actor=office, federation=world.hbs, data=text.encode(), on=ON)


def code_of(error: ValidationError) -> list[str]:
    return [e.code for e in error.error_list]


# --- rule 1: opening black points ------------------------------------------------------------------------------


def test_opening_black_points_are_ledger_rows_from_the_old_list_transition_rule_1(world, office):
    a, b = hbs_player(world, "1"), hbs_player(world, "2")
    report = opening(world, office, "number,black\n1,1200\n2,0\n")
    award = Award.objects.get(player=a)
    assert (award.kind, award.units, award.source, award.part) == ("black", 1200, "transition", PART_OPENING)
    assert report.posted == [("1", "black", 1200)] and report.unchanged == ["2"]
    assert not Award.objects.filter(player=b).exists()
    assert AuditEvent.objects.filter(action="transition.opening", payload__posted=[["1", "black", 1200]]).exists()


def test_the_categories_of_the_opening_balances_are_the_starting_state_not_news_transition_rule_7_h2(world, office):
    """After the import the standings show the categories at once; the monthly title e-mail announces none
    of them (every player would be "new"), but a category reached earlier by a result is still news."""
    a, b = hbs_player(world, "1"), hbs_player(world, "2")
    Award.objects.create(
        federation=world.hbs, player=b, kind="black", units=60, source="manual", reason="x", awarded_on=ON
    )
    standings_refresh_players(federation=world.hbs, player_ids=[b.pk])
    earlier = TitleAchievement.objects.get(player=b)  # vankategornik from a result, not yet announced
    opening(world, office, "number,black\n1,60\n2,600\n")
    assert Standing.objects.get(player=a).title == "vankategornik"
    assert Standing.objects.get(player=b).points("black") == 660
    new = TitleAchievement.objects.filter(player__in=[a, b]).exclude(pk=earlier.pk)
    assert new.count() == 2 and all(row.announced_at is not None for row in new)
    assert TitleAchievement.objects.get(pk=earlier.pk).announced_at is None


def test_a_category_from_a_result_whose_update_is_still_queued_stays_news_transition_rule_7_h2(world, office):
    """The result's award is in the ledger but its standings update has not run yet when the import comes:
    the import settles the standings first, so the result's category is news and the opening's is not."""
    b = hbs_player(world, "2")
    Award.objects.create(
        federation=world.hbs, player=b, kind="black", units=60, source="manual", reason="x", awarded_on=ON
    )
    assert not TitleAchievement.objects.filter(player=b).exists()  # the update is still queued
    opening(world, office, "number,black\n2,600\n")
    lower, higher = TitleAchievement.objects.filter(player=b).order_by("rung")
    assert lower.title == "vankategornik" and lower.announced_at is None
    assert higher.announced_at is not None


def test_importing_the_same_opening_list_again_posts_nothing_and_says_so_transition_rule_1(world, office):
    hbs_player(world, "1")
    opening(world, office, "number,black\n1,1200\n")
    again = opening(world, office, "number,black\n1,1200\n")
    assert again.nothing_posted and again.already == ["1"] and Award.objects.count() == 1


def test_a_file_with_any_bad_row_posts_nothing_and_names_every_line(world, office):
    hbs_player(world, "1")
    with pytest.raises(ValidationError) as error:
        opening(world, office, "number,black\n1,100\n404,5\n1,7\n")
    assert code_of(error.value) == ["UNKNOWN_PLAYER", "DUPLICATE"]
    assert "line 3" in error.value.messages[0] and "line 4" in error.value.messages[1]
    with pytest.raises(ValidationError) as error:
        opening(world, office, "number,black\n1,12.5\n")
    assert code_of(error.value) == ["BAD_AMOUNT"]
    assert not Award.objects.exists()


@pytest.mark.parametrize(
    ("data", "code"),
    [(b"\xff\xfe1,2", "ENCODING"), (b"nr;crni\n1;2\n", "HEADER"), (b"number,black\n\n", "EMPTY")],
)
def test_a_file_that_cannot_be_read_is_refused(world, office, data, code):
    with pytest.raises(ValidationError) as error:
        transition_opening_import(actor=office, federation=world.hbs, data=data)
    assert error.value.code == code


def test_the_transition_is_hbss_and_the_secretariats(world, office, personas):
    with pytest.raises(ValidationError) as error:
        transition_opening_import(actor=personas.secretariat, federation=world.dbf, data=b"number,black\n")
    assert error.value.code == "NOT_HBS"
    with pytest.raises(PermissionDenied):
        transition_opening_import(actor=personas.director_a, federation=world.hbs, data=b"number,black\n1,1\n")


# --- rule 3: 1991 holders ---------------------------------------------------------------------------------------


def test_a_1991_majstor_is_credited_half_the_master_points_majstor_requires_transition_rule_3_h_21(world, office):
    """Issue 34, item 10: "polovina bodova potrebnih prema ovom kriteriju" refers to rule 2's criterion, the
    master points: +25 master for a majstor (500 red, 50 master), not +250 red beside it."""
    p = hbs_player(world, "1")
    report = transition_held_1991_import(
        actor=office, federation=world.hbs, data=b"number,category\n1,Majstor\n", on=ON
    )
    assert sorted(report.posted) == [("1", "master", 25)]
    again = transition_held_1991_import(actor=office, federation=world.hbs, data=b"number,category\n1,majstor\n")
    assert again.already == ["1"] and Award.objects.filter(player=p).count() == 1
    page = Client().get(reverse("public:player", args=[world.hbs.code, "1"])).content.decode()
    balances = page.split('class="balances"', 1)[1].split("</dl>", 1)[0]
    assert "<dd>25</dd>" in balances and "<dd>0</dd>" in balances, "25 master on the page, no red credited"


def test_the_commission_may_credit_red_too_by_the_rule_set_h_21(world, office):
    RuleSet.objects.create(
        federation=world.hbs, valid_from=datetime.date(2000, 1, 1), name="red", payload={"transition_1991_red": True}
    )
    hbs_player(world, "1")
    report = transition_held_1991_import(actor=office, federation=world.hbs, data=b"number,category\n1,majstor\n")
    assert sorted(report.posted) == [("1", "master", 25), ("1", "red", 250)]


def test_the_1991_share_is_a_setting_rounded_up_transition_rule_3(world, office):
    RuleSet.objects.create(
        federation=world.hbs, valid_from=datetime.date(2000, 1, 1), name="1/3", payload={"transition_1991_share": "1/3"}
    )
    hbs_player(world, "1")
    report = transition_held_1991_import(actor=office, federation=world.hbs, data=b"number,category\n1,majstor\n")
    assert sorted(report.posted) == [("1", "master", 17)]


def test_a_category_without_red_or_master_minimums_is_not_a_higher_one_transition_rule_3(world, office):
    hbs_player(world, "1")
    hbs_player(world, "2")
    with pytest.raises(ValidationError) as error:
        transition_held_1991_import(
            actor=office, federation=world.hbs, data=b"number,category\n1,pik\n2,kapetan\n", on=ON
        )
    assert code_of(error.value) == ["UNKNOWN_CATEGORY"]
    with pytest.raises(ValidationError) as error:
        transition_held_1991_import(actor=office, federation=world.hbs, data=b"number,category\n1,pik\n", on=ON)
    assert code_of(error.value) == ["NOT_HIGHER"] and not Award.objects.exists()


# --- rule 4: old categories kept ---------------------------------------------------------------------------------


def test_an_old_category_is_kept_and_red_and_master_are_topped_up_to_its_minimums_transition_rule_4_h2(world, office):
    p = hbs_player(world, "1")
    hbs_player(world, "2")
    opening(world, office, "number,black\n1,100\n2,600\n")
    Award.objects.create(
        federation=world.hbs, player=p, kind="red", units=100, source="manual", reason="x", awarded_on=ON
    )
    report = transition_keep_categories(
        actor=office, federation=world.hbs, data=b"number,category\n1,majstor\n2,karo\n", on=ON
    )
    assert sorted(report.posted) == [("1", "master", 50), ("1", "red", 400)]  # never black (rule 4)
    assert report.kept == [("1", "majstor")] and report.unchanged == ["2"]  # 600 black already gives karo
    kept = TitleAchievement.objects.filter(player=p).order_by("rung").last()  # above the opening vankategornik
    assert kept.title == "majstor" and kept.announced_at is not None  # kept, not news for the title e-mail
    standings_refresh_players(federation=world.hbs, player_ids=[p.pk])
    assert Standing.objects.get(player=p).title == "majstor"  # held above the computed vankategornik (H-2)
    again = transition_keep_categories(actor=office, federation=world.hbs, data=b"number,category\n1,majstor\n")
    assert again.nothing_posted and again.already == ["1"]


# --- rule 8: what if ---------------------------------------------------------------------------------------------


@pytest.fixture
def history(world, office):
    """Eight pairs on 24 boards with S = 1 for black; every player opened with 20 black points."""
    players = [hbs_player(world, str(100 + i)) for i in range(16)]
    opening(world, office, "number,black\n" + "".join(f"{p.number},20\n" for p in players))
    event = Tournament.objects.create(
        federation=world.hbs,
        organiser_kind="club",
        club=world.club_hr,
        name="Klupski turnir",
        event_key="k1",
        date=datetime.date(2024, 3, 1),
        form="pairs",
        category="black",
        boards=24,
        strengths={"black": "1"},
    )
    group = RankingGroup.objects.create(tournament=event, key="A", name="A", field_size=8)
    for place in range(1, 9):
        entry = Entry.objects.create(
            group=group, key=str(place), number=str(place), place_first=place, place_last=place
        )
        for p in players[2 * (place - 1) : 2 * place]:
            Participation.objects.create(entry=entry, player=p, resolution="member")
    for (player_id, kind), units in _replay(event, HBS_DRAFT, {}).items():
        Award.objects.create(
            federation=world.hbs, player_id=player_id, kind=kind, units=units, source="result", tournament=event,
            awarded_on=event.date,
        )  # fmt: skip
    return players


def test_the_what_if_under_the_rules_in_force_moves_nobody_transition_rule_8(world, history):
    result = transition_what_if(federation=world.hbs)
    assert result.tournaments == 1 and (result.up, result.down) == (0, 0) and result.same == 16
    assert all(row.current == row.alternative for row in result.rows)


def test_a_higher_strength_moves_the_winners_up_side_by_side_transition_rule_8(world, history):
    result = transition_what_if(federation=world.hbs, strengths={"black": "3"})
    # B = (3 + 8/5) · 3 · (1 + 24/12) − 7 = 34.4: the winners reach 20 + 35 ≥ 50 black (vankategornik).
    winners = {row.player.number: row for row in result.rows}
    assert winners["100"].current_category is None and winners["100"].alternative_category == "vankategornik"
    assert winners["100"].alternative[0] == 55 and result.up > 0 and result.down == 0


def test_the_share_of_places_paid_and_its_rounding_are_what_if_parameters_h3(world, history):
    wider = transition_what_if(federation=world.hbs, overrides={"paid_share": "1"})
    narrower = transition_what_if(federation=world.hbs, overrides={"paid_share": "0.3", "paid_rounding": "down"})
    paid = {row.player.number: row.alternative[0] > 20 for row in wider.rows}
    assert all(paid.values())  # every pair paid
    assert sum(row.alternative[0] > 20 for row in narrower.rows) == 4  # floor(0.3 · 8) = 2 pairs


def test_bad_what_if_parameters_are_refused(world, history):
    with pytest.raises(ValidationError) as error:
        transition_what_if(federation=world.hbs, overrides={"paid_sahre": "1"})
    assert error.value.code == "BAD_PARAMETER"
    with pytest.raises(ValidationError) as error:
        transition_what_if(federation=world.hbs, strengths={"gold": "1"})
    assert error.value.code == "BAD_STRENGTH"
    with pytest.raises(ValidationError) as error:
        transition_what_if(federation=world.hbs, strengths={"black": "x"})
    assert error.value.code == "BAD_STRENGTH"
    with pytest.raises(ValidationError) as error:
        transition_what_if(federation=world.dbf)
    assert error.value.code == "NOT_HBS"


def test_the_what_if_writes_nothing(world, history):
    before = Award.objects.count(), Standing.objects.count(), AuditEvent.objects.count()
    transition_what_if(federation=world.hbs, strengths={"black": "3"})
    assert (Award.objects.count(), Standing.objects.count(), AuditEvent.objects.count()) == before


# --- the command ------------------------------------------------------------------------------------------------


def test_the_command_imports_and_reports_a_repeated_import_as_posting_nothing(world, tmp_path, capsys):
    hbs_player(world, "1")
    path = tmp_path / "old.csv"
    path.write_text("number,black\n1,300\n")
    call_command("hbs_transition", "opening", str(path))
    assert "posted 1: 300 black" in capsys.readouterr().out
    call_command("hbs_transition", "opening", str(path))
    out = capsys.readouterr().out
    assert "already done, nothing posted: 1" in out and "This import posted nothing." in out
    path.write_text("number,black\n2,300\n")
    with pytest.raises(CommandError, match="no player with the number 2"):
        call_command("hbs_transition", "opening", str(path))


def test_the_what_if_command_prints_the_changes_as_csv_with_a_summary(world, history, capsys):
    call_command("hbs_transition", "what-if", "--strength", "black=3", "--set", "paid_rounding=up")
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("number,name,black,red,master,category,alt black")
    assert "100,Ana H100,27,0,0,-,55,0,0,vankategornik,up" in out
    assert "1 tournaments replayed" in out and "0 down" in out
    with pytest.raises(CommandError, match="unknown rule set keys"):
        call_command("hbs_transition", "what-if", "--set", "nonsense=1")


# --- the secretariat's page ----------------------------------------------------------------------------------


def transition_url(world, **query):
    url = reverse("transition:page") + f"?federation={world.hbs.pk}"
    return url + "".join(f"&{key}={value}" for key, value in query.items())


def test_the_transition_page_is_the_hbs_secretariats(client, world, office, personas):
    url = transition_url(world)
    assert client.get(url).status_code == 302  # anonymous: to the login page
    for persona in (personas.secretariat, personas.director_a, personas.player):  # DBf's secretariat too
        client.force_login(persona)
        assert client.get(url).status_code == 403
    client.force_login(office)
    assert "Import an old list" in client.get(url).content.decode()
    assert "HBS transition" in client.get(reverse("office:home")).content.decode()


def test_an_import_from_the_page_posts_and_reports_and_a_bad_file_posts_nothing_transition_rule_1(
    client, world, office
):
    a = hbs_player(world, "1")
    client.force_login(office)
    upload = SimpleUploadedFile("old.csv", b"number,black\n1,1200\n", content_type="text/csv")
    page = client.post(transition_url(world), {"action": "opening", "file": upload, "on": "2025-01-02"})
    assert "1: 1200 black" in page.content.decode()
    assert Award.objects.get(player=a).awarded_on == ON
    bad = SimpleUploadedFile("old.csv", b"number,black\n1,12\n9,5\n", content_type="text/csv")
    page = client.post(transition_url(world), {"action": "opening", "file": bad})
    body = page.content.decode()
    assert "line 3: no player with the number 9" in body and "posted" not in body.lower()
    assert Award.objects.count() == 1


def test_the_what_if_from_the_page_shows_who_moves_and_exports_every_player_transition_rule_8(client, world, history):
    client.force_login(User.objects.get(username="tajnik"))
    body = client.get(transition_url(world, what_if=1, strength_black="3")).content.decode()
    assert "1 tournaments replayed" in body and "↑" in body
    export = client.get(transition_url(world, what_if=1, strength_black="3", export="csv"))
    assert export["Content-Type"].startswith("text/csv")
    lines = export.content.decode().splitlines()
    assert lines[0].startswith("number,name,black") and len(lines) == 16 + 2  # header, every player, summary
    refused = client.get(transition_url(world, what_if=1, settings="paid_share")).content.decode()
    assert "write KEY=VALUE, not paid_share" in refused


def test_the_page_names_what_is_wrong_with_odd_input_instead_of_failing(client, world, office):
    """A federation id, a rule-set key, a strength or a file the page cannot use: a message, never a crash,
    and nothing posted."""
    hbs_player(world, "1")
    client.force_login(office)
    odd = reverse("transition:page") + "?federation=%C2%B2"  # "²" passes isdigit() but is no number
    assert client.get(odd).status_code == 200
    for query in ({"settings": "categories=[1]"}, {"settings": "paid_share=²"}, {"strength_black": "1E+5000"}):
        response = client.get(transition_url(world, what_if=1, **query))
        assert response.status_code == 200 and "errorlist" in response.content.decode(), query
    huge = SimpleUploadedFile("old.csv", b'number,black\n1,"' + b"9" * 200_000 + b'"\n', content_type="text/csv")
    page = client.post(transition_url(world), {"action": "opening", "file": huge})
    assert page.status_code == 200 and "cannot be read as CSV" in page.content.decode()
    odd_digit = SimpleUploadedFile("old.csv", "number,black\n1,²\n".encode(), content_type="text/csv")
    page = client.post(transition_url(world), {"action": "opening", "file": odd_digit})
    assert "is not a whole number" in page.content.decode()
    assert not Award.objects.exists()


def test_names_that_look_like_formulas_stay_text_in_the_what_if_csv(world, history):
    Player.objects.filter(number="100").update(last_name="=HYPERLINK(1)", first_name="")
    from masterpoints.transition.what_if import what_if_csv

    out = io.StringIO()
    what_if_csv(transition_what_if(federation=world.hbs), out, every=True)
    assert "'" + Player.objects.get(number="100").full_name in out.getvalue()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"number,black\n1,1" + b"0" * 30 + b"\n", "is not a whole number of points from 0 to 1000000"),
        (b"number,black\n1\x00,5\n", "line 2: the file holds a NUL"),
        (b"number,black\n\x00\x00\n", "line 2: the file holds a NUL"),
    ],
)
def test_an_opening_list_with_a_huge_amount_or_a_nul_is_refused_with_its_line_rule_1(world, office, data, words):
    hbs_player(world, "1")
    with pytest.raises(ValidationError) as refused:
        transition_opening_import(actor=office, federation=world.hbs, data=data)
    assert words in " ".join(refused.value.messages)
    assert not Award.objects.exists()


def test_a_karo_ekspert_of_1991_is_credited_nothing_as_the_text_gives_nothing_h_21(world, office):
    """Issue 34, item 10: karo ekspert requires red points only; rule 3 credits rule 2's master points, so the
    row is refused as not a higher category of rule 3, naming the criterion, and nothing is posted."""
    hbs_player(world, "1")
    with pytest.raises(ValidationError) as error:
        transition_held_1991_import(actor=office, federation=world.hbs, data=b"number,category\n1,karo ekspert\n")
    assert code_of(error.value) == ["NOT_HIGHER"] and "requires no master points" in str(error.value)
    assert not Award.objects.exists()

"""An HBS long-running team competition (rule 8, H-5, H-18) uploaded with its matches: upload page → preview
page (resolve the guest) → confirm → ledger (a row per won match and one for the final placing) → tournament page."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Club
from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create, results_upload_resolve
from office.services import officer_assign
from tests.factories import pairs_from_numbers, usebio_pairs
from tournaments.models import ResultUpload

EXAMPLE = Path(__file__).resolve().parents[3] / "static" / "results-templates" / "teams-example.csv"


@pytest.fixture
def direktor(world, django_user_model):
    user = django_user_model.objects.create_user("direktor", "direktor@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    for number in [f"200{i:02d}" for i in range(1, 40)]:
        Player.objects.create(federation=world.hbs, number=number, first_name="T", last_name=number)
    return user


def league_file() -> SimpleUploadedFile:
    """The CSV team template's example: 4 teams, 3 rounds of 16-board matches with IMPs and VP, 48 boards each."""
    data = EXAMPLE.read_bytes().replace(b"club_id;1201", b"club_id;101")
    return SimpleUploadedFile("liga.csv", data, content_type="text/csv")


def upload_league(client, world, nature: str = "long_running") -> ResultUpload:
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_hr.pk}",
            "category": "black",
            "strength": "1",
            "nature": nature,
            "file": league_file(),
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    return ResultUpload.objects.get()


def units(number: str, part: str | None = None) -> int:
    awards = Award.objects.filter(player__number=number, kind="black")
    if part is not None:
        awards = awards.filter(part__startswith=part)
    return sum(awards.values_list("units", flat=True))


def test_every_won_match_and_the_final_placing_score_in_a_long_team_competition_rule_8_h_5(client, world, direktor):
    """Rule 8: "U dugotrajnim timskim natjecanjima … boduje se svaka pobjeda i konačan plasman." The director
    says the event is one (H-15, H-19); H-5: a won match of 16 boards scores B = (3 + 2·2/5)·1·(1 + 16/12) − 7 =
    1.87 → 2 per player; the final placing N = 4, D = 48: B = 16, n = 2: 16 and 6. Team 1 won all three:
    3·2 + 16 = 22; team 3 won two and placed 3rd (not paid): 4, where one ordinary event paid it nothing.
    Team 2 (one win, 2nd): Ida Krøyer's 16 of the team's 48 boards are a third of every match (H-18), enough
    for rule 6's 33 %: 2 + 6."""
    client.force_login(direktor)
    upload = upload_league(client, world)
    preview_url = reverse("uploads:preview", args=[upload.pk])
    (guest,) = build_preview(upload).unresolved
    client.post(preview_url, {"player_key": guest.key, "resolution": "guest", "number": ""})
    page = client.get(preview_url).content.decode()
    assert "ENGINE_REFUSED" not in page
    done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302, [str(m) for m in done.wsgi_request._messages]
    assert [units(n) for n in ("20001", "20002", "20003", "20004")] == [22, 22, 22, 22]
    assert units("20001", "match") == 6 and units("20001", "final placing") == 16
    assert [units(n) for n in ("20021", "20022", "20023", "20024")] == [4, 4, 4, 4]
    assert units("20031") == 0
    assert (units("20015", "match"), units("20015", "final placing")) == (2, 6)
    assert Award.objects.filter(player__number="20001", part__startswith="match").count() == 3
    win = Award.objects.filter(player__number="20001", part__startswith="match").first()
    assert "H-5" in win.explanation_data["rules"]
    tournament_page = client.get(done.url).content.decode()
    assert "H-5" in tournament_page and "16 black" in tournament_page


def test_a_long_team_competition_without_matches_is_refused_with_rule_8(client, world, direktor):
    """Rule 8 scores every win, so a file without its matches cannot be scored as one: the preview says so and
    names where the matches go; nothing can be confirmed."""
    data = EXAMPLE.read_bytes().replace(b"club_id;1201", b"club_id;101")
    data = data[: data.index(b"# Matches")]
    client.force_login(direktor)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_hr.pk}",
            "category": "black",
            "strength": "1",
            "nature": "long_running",
            "file": SimpleUploadedFile("liga.csv", data, content_type="text/csv"),
        },
    )
    preview = client.get(response.url).content.decode()
    assert "ENGINE_REFUSED" in preview and "rule 8" in preview
    upload = ResultUpload.objects.get()
    client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert not Award.objects.exists()


def test_a_pairs_event_is_not_a_long_team_competition_rule_8_h_5(world, direktor, client):
    """Only team competitions are long-running (rule 8): a pairs file so declared is refused by the engine."""
    data = usebio_pairs(
        club_number="101",
        date=datetime.date(2025, 3, 4),
        name="Parovi",
        sections=[pairs_from_numbers([f"200{i:02d}" for i in range(1, 13)])],
        boards=24,
    )
    client.force_login(direktor)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_hr.pk}",
            "category": "black",
            "strength": "1",
            "nature": "long_running",
            "file": SimpleUploadedFile("p.xml", data, content_type="text/xml"),
        },
    )
    preview = client.get(response.url).content.decode()
    assert "ENGINE_REFUSED" in preview and "rule 8" in preview


DATA = Path(__file__).resolve().parents[2] / "tournaments" / "data"


def hbs_upload(world, actor, data: bytes, *, club=None, filename="liga.xml", boards=None):
    return results_upload_create(
        actor=actor,
        federation=world.hbs,
        club=club or world.club_hr,
        region=None,
        data=data,
        filename=filename,
        facts={
            "organiser_kind": "club",
            "category": "black",
            "strength": "1",
            "nature": "long_running",
            "boards": boards,
        },
    )


def test_a_usebio_team_event_with_its_matches_scores_as_a_long_competition_rule_8_h_5(world, direktor):
    """The same league as a USEBIO team event with its MATCH elements (VP and 16 boards each, no line-ups):
    every win 2, the final placing 16 and 6 (H-5), through the services to the ledger. The file declares no
    boards for the event, so the director enters them (48), as for any upload (BOARDS_UNKNOWN)."""
    data = (DATA / "usebio_teams.xml").read_bytes().replace(b"<CLUB_ID_NUMBER>1201<", b"<CLUB_ID_NUMBER>101<")
    for number in [f"101{i:02d}" for i in range(0, 34)]:
        Player.objects.create(federation=world.hbs, number=number, first_name="U", last_name=number)
    upload = hbs_upload(world, direktor, data, boards=48)
    for line in build_preview(upload).unresolved:
        results_upload_resolve(actor=direktor, upload=upload, player_key=line.key, resolution="guest")
    results_upload_confirm(actor=direktor, upload=upload, acknowledge_warnings=True)
    assert [units(n) for n in ("10100", "10101", "10102", "10103")] == [22, 22, 22, 22]
    assert [units(n) for n in ("10120", "10121", "10122", "10123")] == [4, 4, 4, 4]


def test_line_ups_say_who_played_each_match_and_short_matches_score_no_win_rule_8_h_5_h_18(
    world, django_user_model, samples
):
    """TeamsScorer writes each match's line-up (the pairs on its travellers, with their boards): H-18 takes
    each player's boards of the match from it where rule 6 is judged per match (a setting; H-28 judges it over the
    competition). Its matches are of 3 boards, under rule 8's 16: no win scores
    (MATCH_TOO_SHORT_FOR_WIN, on zero awards the preview explains), the final placing does: 10 teams, 24
    boards each: B = (3 + 10·2/5)·1·(1 + 24/12) − 7 = 14 for the winners (H-5)."""
    club = Club.objects.create(federation=world.hbs, number="987654", name="TeamsScorer klub")
    user = django_user_model.objects.create_user("ts", "ts@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=club)
    for number in range(800001, 800041):
        Player.objects.create(federation=world.hbs, number=str(number), first_name="T", last_name=str(number))
    data = (samples / "usebio_teamsscorer_multiple_teams.xml").read_bytes()
    preview = build_preview(hbs_upload(world, user, data, club=club))
    assert not [issue.code for issue in preview.issues if issue.code == "ENGINE_REFUSED"]
    line = next(line for line in preview.player_lines if line.id_in_file == "800001")
    matches = [award for award in line.awards if award.part.startswith("match")]
    assert matches and all(award.units == 0 for award in matches)
    assert {award.explanation.reason.code for award in matches} == {"MATCH_TOO_SHORT_FOR_WIN"}
    # H-28: rule 6's 33 % is judged over the competition, the team's 24 boards (the line-up counts only with the
    # rule set's per-match setting: test_upload_hbs_team_share)
    shares = {dict(award.explanation.inputs)["boards played in the competition"] for award in matches}
    assert shares == {"24 of 24 (100.00 %)"}
    placing = [award.units for line in preview.player_lines for award in line.awards if award.part == "final placing"]
    assert max(placing) == 14

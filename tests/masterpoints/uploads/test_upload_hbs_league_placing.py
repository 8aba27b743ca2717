"""Issue 34, item 12: a long team competition's final placing is one B for first place and every other place a
share of it (Način 3–4, H-23), not a B of each team's own boards. Upload page → preview → confirm → ledger →
player page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from federation.models import Player
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from office.services import officer_assign
from tournaments.models import ResultUpload

EXAMPLE = Path(__file__).resolve().parents[3] / "static" / "results-templates" / "teams-example.csv"


@pytest.fixture
def direktor(world, django_user_model):
    user = django_user_model.objects.create_user("direktor", "direktor@example.com", "pw")
    officer_assign(actor=None, user=user, role="club_director", federation=world.hbs, club=world.club_hr)
    for number in [f"200{i:02d}" for i in range(1, 40)]:
        Player.objects.create(federation=world.hbs, number=number, first_name="T", last_name=number)
    return user


def league_with_a_short_team() -> bytes:
    """The template's league (4 teams, 16-board matches, 48 boards) where team 2 played only 32 boards: its
    round 3 match is gone and its four players played 32 each."""
    text = EXAMPLE.read_bytes().decode("utf-8-sig").replace("club_id;1201", "club_id;101")
    lines = text.splitlines()
    lines = [line for line in lines if not line.startswith("3;2;3;")]
    team2 = next(i for i, line in enumerate(lines) if line.startswith("2;Østerbro;"))
    lines[team2] = (
        "2;Østerbro;2;38,40;32;20011;Søren Ærø;32;20012;Mette Højgaard;32;20013;Karin Bøg;32;20014;Lars Dahl;32;;;;;;"
    )
    return ("\n".join(lines) + "\n").encode()


def test_a_short_team_is_paid_its_places_share_of_the_one_b_h_23(
    client, world, direktor, django_capture_on_commit_callbacks
):
    """N = 4, S = 1, D = 48 (the competition's boards): B = (3 + 4·2/5)·(1 + 48/12) − 7 = 16, n = 2; second
    place is 16 · s_2/s_1 = 5.81 → 6, although team 2 played 32 boards (its own B from D = 32 gave 4). Team 2
    won one 16-board match (2): 8 in all."""
    client.force_login(direktor)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_hr.pk}",
            "category": "black",
            "strength": "1",
            "nature": "long_running",
            "file": SimpleUploadedFile("liga.csv", league_with_a_short_team(), content_type="text/csv"),
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    upload = ResultUpload.objects.get()
    preview_url = reverse("uploads:preview", args=[upload.pk])
    for line in build_preview(upload).unresolved:
        client.post(preview_url, {"player_key": line.key, "resolution": "guest", "number": ""})
    page = client.get(preview_url).content.decode()
    assert "ENGINE_REFUSED" not in page and "H-23" in page
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    assert done.status_code == 302
    placing = Award.objects.get(player__number="20011", part="final placing")
    assert placing.units == 6
    assert "H-23" in placing.explanation_data["rules"]
    assert Award.objects.get(player__number="20001", part="final placing").units == 16
    assert sum(Award.objects.filter(player__number="20011").values_list("units", flat=True)) == 8
    player_page = client.get(reverse("public:player", args=[world.hbs.code, "20011"])).content.decode()
    assert "H-23" in client.get(done.url).content.decode()
    assert "<dt>black</dt><dd>8</dd>" in player_page
    assert 'final placing</small> · place 2</td><td class="num">6 black' in player_page

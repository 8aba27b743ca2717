"""The ready result files of ``demo/files/`` (issue 19): the demo club director uploads each through the upload
page after ``seed_demo`` and confirms it as it is: the club in the file is the director's, the date lies in
a rule set, every player's number is on the demo register, and the event pays BP (§ 406B1). Nothing is
typed beside the organiser, the file and BP: the PBN's 24 boards come from its ranking's ``NrBoards``, as
the README says."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from clubs.models import Club
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm
from tournaments.models import ResultUpload

FILES = Path(__file__).resolve().parents[2] / "demo" / "files"
DEMO_FILES = sorted(path.name for path in FILES.iterdir() if path.suffix in (".xml", ".pbn", ".csv"))


@pytest.fixture
def seeded(db, settings):
    settings.DEBUG = True
    call_command("seed_demo", players=60, hbs_players=20, awards=0, verbosity=0)


def test_demo_files_hold_one_of_each_format():
    assert {Path(name).suffix for name in DEMO_FILES} == {".xml", ".pbn", ".csv"}


@pytest.mark.parametrize("name", DEMO_FILES)
def test_the_demo_director_uploads_and_confirms_each_demo_file_as_it_is(seeded, client, django_user_model, name):
    director = django_user_model.objects.get(username="klubleder")
    club = Club.objects.get(federation__code="dbf", number="1001")
    client.force_login(director)
    with (FILES / name).open("rb") as handle:
        fields = {"organiser": f"club:{club.pk}", "category": "BP", "file": handle}
        response = client.post(reverse("uploads:upload"), fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    upload = ResultUpload.objects.get()
    preview = build_preview(upload)
    blocking = [(issue.code, str(issue.message)) for issue in preview.issues if issue.severity in ("error", "warning")]
    assert blocking == []
    assert not upload.facts.get("boards")
    assert (preview.event.boards_played or preview.event.boards_declared) == 24
    tournament = results_upload_confirm(actor=director, upload=upload, acknowledge_warnings=False)
    assert tournament.club == club
    awards = Award.objects.filter(tournament=tournament)
    assert awards.filter(player__number="10043").exists()  # the demo player (spiller) is paid in every file
    assert all(award.kind == "BP" and award.units > 0 for award in awards)

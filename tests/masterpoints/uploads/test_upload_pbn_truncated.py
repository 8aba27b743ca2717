"""Issue 33, item 10: a PBN cut off in the middle of a row (a transfer or an export that stopped) was confirmed
as a smaller event, its last value short. The file's last line then has no line break: the preview refuses it,
naming the line (``PBN_TRUNCATED``), and the confirm writes nothing."""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from tests.factories import make_players
from tournaments.importers import parse_results
from tournaments.models import ResultUpload, Tournament

DEMO = settings.BASE_DIR / "demo" / "files" / "tirsdag-2025-09-09.pbn"


def test_a_pbn_cut_in_the_middle_of_a_row_is_refused_naming_its_line_and_nothing_is_written(client, world, personas):
    whole = DEMO.read_bytes()
    make_players(world.dbf, [str(10000 + n) for n in range(1, 44)])
    cut = whole[: whole.index(b"57.29") + 2]  # row 2 ends "57": a value cut short, the rows after it missing
    client.force_login(personas.director_a)
    response = client.post(
        reverse("uploads:upload"),
        {
            "organiser": f"club:{world.club_a.pk}",
            "category": "BP",
            "file": SimpleUploadedFile("tirsdag.pbn", cut, content_type="application/octet-stream"),
        },
    )
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "PBN_TRUNCATED" in page and "line 23" in page
    upload = ResultUpload.objects.get()
    (issue,) = [issue for issue in build_preview(upload).issues if issue.code == "PBN_TRUNCATED"]
    assert issue.where.line == 23
    client.post(reverse("uploads:confirm", args=[upload.pk]), {"acknowledge_warnings": "on"})
    upload.refresh_from_db()
    assert upload.status == ResultUpload.Status.PENDING
    assert not Tournament.objects.exists() and not Award.objects.exists()


def test_a_whole_pbn_and_one_without_its_last_line_break_after_a_tag_are_not_called_cut():
    whole = DEMO.read_bytes()
    assert "PBN_TRUNCATED" not in {issue.code for issue in parse_results(whole, "t.pbn").issues}
    header_only = whole[: whole.index(b"[Competition")] + b'[Competition "Pairs"]'
    assert "PBN_TRUNCATED" not in {issue.code for issue in parse_results(header_only, "t.pbn").issues}
    unfinished_tag = whole[: whole.index(b"[Competition") + 8]
    assert "PBN_TRUNCATED" in {issue.code for issue in parse_results(unfinished_tag, "t.pbn").issues}

"""Issue 33, item 10: twelve files of 4.9 MB were stored for one club in two seconds. Each organiser may store at
most ``RESULTS_UPLOAD_QUOTA_FILES`` files and ``RESULTS_UPLOAD_QUOTA_BYTES`` bytes an hour (20 files, 25 MB by
default); past that the upload page and the API refuse, naming the quota, what is left and when it frees up."""

from __future__ import annotations

import datetime

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from tests.api.test_uploads import members, program, secret_a, send  # noqa: F401 (fixtures)
from tournaments.models import ResultUpload

BIG = 4_900_000


def post(client, world, data: bytes, name: str):
    return client.post(
        reverse("uploads:upload"),
        {"organiser": f"club:{world.club_a.pk}", "category": "BP", "file": SimpleUploadedFile(name, data)},
    )


def test_twelve_files_of_4_9_mb_stop_at_the_hourly_byte_quota_naming_it(client, world, personas):
    client.force_login(personas.director_a)
    answers = [post(client, world, bytes([65 + n]) * BIG, f"r{n}.xml").status_code for n in range(12)]
    assert answers == [302] * 5 + [200] * 7
    assert ResultUpload.objects.count() == 5
    refused = post(client, world, b"Z" * BIG, "again.xml")
    (message,) = refused.context["form"].errors["file"]
    assert "has uploaded 5 files (23.4 MB) in the last hour" in message
    assert "the quota is 20 files and 25.0 MB an hour per organiser" in message
    assert "15 files and 1.6 MB are left" in message and "The quota frees up at" in message


def test_another_clubs_quota_is_its_own_and_an_hour_later_the_quota_is_free(client, world, personas):
    client.force_login(personas.director_a)
    for n in range(5):
        assert post(client, world, bytes([65 + n]) * BIG, f"r{n}.xml").status_code == 302
    assert post(client, world, b"Z" * BIG, "full.xml").status_code == 200
    ResultUpload.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=61))
    assert post(client, world, b"Z" * BIG, "later.xml").status_code == 302
    client.force_login(personas.director_b)
    response = client.post(
        reverse("uploads:upload"),
        {"organiser": f"club:{world.club_b.pk}", "category": "BP", "file": SimpleUploadedFile("b.xml", b"B" * BIG)},
    )
    assert response.status_code == 302


def test_the_api_answers_429_naming_the_file_quota(world, members, secret_a, settings):  # noqa: F811
    settings.RESULTS_UPLOAD_QUOTA_FILES = 2
    api = program(secret_a)
    assert [send(api, key=f"k-{n}").status_code for n in range(2)] == [201, 201]
    refused = send(api, key="k-3")
    assert refused.status_code == 429, refused.content
    error = refused.json()["error"]
    assert error["code"] == "UPLOAD_QUOTA" and error["params"]["files"] == 2 and error["params"]["left_files"] == 0
    assert ResultUpload.objects.count() == 2

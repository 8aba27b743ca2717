"""Maintenance mode (issue 33, operations): a file switches the site to a 503 page and the API to a 503 JSON
error, without a restart; ``/health/`` and static files still answer."""

from __future__ import annotations

import pytest

from api.errors import error_body


@pytest.fixture
def maintenance(settings, tmp_path):
    """Maintenance switched on: the configured file exists."""
    flag = tmp_path / "maintenance.on"
    flag.touch()
    settings.MAINTENANCE_FILE = str(flag)
    settings.MAINTENANCE_RETRY_AFTER = 900
    return flag


def test_the_site_answers_a_translated_maintenance_page_with_503_and_retry_after(client, db, maintenance):
    response = client.get("/rankings/", HTTP_ACCEPT_LANGUAGE="da")
    assert response.status_code == 503
    assert response["Retry-After"] == "900"
    page = response.content.decode()
    assert "Lukket for vedligeholdelse" in page
    assert "15 minutter" in page
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 503
    assert "Closed for maintenance" in english.content.decode()
    assert "try again in 15 minutes" in english.content.decode()


def test_the_maintenance_page_reads_nothing_from_the_database(client, db, maintenance, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/office/").status_code == 503


def test_the_api_answers_a_503_json_error_with_the_code_maintenance(client, db, maintenance):
    response = client.get("/api/rankings?federation=dbf", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert response["Retry-After"] == "900"
    body = response.json()
    assert body["error"]["code"] == "MAINTENANCE"
    assert body["error"]["params"] == {"retry_after": 900}
    assert "maintenance" in body["error"]["message"]
    assert body == error_body("MAINTENANCE", body["error"]["message"], params={"retry_after": 900})


def test_health_still_answers_during_maintenance_and_says_so(client, db, maintenance, settings):
    settings.REDIS_URL = ""
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["maintenance"] is True


def test_static_files_still_serve_during_maintenance(client, db, maintenance, settings):
    settings.WHITENOISE_USE_FINDERS = True
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b"".join(response.streaming_content)


def test_removing_the_file_opens_the_site_again_without_a_restart(client, db, maintenance):
    assert client.get("/").status_code == 503
    maintenance.unlink()
    assert client.get("/").status_code == 200


def test_no_file_configured_means_never_in_maintenance(client, db, settings, tmp_path):
    settings.MAINTENANCE_FILE = ""
    assert client.get("/").status_code == 200
    assert client.get("/health/").json()["maintenance"] is False

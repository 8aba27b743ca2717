"""``/health/`` (issue 33, operations): each component's state for a load balancer and monitoring, 200 or 503
naming what fails, bounded when Redis hangs, and nothing secret in the body."""

from __future__ import annotations

import datetime
import socket
import time

import pytest
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from federation import health
from federation.models import Outbox
from federation.tasks import ping

COMPONENTS = ["database", "cache", "broker", "beat", "outbox"]


@pytest.fixture
def silent_redis():
    """An address that accepts connections and never answers: a Redis that hangs."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    yield f"redis://:s3cret-password@127.0.0.1:{listener.getsockname()[1]}/0"
    listener.close()


def test_health_answers_200_naming_every_component_and_says_celery_is_eager_without_a_broker(client, db, settings):
    settings.REDIS_URL = ""
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["failing"], body["maintenance"]) == ("ok", [], False)
    assert list(body["checks"]) == COMPONENTS
    assert body["checks"]["broker"] == {"ok": True, "mode": "eager"}
    assert body["checks"]["outbox"] == {"ok": True, "oldest_unsent_age_s": None}
    assert "no-cache" in response["Cache-Control"]


def test_an_outbox_message_unsent_for_over_half_an_hour_answers_503_naming_the_outbox(client, db, settings):
    settings.REDIS_URL = ""
    entry = Outbox.objects.create(kind=Outbox.Kind.MAIL, payload={"subject": "x"}, next_attempt_at=timezone.now())
    Outbox.objects.filter(pk=entry.pk).update(created_at=timezone.now() - datetime.timedelta(minutes=31))
    Outbox.objects.create(kind=Outbox.Kind.MAIL, payload={"subject": "sent"}, done_at=timezone.now())
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["outbox"]
    assert 31 * 60 <= body["checks"]["outbox"]["oldest_unsent_age_s"] < 32 * 60


def test_a_young_unsent_outbox_message_is_reported_but_healthy(client, db, settings):
    settings.REDIS_URL = ""
    Outbox.objects.create(kind=Outbox.Kind.TASK, payload={"task": "x"})
    body = client.get("/health/?check=outbox").json()
    assert body["checks"]["outbox"]["ok"] is True
    assert body["checks"]["outbox"]["oldest_unsent_age_s"] < 60


def test_a_redis_that_hangs_answers_503_naming_broker_and_beat_within_two_seconds(client, db, settings, silent_redis):
    settings.REDIS_URL = silent_redis
    assert health.REDIS_TIMEOUT <= 1, "a hanging Redis costs one bounded timeout (asked once per answer)"
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["failing"] == ["broker", "beat"]
    assert response.json()["checks"]["broker"] == {"ok": False, "mode": "redis", "error": "TimeoutError"}


def test_the_body_holds_no_host_name_address_password_or_version(client, db, settings, silent_redis, monkeypatch):
    import django

    settings.REDIS_URL = silent_redis

    class DeadDatabase:
        def cursor(self):
            raise OperationalError('connection to server at "db.internal" (10.0.0.5), port 5432 failed: password')

    monkeypatch.setattr(health, "connection", DeadDatabase())
    response = client.get("/health/")
    text = response.content.decode()
    assert response.json()["checks"]["database"] == {"ok": False, "error": "OperationalError"}
    for secret in ("s3cret", "127.0.0.1", "db.internal", "10.0.0.5", "5432", "redis://", django.get_version()):
        assert secret not in text


def test_a_cache_that_is_away_answers_503_naming_the_cache(client, db, settings):
    settings.REDIS_URL = ""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["failing"] == ["cache"]


def test_a_load_balancer_asking_for_the_database_is_not_failed_by_a_dead_broker(client, db, settings, silent_redis):
    settings.REDIS_URL = silent_redis
    response = client.get("/health/?check=database")
    assert response.status_code == 200
    assert list(response.json()["checks"]) == ["database"]


def test_an_unknown_check_is_refused_naming_the_checks(client, db):
    response = client.get("/health/?check=database,disk")
    assert response.status_code == 400
    assert "disk" in response.json()["error"]
    assert "database, cache, broker, beat, outbox" in response.json()["error"]


def test_health_is_not_redirected_to_https_behind_the_tls_proxy(client, db, settings):
    settings.REDIS_URL = ""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/health/").status_code == 200
    assert client.get("/").status_code == 301


def test_without_a_broker_the_heartbeat_records_nothing_and_still_answers(settings):
    settings.REDIS_URL = ""
    assert ping() == "pong"


def test_a_heartbeat_that_cannot_reach_redis_is_logged_and_the_task_still_answers(settings, silent_redis, caplog):
    settings.REDIS_URL = silent_redis
    assert ping() == "pong"
    assert "could not record the heartbeat" in caplog.text
    assert "s3cret" not in caplog.text


@pytest.mark.redis
def test_the_heartbeat_task_records_its_run_and_health_reports_its_age(client, db):
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: no broker to record the heartbeat in (.ci/run sets it)")
    with health._broker() as redis:
        redis.delete(health.BEAT_KEY)
        never = client.get("/health/?check=broker,beat")
        assert never.status_code == 503
        assert never.json()["checks"]["beat"] == {"ok": False, "last_run_age_s": None}
        assert ping() == "pong"
        fresh = client.get("/health/?check=broker,beat")
        assert fresh.status_code == 200
        assert fresh.json()["checks"]["broker"] == {"ok": True, "mode": "redis"}
        assert fresh.json()["checks"]["beat"]["last_run_age_s"] <= 2
        redis.set(health.BEAT_KEY, str(int(time.time()) - 36 * 60))
        stale = client.get("/health/?check=beat")
        assert stale.status_code == 503
        assert stale.json()["failing"] == ["beat"]
        redis.delete(health.BEAT_KEY)

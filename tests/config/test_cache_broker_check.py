"""Issue 36: the system check that warns when the cache and the Celery broker share one Redis database
(the cache's eviction or a flush would drop queued tasks), and when REDIS_URL is set without CACHE_URL."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from federation.checks import cache_and_broker_check, redis_database

REPO_ROOT = Path(__file__).resolve().parents[2]
LOCAL = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"}}


def redis_cache(location: str) -> dict:
    return {"default": {"BACKEND": "config.cache.SharedRedisCache", "LOCATION": location}}


def ids(**overrides) -> list[str]:
    with override_settings(**overrides):
        return [message.id for message in cache_and_broker_check(None)]


@pytest.mark.parametrize(
    ("cache", "broker"),
    [
        ("redis://redis:6379/0", "redis://redis:6379/0"),
        ("redis://redis:6379", "redis://redis:6379/0"),  # no number is database 0
        ("redis://localhost:6379/2", "redis://127.0.0.1/2"),  # one machine, the default port
        ("redis://:secret@Redis.example:6379/1", "redis://redis.example:6379?db=1"),
        ("unix:///run/redis.sock?db=3", "unix:///run/redis.sock?db=3"),
    ],
)
def test_one_redis_database_for_the_cache_and_the_broker_is_a_warning(cache, broker):
    assert ids(CACHES=redis_cache(cache), CELERY_BROKER_URL=broker, REDIS_URL=broker) == ["config.W001"]


@pytest.mark.parametrize(
    ("cache", "broker"),
    [
        ("redis://redis:6379/1", "redis://redis:6379/0"),  # the README's example
        ("redis://cache:6379/0", "redis://broker:6379/0"),  # two servers
        ("redis://redis:6380/0", "redis://redis:6379/0"),
        ("unix:///run/redis.sock?db=1", "unix:///run/redis.sock?db=0"),
    ],
)
def test_separate_databases_or_servers_are_quiet(cache, broker):
    assert ids(CACHES=redis_cache(cache), CELERY_BROKER_URL=broker, REDIS_URL=broker, DEBUG=False) == []


def test_a_cache_naming_several_servers_is_checked_for_each():
    location = "redis://primary:6379/1,redis://broker:6379/0"
    broker = "redis://broker:6379/0"
    assert ids(CACHES=redis_cache(location), CELERY_BROKER_URL=broker, REDIS_URL=broker) == ["config.W001"]


def test_redis_url_without_cache_url_outside_debug_is_a_warning():
    broker = "redis://redis:6379/0"
    assert ids(CACHES=LOCAL, CELERY_BROKER_URL=broker, REDIS_URL=broker, DEBUG=False) == ["config.W002"]
    # A development machine (make run, .ci/run's tests) runs one process with DEBUG on: nothing to say.
    assert ids(CACHES=LOCAL, CELERY_BROKER_URL=broker, REDIS_URL=broker, DEBUG=True) == []


def test_the_defaults_without_redis_are_quiet():
    assert ids(CACHES=LOCAL, CELERY_BROKER_URL="memory://", REDIS_URL="", DEBUG=False) == []


def test_addresses_that_are_not_redis_are_not_compared():
    assert redis_database("memory://") is None
    assert redis_database("redis://host:notaport/0") is None
    assert redis_database("redis://host:6379/zero") is None
    assert redis_database("rediss://Host.Example:6380/4") == ("host.example", 6380, 4)


def test_manage_py_check_names_the_warning():
    broker = "redis://redis:6379/0"
    shared = override_settings(CACHES=redis_cache(broker), CELERY_BROKER_URL=broker, REDIS_URL=broker)
    with shared, pytest.raises(SystemCheckError, match=r"config\.W001"):
        call_command("check", "--fail-level", "WARNING", "--tag", "caches")


def test_the_ci_jobs_and_the_readme_examples_use_two_databases():
    """``.ci/run``'s worker and beat, and the README's production example, give the cache and the broker
    different databases; the Makefile names no Redis (its defaults run tasks eagerly, one process)."""
    ci = (REPO_ROOT / ".ci" / "run").read_text()
    readme = (REPO_ROOT / "README.md").read_text()
    makefile = (REPO_ROOT / "Makefile").read_text()
    for text in (ci, readme):
        pairs = re.findall(r'REDIS_URL="?(redis://[^"\s]+)"?\s*\\?\s*CACHE_URL="?(redis://[^"\s]+)', text)
        assert pairs
        for broker, cache in pairs:
            assert redis_database(broker) != redis_database(cache), (broker, cache)
    assert "REDIS_URL" not in makefile and "CACHE_URL" not in makefile

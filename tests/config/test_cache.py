"""The shared cache (``config.cache``): Django's Redis cache, the same behaviour while Redis answers, misses
(never an error) while it is away (issue 33, hole 5)."""

from __future__ import annotations

import logging

import pytest
from django.conf import settings

from config import cache as shared_cache
from config.cache import SharedRedisCache

#: A port nothing listens on: Redis "away" without stopping the machine's Redis.
UNREACHABLE = "redis://127.0.0.1:1/0"


def test_the_shared_cache_keeps_what_django_s_keeps():
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: no Redis to keep values in (.ci/run sets it)")
    cache = SharedRedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-shared-cache"})
    try:
        cache.set_many({"a": {"page": b"\x00bytes"}, "b": 7}, 30)
        assert cache.get_many(["a", "b", "missing"]) == {"a": {"page": b"\x00bytes"}, "b": 7}
        assert cache.add("b", 8) is False and cache.incr("b") == 8
    finally:
        cache.delete_many(["a", "b"])


def test_with_redis_away_every_operation_answers_a_miss_and_the_outage_is_logged_once(caplog):
    cache = SharedRedisCache(UNREACHABLE, {"KEY_PREFIX": "away"})
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        assert cache.get("page", "default") == "default"
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("a", 1) is False
        assert cache.set("a", 1) is None
        assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
        assert cache.get_or_set("count", 5) == 5
        cache.delete_many(["a"])
        with pytest.raises(ValueError):
            cache.incr("a")
    assert [record.message.split(";")[0] for record in caplog.records] == ["The cache (Redis) is unreachable"]


def test_after_the_pause_the_cache_tries_redis_again_and_says_it_is_back(monkeypatch, caplog):
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: no Redis to come back (.ci/run sets it)")
    cache = SharedRedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-back"})
    cache.down_since, cache.retry_at = 1.0, 0.0
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        cache.set("k", 1, 30)
    assert cache.get("k") == 1 and cache.down_since is None
    assert "answers again" in caplog.records[-1].message
    cache.delete("k")


def test_within_the_pause_redis_is_not_asked(monkeypatch):
    cache = SharedRedisCache(UNREACHABLE, {"KEY_PREFIX": "away"})
    cache.get("x")
    asked = []
    monkeypatch.setattr(cache._cache, "get", lambda *args, **kwargs: asked.append(args))
    assert cache.get("x", 3) == 3
    assert asked == [], f"for {shared_cache.RETRY_AFTER_SECONDS} s after a failure the process leaves Redis alone"

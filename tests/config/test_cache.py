"""The shared cache (``config.cache``): Django's Redis cache, one client per connection pool, same behaviour."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.cache import SharedRedisCache


def test_the_shared_cache_reuses_its_client_and_keeps_what_django_s_keeps():
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: no Redis to keep values in (.ci/run sets it)")
    cache = SharedRedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-shared-cache"})
    try:
        cache.set_many({"a": {"page": b"\x00bytes"}, "b": 7}, 30)
        assert cache.get_many(["a", "b", "missing"]) == {"a": {"page": b"\x00bytes"}, "b": 7}
        assert cache.add("b", 8) is False and cache.incr("b") == 8
        assert cache._cache.get_client(write=True) is cache._cache.get_client(write=True)
    finally:
        cache.delete_many(["a", "b"])

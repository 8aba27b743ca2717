"""The shared cache: Django's Redis cache, which degrades while Redis is away instead of failing the page.

Redis away (stopped, restarting, unreachable): every operation answers as a miss (``get`` its default, ``add``
and ``set`` not stored, ``incr`` as for a missing key), so pages are rendered uncached, the per-client limits are
not counted (``RATELIMIT_FAIL_OPEN``) and nothing answers 500. The outage is logged once when it starts and once
when Redis answers again; for :data:`RETRY_AFTER_SECONDS` after a failure the process does not try Redis at all,
so a Redis that hangs costs one socket timeout (``OPTIONS``, one second) per process and pause, not one per
operation. What was written during the outage is not there afterwards: the standings versions that pages are
kept under expire within a minute (``masterpoints.standings.versions.VERSION_CACHE_SECONDS``), so a page kept
before the outage is not served for long after a change made during it.
"""

from __future__ import annotations

import functools
import logging
import time

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: Seconds a process leaves Redis alone after an operation failed.
RETRY_AFTER_SECONDS = 5.0


def _degrading(missed):
    """Run the cache operation unless Redis failed within :data:`RETRY_AFTER_SECONDS`; on a Redis error answer
    ``missed(*args, **kwargs)`` (a miss), logging the outage's start and end once each."""

    def decorate(operation):
        @functools.wraps(operation)
        def degraded(self, *args, **kwargs):
            if self.down_since is not None and time.monotonic() < self.retry_at:
                return missed(*args, **kwargs)
            try:
                answer = operation(self, *args, **kwargs)
            except RedisError as error:
                if self.down_since is None:
                    self.down_since = time.monotonic()
                    log.warning("The cache (Redis) is unreachable; pages are served uncached: %s", error)
                self.retry_at = time.monotonic() + RETRY_AFTER_SECONDS
                return missed(*args, **kwargs)
            if self.down_since is not None:
                log.warning("The cache (Redis) answers again after %.0f s.", time.monotonic() - self.down_since)
                self.down_since = None
            return answer

        return degraded

    return decorate


def _missing_key(key, *_args, **_kwargs):
    raise ValueError(f"Key {key!r} not found (the cache is unreachable).")


class SharedRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` answering a miss while Redis is away."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self.down_since: float | None = None
        self.retry_at = 0.0

    get = _degrading(lambda key, default=None, version=None: default)(RedisCache.get)
    get_many = _degrading(lambda *args, **kwargs: {})(RedisCache.get_many)
    has_key = _degrading(lambda *args, **kwargs: False)(RedisCache.has_key)
    add = _degrading(lambda *args, **kwargs: False)(RedisCache.add)
    set = _degrading(lambda *args, **kwargs: None)(RedisCache.set)
    set_many = _degrading(lambda data, *args, **kwargs: list(data))(RedisCache.set_many)
    touch = _degrading(lambda *args, **kwargs: False)(RedisCache.touch)
    delete = _degrading(lambda *args, **kwargs: False)(RedisCache.delete)
    delete_many = _degrading(lambda *args, **kwargs: None)(RedisCache.delete_many)
    incr = _degrading(_missing_key)(RedisCache.incr)
    clear = _degrading(lambda *args, **kwargs: False)(RedisCache.clear)

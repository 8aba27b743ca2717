"""The shared cache: Django's Redis cache with one ``redis.Redis`` client per connection pool.

Django's client builds a new ``redis.Redis`` (and its table of about 170 response callbacks) for every cache
operation: a tenth of a millisecond of each kept page's answer, which costs a millisecond in all (issue 16).
A redis-py client is safe to share between threads, so one per pool serves every operation.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class _OneClientPerPool(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class SharedRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` reusing its clients (Django 5.2's internals: the
    client class is its ``_class``)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _OneClientPerPool

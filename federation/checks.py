"""System checks of the services the environment names (``config.settings``): the cache and the broker.

Celery's queued tasks are keys in the broker's Redis database; the cache is bounded by evicting keys. A
cache in the broker's own database is bounded at the cost of queued tasks (an upload's standings update
that is never run), and ``FLUSHDB`` on the cache empties the queue too. So:

- ``config.W001``: the cache (``CACHE_URL``) and the Celery broker (``REDIS_URL``) are one Redis database
  of one server;
- ``config.W002``: outside DEBUG, ``REDIS_URL`` is set (several processes: the site's and the worker's) but
  ``CACHE_URL`` is not, so each process keeps a cache of its own (``config.settings.cache_settings``) and
  sees another's standings change only when its own kept version expires.
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from django.conf import settings
from django.core import checks
from django.core.cache.backends.redis import RedisCache
from django.utils.module_loading import import_string

REDIS_SCHEMES = ("redis", "rediss", "unix")
REDIS_PORT = 6379
#: Names of the local machine that reach the same server.
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def redis_database(url: str) -> tuple[str, str | int, int] | None:
    """``(host or socket path, port, database)`` a Redis address names (the database from the path,
    ``redis://host:6379/1``, or the ``db`` parameter, else 0), or ``None`` for an address that is not Redis
    or not readable."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    protocol = parts.scheme  # a URL's, not a federation's scheme
    if protocol not in REDIS_SCHEMES:
        return None
    query = parse_qs(parts.query)
    if protocol == "unix":
        where, port, number = unquote(parts.path), "socket", (query.get("db") or ["0"])[0]
    else:
        host = (parts.hostname or "localhost").lower()
        where = "localhost" if host in LOOPBACK else host
        number = parts.path.strip("/") or (query.get("db") or ["0"])[0]
        port = port or REDIS_PORT
    try:
        return where, port, int(number)
    except ValueError:
        return None


def _cache_locations() -> list[str]:
    """The Redis addresses of the default cache (a Redis cache may name several servers); none for another."""
    cache = settings.CACHES.get("default", {})
    try:
        redis = issubclass(import_string(cache.get("BACKEND", "")), RedisCache)
    except ImportError:
        redis = False
    if not redis:
        return []
    location = cache.get("LOCATION", "")
    return [part for part in (location.split(",") if isinstance(location, str) else location) if part.strip()]


@checks.register(checks.Tags.caches)
def cache_and_broker_check(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """``config.W001`` and ``config.W002`` (the module's docstring says when)."""
    broker_url = getattr(settings, "CELERY_BROKER_URL", "") or ""
    broker = redis_database(broker_url)
    locations = _cache_locations()
    found = []
    shared = [location for location in locations if broker is not None and redis_database(location) == broker]
    if shared:
        found.append(
            checks.Warning(
                f"The cache (CACHE_URL {shared[0]}) and the Celery broker (REDIS_URL {broker_url}) are the same "
                "Redis database: when the cache evicts keys to stay within its memory, or is flushed, queued "
                "tasks (standings updates, mails) are lost.",
                hint=(
                    "Give the cache another database (REDIS_URL=redis://host:6379/0, CACHE_URL=redis://host:6379/1) "
                    "or another Redis server; see the README, 'Redis: the cache and the broker apart'."
                ),
                id="config.W001",
            )
        )
    if getattr(settings, "REDIS_URL", "") and not locations and not settings.DEBUG:
        found.append(
            checks.Warning(
                "REDIS_URL is set but CACHE_URL is not: each process (every web worker, the Celery worker) keeps "
                "a cache of its own, and shows another's standings changes only when its kept copy expires.",
                hint="Set CACHE_URL to a Redis database other than REDIS_URL's, e.g. redis://host:6379/1.",
                id="config.W002",
            )
        )
    return found

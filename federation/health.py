"""``/health/``: is this site able to serve, and are the machines behind it working? For a load balancer and for
monitoring (README § Running in production, "Health and maintenance").

Five components, each answering ``ok`` and a few figures, never a version, a host name, an address or an error's
text (an exception is named by its class only):

- ``database``: ``SELECT 1`` on the default connection;
- ``cache``: a value written and read back through the site's cache (a Redis away answers misses,
  ``config.cache``, so it is reported here, not as an error page);
- ``broker``: the Celery broker answers ``PING`` (``REDIS_URL``); without it Celery is eager and this says so;
- ``beat``: the age of the last run of the ``worker-heartbeat`` beat entry (``federation.tasks.ping``, every
  15 minutes), which the worker records in the broker's Redis (:func:`beat_record`): it proves beat, broker and
  a worker together; older than :data:`BEAT_MAX_AGE` is failing;
- ``outbox``: the age of the oldest e-mail or task not sent yet (:class:`~federation.models.Outbox`); older
  than :data:`OUTBOX_MAX_AGE` is failing (the drain runs every minute; an entry that old waits on SMTP or the
  broker, or was given up and needs an operator).

200 when every component asked is ok, 503 naming the failing ones. ``?check=database,cache`` asks for those
only: a load balancer asks for what this machine needs to serve, so that a dead beat never takes every web
machine out of service. Redis is asked with one-second connect and read timeouts and once per answer, so a
Redis that hangs costs about a second, not a hung check.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Min
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from federation.maintenance import maintenance_on
from federation.models import Outbox

log = logging.getLogger(__name__)

#: Where the worker records the heartbeat's last run: a key in the broker's Redis (shared by every machine,
#: kept across deploys, and not evicted as a cache key may be).
BEAT_KEY = "masterpoints:health:beat"
#: The heartbeat runs every 15 minutes: two missed runs and a margin.
BEAT_MAX_AGE = 35 * 60
#: An outbox entry unsent for longer than this is failing.
OUTBOX_MAX_AGE = 30 * 60
#: Seconds to connect to Redis and to wait for each answer.
REDIS_TIMEOUT = 1.0

Result = dict[str, object]


def _broker() -> redis.Redis:
    return redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT, retry=None
    )


def beat_record() -> None:
    """Record now as the heartbeat's last run (called by ``federation.tasks.ping`` on the worker). Without a
    broker (eager Celery) there is no beat and nothing is recorded; a failure is logged, never raised."""
    if not settings.REDIS_URL:
        return
    try:
        with _broker() as client:
            client.set(BEAT_KEY, str(int(time.time())))
    except redis.RedisError:
        log.warning("health: could not record the heartbeat's run", exc_info=True)


def check_database() -> Result:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return {"ok": cursor.fetchone() == (1,)}


def check_cache() -> Result:
    key, value = f"health:{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, timeout=10)
    answered = cache.get(key)
    cache.delete(key)
    return {"ok": answered == value}


def check_broker_and_beat() -> dict[str, Result]:
    """The broker's ``PING`` and the heartbeat's age, asked on one connection (one timeout if Redis hangs)."""
    if not settings.REDIS_URL:
        eager = {"ok": True, "mode": "eager"}
        return {"broker": eager, "beat": eager}
    try:
        with _broker() as client:
            client.ping()
            recorded = client.get(BEAT_KEY)
    except redis.RedisError as error:
        failed = {"ok": False, "mode": "redis", "error": type(error).__name__}
        return {"broker": failed, "beat": {"ok": False, "error": "broker"}}
    age = max(0, int(time.time()) - int(recorded)) if recorded else None
    return {
        "broker": {"ok": True, "mode": "redis"},
        "beat": {"ok": age is not None and age <= BEAT_MAX_AGE, "last_run_age_s": age},
    }


def check_outbox() -> Result:
    pending = Outbox.objects.pending().aggregate(oldest=Min("created_at"))["oldest"]
    age = max(0, round((timezone.now() - pending).total_seconds())) if pending else None
    return {"ok": age is None or age <= OUTBOX_MAX_AGE, "oldest_unsent_age_s": age}


CHECKS: dict[str, Callable[[], dict[str, Result]]] = {
    "database": lambda: {"database": check_database()},
    "cache": lambda: {"cache": check_cache()},
    "broker": check_broker_and_beat,
    "beat": check_broker_and_beat,
    "outbox": lambda: {"outbox": check_outbox()},
}


def run_checks(names: list[str]) -> dict[str, Result]:
    """Each named component's result (in ``CHECKS``' order); an exception is a failure named by its class."""
    results: dict[str, Result] = {}
    for name in CHECKS:
        if name not in names or name in results:
            continue
        try:
            answered = CHECKS[name]()
        except Exception as error:
            log.warning("health: the %s check failed", name, exc_info=True)
            answered = {name: {"ok": False, "error": type(error).__name__}}
        results.update({key: value for key, value in answered.items() if key in names})
    return results


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """``GET /health/[?check=a,b]``: ``{"status": "ok"|"failing", "failing": [...], "maintenance": bool,
    "checks": {name: {"ok": bool, ...}}}``, 200 or 503. Answers in maintenance too (it says so)."""
    asked = [name for name in request.GET.get("check", "").split(",") if name] or list(CHECKS)
    unknown = [name for name in asked if name not in CHECKS]
    if unknown:
        message = _("Unknown check %(unknown)s; the checks are %(known)s.") % {
            "unknown": ", ".join(unknown)[:100],
            "known": ", ".join(CHECKS),
        }
        return JsonResponse({"error": message}, status=400)
    results = run_checks(asked)
    failing = [name for name, result in results.items() if not result["ok"]]
    body = {
        "status": "failing" if failing else "ok",
        "failing": failing,
        "maintenance": maintenance_on(),
        "checks": results,
    }
    return JsonResponse(body, status=503 if failing else 200)

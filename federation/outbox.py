"""The outbox: the e-mails and tasks of a finished action, written in the action's own transaction and sent
after commit with retries (design.md § Services), so that a broker or SMTP outage never turns the action into
an error page and never loses a mail or a task.

- :func:`enqueue_mail` and :func:`enqueue_task`, called inside a service's transaction, write an
  :class:`~federation.models.Outbox` row and ask, once per transaction, for a drain after commit. Asking
  publishes ``federation.tasks.outbox_drain`` without retries (about a second at most, see the broker
  timeouts in ``config/settings.py``); should the broker be away, that is logged, never raised into the request:
  the beat job drains every minute.
- :func:`outbox_drain` (the task's body, in a worker) claims due rows one at a time, sends each outside any
  transaction and marks it done, or schedules the next attempt with a growing delay and keeps the error.
  A mail written with ``settled`` has its writer told how each attempt ended, in the transaction that
  records it (the title e-mails mark a club's mail sent, or failed after the last attempt).

Delivery is at least once: a worker that dies between sending an entry and marking it done leaves the claim
to expire (:data:`LEASE`), and the entry is sent again. Without a broker (a laptop, the tests: Celery is
eager) the drain runs in the committing process and the tasks run there, as eager tasks do.
"""

from __future__ import annotations

import datetime
import json
import logging
import time
from collections.abc import Iterable

from celery import current_app
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.module_loading import import_string

from federation.models import Outbox

logger = logging.getLogger(__name__)

#: The registered name of the drain task (``federation.tasks``).
DRAIN_TASK = "federation.tasks.outbox_drain"
#: How long a claimed entry is left to its drain before another one may take it (a worker died meanwhile).
LEASE = datetime.timedelta(minutes=5)
#: The delay after the first failed attempt, doubled after each further one up to :data:`RETRY_MAX`.
RETRY_BASE = datetime.timedelta(minutes=1)
RETRY_MAX = datetime.timedelta(hours=1)
#: Attempts before an entry is left alone (about three days of retries); it stays in the table with its error.
MAX_ATTEMPTS = 72
#: One drain sends at most this many entries, for at most this many seconds; the next drain goes on.
BATCH = 200
TIME_BUDGET = 45.0
#: Sent entries are kept this long (to look up what went out), then deleted by the drain.
KEEP_SENT = datetime.timedelta(days=30)
#: A trigger the workers have not picked up in this many seconds is dropped: the beat job drains anyway.
TRIGGER_EXPIRES = 300


# --- writing, inside the action's transaction ------------------------------------------------------------


def enqueue_mail(
    *,
    subject: str,
    body: str,
    to: Iterable[str],
    html: str = "",
    cc: Iterable[str] = (),
    from_email: str | None = None,
    headers: dict[str, str] | None = None,
    settled: str = "",
    ref: dict | None = None,
) -> Outbox:
    """An e-mail, sent once the current transaction commits (and retried until it is); ``headers`` are extra
    message headers (``List-Unsubscribe``). ``settled``: the dotted path of a function called after each
    attempt as ``settled(ref=ref, error=…, attempts=…, final=…)`` (``error`` ``None``: sent; ``final``: the
    last attempt failed, the mail is left alone), inside the transaction that records the attempt."""
    payload = {
        "subject": subject,
        "body": body,
        "html": html,
        "from_email": from_email or settings.DEFAULT_FROM_EMAIL,
        "to": list(to),
        "cc": list(cc),
    }
    if headers:
        payload["headers"] = dict(headers)
    if settled:
        payload["settled"] = {"hook": settled, "ref": ref or {}}
    json.dumps(payload)  # a JSON reference, refused here rather than by the drain
    return _enqueue(Outbox.Kind.MAIL, payload)


def enqueue_task(task, *args, **kwargs) -> Outbox:
    """The Celery task ``task`` (a task or its registered name) with JSON arguments, queued once the current
    transaction commits (and retried until the broker takes it)."""
    name = task if isinstance(task, str) else task.name
    payload = {"task": name, "args": list(args), "kwargs": kwargs}
    json.dumps(payload)  # ids and JSON values only (design.md § Tasks): refuse anything else here, not later
    return _enqueue(Outbox.Kind.TASK, payload)


def _enqueue(kind: str, payload: dict) -> Outbox:
    entry = Outbox.objects.create(kind=kind, payload=payload)
    _drain_after_commit(entry.pk)
    return entry


class _DrainAfterCommit:
    """The on-commit callback of one transaction: drains the entries that transaction wrote."""

    def __init__(self) -> None:
        self.ids: list[int] = []

    def __call__(self) -> None:
        start_drain(self.ids)


def _drain_after_commit(entry_id: int) -> None:
    """Ask for one drain of this entry after the current transaction commits: the callback asked for in
    this block, or in a block around it that is still open, takes it along (that callback runs after this
    commit, or is dropped by a rollback that drops the entry too); otherwise a new one is registered."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        open_blocks = set(connection.savepoint_ids)
        for blocks, func, _robust in connection.run_on_commit:
            if isinstance(func, _DrainAfterCommit) and blocks <= open_blocks:
                func.ids.append(entry_id)
                return
    callback = _DrainAfterCommit()
    callback.ids.append(entry_id)
    transaction.on_commit(callback, robust=True)


def start_drain(ids: list[int] | None = None) -> None:
    """Start a drain of the entries ``ids`` (``None``: every due one) now: publish the drain task (no
    retries), or drain here when Celery is eager. Never raises: an unreachable broker is logged, and the
    periodic drain sends the entries."""
    try:
        if current_app.conf.task_always_eager:
            outbox_drain(ids=ids)
        else:
            current_app.send_task(DRAIN_TASK, args=[ids], ignore_result=True, retry=False, expires=TRIGGER_EXPIRES)
    except Exception:
        logger.warning("outbox: could not start a drain after commit; the periodic drain sends it", exc_info=True)


# --- sending, in a worker ----------------------------------------------------------------------------------


def outbox_drain(
    *, ids: list[int] | None = None, now: datetime.datetime | None = None, batch: int = BATCH
) -> dict[str, int]:
    """Send the due entries (of ``ids`` only, when given: a drain after one commit), oldest first: each is
    claimed, sent outside any transaction, then marked done or given its next attempt. After a failure no
    more entries of that kind are tried in this drain (SMTP or the broker is likely away). Returns
    ``{"sent": …, "failed": …}``."""
    now = now or timezone.now()
    started = time.monotonic()
    counts = {"sent": 0, "failed": 0}
    failing: set[str] = set()
    mailer = None
    try:
        while counts["sent"] + counts["failed"] < batch and time.monotonic() - started < TIME_BUDGET:
            entry = _claim(now, failing, ids)
            if entry is None:
                break
            if entry.kind == Outbox.Kind.MAIL and mailer is None:
                mailer = get_connection(fail_silently=False)
            error = _attempt(entry, mailer)
            _settle(entry, error, now)
            if error is None:
                counts["sent"] += 1
                continue
            counts["failed"] += 1
            failing.add(entry.kind)
            if entry.kind == Outbox.Kind.MAIL:
                mailer = _close(mailer)
    finally:
        _close(mailer)
    if ids is None:
        _forget_sent(now)
    return counts


def _claim(now: datetime.datetime, failing: set[str], ids: list[int] | None) -> Outbox | None:
    """The oldest due entry, claimed for :data:`LEASE`: on PostgreSQL a row another drain holds is skipped
    (``FOR UPDATE SKIP LOCKED``); everywhere the claim is a compare-and-set on ``next_attempt_at``, so two
    drains never both take an entry."""
    due = Outbox.objects.due(now, MAX_ATTEMPTS).exclude(kind__in=failing).order_by("next_attempt_at", "pk")
    if ids is not None:
        due = due.filter(pk__in=ids)
    for _ in range(5):
        with transaction.atomic():
            entry = due.select_for_update(skip_locked=True).first()
            if entry is None:
                return None
            claimed = Outbox.objects.filter(
                pk=entry.pk, done_at__isnull=True, next_attempt_at=entry.next_attempt_at
            ).update(next_attempt_at=now + LEASE, attempts=F("attempts") + 1)
        if claimed:
            entry.attempts += 1
            return entry
    return None


def _attempt(entry: Outbox, mailer) -> str | None:
    """Send or dispatch one entry; the error as text, or ``None`` when it went out."""
    try:
        if entry.kind == Outbox.Kind.MAIL:
            _send_mail(entry.payload, mailer)
        else:
            _dispatch_task(entry.payload)
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:2000] or type(error).__name__
    return None


def _send_mail(payload: dict, mailer) -> None:
    """Send on the drain's connection, opened once for all its mails (Django closes one it opened itself)."""
    mailer.open()
    to, cc = payload.get("to") or [], payload.get("cc") or []
    message = EmailMultiAlternatives(
        payload["subject"],
        payload["body"],
        payload["from_email"],
        to,
        cc=cc,
        connection=mailer,
        headers=payload.get("headers") or None,
    )
    if payload.get("html"):
        message.attach_alternative(payload["html"], "text/html")
    message.send()


def _dispatch_task(payload: dict) -> None:
    """Hand the task to the broker; when Celery is eager, run it here (its errors count as a failed attempt)."""
    name, args, kwargs = payload["task"], payload.get("args") or [], payload.get("kwargs") or {}
    app = current_app
    if not app.conf.task_always_eager:
        app.send_task(name, args=args, kwargs=kwargs, ignore_result=True)
        return
    if name not in app.tasks:
        app.loader.import_default_modules()  # every app's tasks module (the worker does this when it starts)
    app.tasks[name].apply_async(args, kwargs, ignore_result=True)


def _settle(entry: Outbox, error: str | None, now: datetime.datetime) -> None:
    """Record the attempt: done, or the next attempt :data:`RETRY_BASE` doubled per attempt (at most
    :data:`RETRY_MAX`) after ``now``; the entry's writer is told in the same transaction."""
    delay = min(RETRY_BASE * 2 ** (entry.attempts - 1), RETRY_MAX)
    with transaction.atomic():
        if error is None:
            Outbox.objects.filter(pk=entry.pk).update(done_at=timezone.now(), last_error="")
        else:
            Outbox.objects.filter(pk=entry.pk).update(next_attempt_at=now + delay, last_error=error)
        _tell(entry, error)
    if error is None:
        return
    if entry.attempts >= MAX_ATTEMPTS:
        logger.error("outbox: %s entry %s failed %s times, left alone: %s", entry.kind, entry.pk, entry.attempts, error)
    else:
        logger.warning(
            "outbox: %s entry %s failed (attempt %s), again in %s: %s",
            entry.kind,
            entry.pk,
            entry.attempts,
            delay,
            error,
        )


def _tell(entry: Outbox, error: str | None) -> None:
    """Call the entry's ``settled`` function (:func:`enqueue_mail`) in a savepoint. Its failure is logged, not
    raised: the attempt stays recorded, so a mail that went out is never sent again for its writer's fault."""
    settled = entry.payload.get("settled") if isinstance(entry.payload, dict) else None
    if not settled:
        return
    final = error is not None and entry.attempts >= MAX_ATTEMPTS
    try:
        with transaction.atomic():
            import_string(settled["hook"])(ref=settled["ref"], error=error, attempts=entry.attempts, final=final)
    except Exception:
        logger.exception("outbox: %s entry %s: %s could not record the attempt", entry.kind, entry.pk, settled["hook"])


def _close(mailer) -> None:
    """Close the drain's SMTP connection (a failed one may be half open); returns ``None`` for the caller."""
    if mailer is not None:
        try:
            mailer.close()
        except Exception:  # a dead connection may fail to close; it is dropped either way
            logger.debug("outbox: closing the mail connection failed", exc_info=True)
    return None


def _forget_sent(now: datetime.datetime) -> None:
    """Delete entries sent more than :data:`KEEP_SENT` ago, a bounded number at a time."""
    old = Outbox.objects.filter(done_at__lt=now - KEEP_SENT).order_by("done_at").values_list("pk", flat=True)
    ids = list(old[:1000])
    if ids:
        Outbox.objects.filter(pk__in=ids).delete()

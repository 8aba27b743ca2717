"""The records of the office's long jobs (:class:`~federation.models.JobRun`): started, progressing, finished
or failed, with the figures of what they changed (so the office's week runs without a developer).

How a job is written, and why it is visible while it runs:

- :func:`job_start` commits the record at once when called outside a transaction (a command, a Celery
  task), or with the caller's transaction (an admin view that starts the job and queues its task in one
  transaction, so the task never runs without its record).
- The work runs in its *own* transaction (each service is ``@transaction.atomic``); :func:`job_progress`,
  :func:`job_finish` and :func:`job_fail` are called *between* those transactions, never inside them.
  Each is a single ``UPDATE`` in autocommit, so with a real worker the job page shows the progress as soon
  as it is written, and a failed run (the work's transaction rolled back) is still recorded as failed.
- With eager tasks (no broker: the laptop default) the task runs inside the request that queued it, after
  its commit, so the page it redirects to already shows the finished job and its final figures.

Calling these inside an ``atomic`` block is allowed (tests do, in their wrapping transaction), but then the
record is only as durable as that block.

A running job is alive while its heartbeat is fresh (a lease): :func:`job_start` and every
:func:`job_progress` refresh ``heartbeat_at``, and :func:`job_heartbeat` refreshes it every :data:`BEAT`
from a thread of the process doing the work, on its own connection, so that one long SQL statement of a
rebuild (inside the rebuild's transaction, where a progress write would stay invisible) does not starve it.
A worker killed mid-job (SIGKILL, a lost machine, the task's hard time limit) takes that thread with it: its
job's heartbeat stops, and once it is older than :data:`LEASE` the next start of the job's kind ends it as
failed ("worker lost", naming the last heartbeat) instead of refusing or waiting (D-Q49).
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import threading
from collections.abc import Iterator
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, JobRun
from federation.refusals import refusals

logger = logging.getLogger(__name__)

#: How often :func:`job_heartbeat` refreshes a running job's heartbeat.
BEAT = datetime.timedelta(seconds=20)
#: A running job whose heartbeat is older than this is taken as abandoned (its worker died). Six beats: a
#: beat is one ``UPDATE`` of one row, so only a database that stalls for two minutes, or SQLite's writer
#: lock held by the job's own transaction on a laptop (the beats wait for it, up to its 20-second timeout
#: each), delays it that long; while a rebuild is refused, a lost worker blocks the next one for at most
#: this long, instead of the two hours a bound on the whole run needed (a full rebuild takes minutes).
LEASE = datetime.timedelta(minutes=2)

REFUSALS = {
    "JOB_RUNNING": _(
        "%(kind)s #%(job)s of %(federation)s is still running (started %(started)s); "
        "wait for it to finish before starting another."
    ),
}

refusal = refusals(REFUSALS)

MESSAGE_LIMIT = 2000


def job_start(*, kind: str, federation: Federation, actor, stage: str = "") -> JobRun:
    """Record the start of a job of ``kind`` for ``federation`` (``actor``: who started it; ``None``: the
    schedule or a command). A kind of :attr:`JobRun.EXCLUSIVE_KINDS` (the standings rebuild) is refused
    (``JOB_RUNNING``, naming the running job) while another of the federation runs: a partial unique
    constraint, so two racing starts leave one running job. Jobs of the kind whose heartbeat is older than
    :data:`LEASE` are marked failed first (D-Q49): a lost worker blocks its kind for minutes, not hours."""
    fields = {
        "kind": kind,
        "federation": federation,
        "actor": actor if actor is not None and actor.is_authenticated else None,
        "stage": str(stage)[:200],
    }
    _end_abandoned(kind, federation)
    try:
        with transaction.atomic():
            return JobRun.objects.create(**fields)
    except IntegrityError:
        running = JobRun.objects.running().filter(kind=kind, federation=federation).first()
    if running is None:  # it ended in between: a second conflict now is a new race, raised as is
        with transaction.atomic():
            return JobRun.objects.create(**fields)
    raise refusal(
        "JOB_RUNNING",
        kind=running.get_kind_display(),
        job=running.pk,
        federation=federation,
        started=running.started_at,
    )


def _end_abandoned(kind: str, federation: Federation) -> None:
    """Mark failed the running jobs of ``kind`` and ``federation`` whose heartbeat is older than :data:`LEASE`
    (D-Q49), naming their last heartbeat."""
    stale = JobRun.objects.running().filter(kind=kind, federation=federation, heartbeat_at__lt=timezone.now() - LEASE)
    for job in stale:
        beat = formats.date_format(timezone.localtime(job.heartbeat_at), "DATETIME_FORMAT")
        message = _(
            "Worker lost: no heartbeat since %(beat)s, and a job that runs beats every %(every)s seconds "
            "(after %(lease)s seconds without one it is taken as abandoned)."
        ) % {"beat": beat, "every": int(BEAT.total_seconds()), "lease": int(LEASE.total_seconds())}
        job_fail(job, message=str(message))


def job_progress(job: JobRun, *, stage: str | None = None, done: int | None = None, total: int | None = None) -> None:
    """Record how far ``job`` is: a stage text and/or ``done`` of ``total``, and its heartbeat (one
    ``UPDATE``; call it between the work's transactions so that a worker's progress is visible at once)."""
    changes: dict[str, Any] = {"heartbeat_at": timezone.now()}
    if stage is not None:
        changes["stage"] = str(stage)[:200]
    if done is not None:
        changes["done"] = done
    if total is not None:
        changes["total"] = total
    JobRun.objects.filter(pk=job.pk).update(**changes)
    for name, value in changes.items():
        setattr(job, name, value)


def _beat(job_id: int) -> None:
    """One heartbeat of a running job, committed at once on this thread's connection."""
    JobRun.objects.running().filter(pk=job_id).update(heartbeat_at=timezone.now())


def _beating(job_id: int, stop: threading.Event) -> None:
    """The heartbeat thread: a beat every :data:`BEAT` until ``stop``; a failed beat is logged and the
    next one tried (the lease outlasts several). Closes this thread's connection at the end."""
    try:
        while not stop.wait(BEAT.total_seconds()):
            try:
                _beat(job_id)
            except Exception:  # a database hiccup: the job goes on, the next beat may pass
                logger.warning("job %s: heartbeat not recorded", job_id, exc_info=True)
    finally:
        connection.close()


@contextlib.contextmanager
def job_heartbeat(job: JobRun) -> Iterator[None]:
    """Keep ``job`` alive while the block runs: a thread of this process refreshes its heartbeat every
    :data:`BEAT`, on a connection of its own and outside the block's transaction, so a job that is busy
    in one long statement is still seen alive, and one whose process dies is seen lost after :data:`LEASE`."""
    stop = threading.Event()
    thread = threading.Thread(target=_beating, args=(job.pk, stop), name=f"job-{job.pk}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def job_finish(job: JobRun, *, figures: dict[str, Any], message: str = "") -> None:
    """Record that ``job`` succeeded, with the figures of what it did (JSON values)."""
    _end(job, status=JobRun.Status.SUCCEEDED, figures=figures, message=message)


def error_message(error: Exception) -> str:
    """A failure as a job record says it: a refusal's own sentences, else the error's type and text."""
    return " ".join(getattr(error, "messages", [f"{type(error).__name__}: {error}"]))


def job_fail(job: JobRun, *, message: str, figures: dict[str, Any] | None = None) -> None:
    """Record that ``job`` failed, with the reason (and whatever figures it reached)."""
    _end(job, status=JobRun.Status.FAILED, figures=figures, message=message)


def job_count(job_id: int, **increments: int) -> None:
    """Add ``increments`` to figures of the job ``job_id`` (none: nothing happens), under a lock of its row:
    the job and, after it, the outbox's drain count into the same figures (mails queued, then sent)."""
    with transaction.atomic():
        stored = JobRun.objects.select_for_update().filter(pk=job_id).values_list("figures", flat=True).first()
        if stored is None:
            return
        figures = dict(stored)
        for name, value in increments.items():
            figures[name] = figures.get(name, 0) + value
        JobRun.objects.filter(pk=job_id).update(figures=figures)


def _end(job: JobRun, *, status: str, figures: dict[str, Any] | None, message: str) -> None:
    """Record the end; ``figures`` are added to those counted meanwhile (:func:`job_count`), replacing any
    of the same name."""
    changes: dict[str, Any] = {"status": status, "finished_at": timezone.now(), "message": str(message)[:MESSAGE_LIMIT]}
    with transaction.atomic():
        if figures is not None:
            stored = JobRun.objects.select_for_update().filter(pk=job.pk).values_list("figures", flat=True).first()
            changes["figures"] = {**(stored or {}), **figures}
        JobRun.objects.filter(pk=job.pk).update(**changes)
    for name, value in changes.items():
        setattr(job, name, value)

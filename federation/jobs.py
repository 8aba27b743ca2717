"""The records of the office's long jobs (:class:`~federation.models.JobRun`): started, progressing, finished
or failed, with the figures of what they changed (issue 19: the office's week runs without a developer).

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
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, JobRun
from federation.refusals import refusals

#: A job still "running" this long after it started is taken as abandoned (its worker or process died before
#: it could record an end): the next job of its kind marks it failed, so a rebuild is not refused for ever
#: (D-Q49). A full rebuild of the largest federation takes minutes (``bench/``), a month's title e-mails
#: with every retry well under an hour, so two hours is generous.
ABANDONED_AFTER = datetime.timedelta(hours=2)

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
    constraint, so two racing starts leave one running job. Jobs of the kind running longer than
    :data:`ABANDONED_AFTER` are marked failed first (D-Q49), so none shows "running" for ever."""
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
    """Mark failed the jobs of ``kind`` and ``federation`` still running after :data:`ABANDONED_AFTER` (D-Q49)."""
    hours = int(ABANDONED_AFTER.total_seconds() // 3600)
    message = str(_("Abandoned: no end recorded within %(hours)s hours.") % {"hours": hours})
    stale = JobRun.objects.running().filter(
        kind=kind, federation=federation, started_at__lt=timezone.now() - ABANDONED_AFTER
    )
    for job in stale:
        job_fail(job, message=message)


def job_progress(job: JobRun, *, stage: str | None = None, done: int | None = None, total: int | None = None) -> None:
    """Record how far ``job`` is: a stage text and/or ``done`` of ``total`` (one ``UPDATE``; call it between
    the work's transactions so that a worker's progress is visible at once)."""
    changes: dict[str, Any] = {}
    if stage is not None:
        changes["stage"] = str(stage)[:200]
    if done is not None:
        changes["done"] = done
    if total is not None:
        changes["total"] = total
    if changes:
        JobRun.objects.filter(pk=job.pk).update(**changes)
        for name, value in changes.items():
            setattr(job, name, value)


def job_finish(job: JobRun, *, figures: dict[str, Any], message: str = "") -> None:
    """Record that ``job`` succeeded, with the figures of what it did (JSON values)."""
    _end(job, status=JobRun.Status.SUCCEEDED, figures=figures, message=message)


def error_message(error: Exception) -> str:
    """A failure as a job record says it: a refusal's own sentences, else the error's type and text."""
    return " ".join(getattr(error, "messages", [f"{type(error).__name__}: {error}"]))


def job_fail(job: JobRun, *, message: str, figures: dict[str, Any] | None = None) -> None:
    """Record that ``job`` failed, with the reason (and whatever figures it reached)."""
    _end(job, status=JobRun.Status.FAILED, figures=figures, message=message)


def _end(job: JobRun, *, status: str, figures: dict[str, Any] | None, message: str) -> None:
    changes: dict[str, Any] = {"status": status, "finished_at": timezone.now(), "message": str(message)[:MESSAGE_LIMIT]}
    if figures is not None:
        changes["figures"] = figures
    JobRun.objects.filter(pk=job.pk).update(**changes)
    for name, value in changes.items():
        setattr(job, name, value)

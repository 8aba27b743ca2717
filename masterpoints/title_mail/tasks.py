"""The monthly title e-mail as a Celery task (beat: the 1st of September–April, § 451B)."""

from __future__ import annotations

import datetime

from celery import shared_task
from django.core.exceptions import ValidationError
from django.db import OperationalError
from django.utils import timezone

from federation.jobs import job_start
from federation.models import Federation, JobRun
from federation.rulesets import rules_or_built_in
from masterpoints.title_mail.jobs import title_mail_job
from masterpoints.title_mail.services import month_check

_RETRY = {"autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 5}


@shared_task(name="masterpoints.title_mail.tasks.title_mail_monthly", **_RETRY)
def title_mail_monthly() -> dict[str, dict[str, int]]:
    """On the 1st of each month September–April (§ 451B): every club's title e-mail of this month, recorded
    as one job per federation.

    Writes each club's mail to the outbox, which sends it and retries a failure with back-off; safe to run
    twice (a club whose mail is queued or sent is skipped, nothing is queued twice). A club that cannot be
    queued (no address) is recorded on the mailing and the job and written by the next run. Returns the
    clubs per outcome, per federation code.
    """
    month = timezone.localdate().replace(day=1)
    federations = list(Federation.objects.order_by("pk"))
    try:
        for federation in federations:
            month_check(scheme=federation, month=month, today=month, rules=rules_or_built_in(federation, month))
    except ValidationError as exc:  # run by hand outside September–April: nothing to send (§ 451B)
        return {"refused": {message: 1 for message in exc.messages}}
    summary = {}
    for federation in federations:
        job = job_start(kind=JobRun.Kind.TITLE_MAIL, federation=federation, actor=None)
        report = title_mail_job(job=job, month=month)
        counts: dict[str, int] = {}
        for outcome in report.outcomes:
            counts[outcome.result] = counts.get(outcome.result, 0) + 1
        summary[federation.code] = counts
    return summary


@shared_task(name="masterpoints.title_mail.tasks.title_mail_send")
def title_mail_send(job_id: int, month: str) -> dict[str, int]:
    """The run the admin confirmed after its dry run: ``month`` (ISO date of its first day) of the job's
    federation. No retries of its own: the outbox retries each club's mail; a redelivery of an ended job
    does nothing. Returns the job's figures."""
    job = JobRun.objects.select_related("federation", "actor").get(pk=job_id)
    if job.status != JobRun.Status.RUNNING:
        return {}
    title_mail_job(job=job, month=datetime.date.fromisoformat(month))
    return job.figures

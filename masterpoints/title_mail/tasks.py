"""The monthly title e-mail as a Celery task (beat: the 1st of September–April, § 451B)."""

from __future__ import annotations

from celery import shared_task
from django.core.exceptions import ValidationError
from django.db import OperationalError
from django.utils import timezone

from masterpoints.title_mail.services import title_mail_run

_RETRY = {"autoretry_for": (OperationalError,), "retry_backoff": True, "max_retries": 5}


@shared_task(name="masterpoints.title_mail.tasks.title_mail_monthly", **_RETRY)
def title_mail_monthly() -> dict[str, dict[str, int]]:
    """On the 1st of each month September–April (§ 451B): every club's title e-mail of this month.

    Safe to run twice (a club already sent is skipped); failures are recorded on the mailing and retried by
    the next run, and logged as errors.
    """
    try:
        reports = title_mail_run(month=timezone.localdate().replace(day=1))
    except ValidationError as exc:  # run by hand outside September–April: nothing to send (§ 451B)
        return {"refused": {message: 1 for message in exc.messages}}
    summary = {}
    for code, report in reports.items():
        counts: dict[str, int] = {}
        for outcome in report.outcomes:
            counts[outcome.result] = counts.get(outcome.result, 0) + 1
        summary[code] = counts
    return summary

"""The monthly statement as a Celery task (beat: the first days of each month)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from masterpoints.notices.jobs import monthly_statement_jobs


@shared_task(
    name="masterpoints.notices.tasks.monthly_statements",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def monthly_statements() -> dict[str, dict[str, int]]:
    """The statements of the month just ended. Beat runs it on each of the month's first days: the first run
    writes them, the later ones write only what a killed or failed run left (each player's once). Each
    federation's run is recorded as a job."""
    return monthly_statement_jobs()

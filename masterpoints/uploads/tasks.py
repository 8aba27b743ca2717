"""The uploads' scheduled job: an upload waiting for a rule set is computed again once one covers its date."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from masterpoints.uploads.answers import results_uploads_ruleset_answered


@shared_task(
    name="masterpoints.uploads.tasks.uploads_ruleset_answered",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
)
def uploads_ruleset_answered_task() -> int:
    """Beat, every minute: the secretariat's answer to RULESET_MISSING (a rule set added) reaches the waiting
    upload and its director within a minute."""
    return len(results_uploads_ruleset_answered())

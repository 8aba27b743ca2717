"""The office queue's scheduled job: held provisional players credited once their number joins the register."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from masterpoints.office_queue.services import provisional_players_join


@shared_task(
    name="masterpoints.office_queue.tasks.provisional_players_join",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
    ignore_result=True,
)
def provisional_players_join_task() -> int:
    """Beat, every minute: a member who joined the register is credited the points held for their number
    within a minute (DBf appendix B)."""
    return provisional_players_join()

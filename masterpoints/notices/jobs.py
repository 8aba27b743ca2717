"""The players' monthly statement as recorded jobs: one job record per federation and run, with
its progress (players done of players to mail) and its figures (statements sent, already sent, with nothing
registered, without an address). Written between the players' own transactions, so a worker's progress
shows at once and a failed run stays recorded."""

from __future__ import annotations

import datetime

from django.utils.translation import gettext as _

from federation.jobs import error_message, job_fail, job_finish, job_progress, job_start
from federation.models import Federation, JobRun
from masterpoints.notices.services import monthly_statement_run


def monthly_statement_jobs(*, month: datetime.date | None = None, today: datetime.date | None = None, site=None):
    """Run the month's statements federation by federation, each recorded as a ``player notices`` job;
    returns each federation's figures by its code. A failure ends that federation's job as failed with the
    error and is raised (the task's retry, or the next day's run, sends what is left, each once)."""
    done: dict[str, dict[str, int]] = {}
    for federation in Federation.objects.order_by("pk"):
        job = job_start(kind=JobRun.Kind.PLAYER_NOTICES, federation=federation, actor=None)

        def progress(count: int, total: int, job=job) -> None:
            job_progress(job, stage=_("mailing the players"), done=count, total=total)

        try:
            figures = monthly_statement_run(
                month=month, today=today, site=site, federation=federation, progress=progress
            )
        except Exception as error:
            job_fail(job, message=error_message(error))
            raise
        job_finish(job, figures=figures)
        done[federation.code] = figures
    return done

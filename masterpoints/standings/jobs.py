"""The standings rebuild as a recorded job: who started it, when it finished, how long it took and
what it changed: players whose standing changed, standings written, titles and categories newly registered.

The admin's button (:func:`standings_rebuild_request`) records the job and queues its task in one
transaction; the task (:func:`standings_rebuild_job`) records the stage, runs the rebuild (which commits in
batches under the players' row locks, never holding a whole federation) and records the figures
after it (:mod:`federation.jobs`)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from federation.jobs import job_fail, job_finish, job_heartbeat, job_progress, job_start
from federation.models import Federation, JobRun
from federation.outbox import enqueue_task
from masterpoints.models import TitleAchievement
from masterpoints.standings.services import standings_rebuild_figures
from office.access import is_secretariat


def standings_rebuild_request(*, actor, federation: Federation) -> JobRun:
    """Record a rebuild of ``federation``'s standings started by ``actor`` (its secretariat, or a superuser)
    and queue it after commit; refused (``JOB_RUNNING``, naming it) while one is running."""
    if not is_secretariat(actor, federation):
        raise PermissionDenied(
            _("Only the secretariat of %(federation)s rebuilds its standings.") % {"federation": federation}
        )
    with transaction.atomic():
        job = job_start(
            kind=JobRun.Kind.STANDINGS_REBUILD, federation=federation, actor=actor, stage=_("queued for a worker")
        )
        enqueue_task("masterpoints.standings.tasks.standings_rebuild_all", federation.pk, job_id=job.pk)
    return job


def standings_rebuild_job(*, job: JobRun) -> dict[str, int]:
    """Run the rebuild ``job`` records (its federation) and record its end: the figures on success, the
    error on failure (the failing batch rolled back, the batches before it are right on their own and the
    next rebuild proves the rest; the error is raised on). Call it outside any transaction (a task, a
    command), so that the stage is visible and the batches commit while the rebuild runs. Its single
    statements (a GROUP BY over the whole ledger) can outlast the job's lease, so a thread beats for it
    (:func:`~federation.jobs.job_heartbeat`) while it runs."""
    federation = job.federation
    job_progress(job, stage=_("rebuilding from the ledger"))
    try:
        with job_heartbeat(job):
            titles = TitleAchievement.objects.filter(federation=federation).count()
            done = standings_rebuild_figures(actor=job.actor, federation=federation)[federation.code]
            titles = TitleAchievement.objects.filter(federation=federation).count() - titles
    except Exception as error:
        job_fail(job, message=f"{type(error).__name__}: {error}")
        raise
    figures = {
        "players_changed": done.players_changed,
        "standings_written": done.standings,
        "titles_registered": titles,
    }
    job_finish(job, figures=figures)
    return figures


def standings_rebuild_recorded(*, federation: Federation, actor=None) -> dict[str, int]:
    """The nightly rebuild or the command's: a job recorded for ``federation`` and run at once; refused
    (``JOB_RUNNING``, naming it) while a rebuild of it is already running (that one stands)."""
    job = job_start(kind=JobRun.Kind.STANDINGS_REBUILD, federation=federation, actor=actor)
    return standings_rebuild_job(job=job)

"""The title e-mails as a recorded job: the admin's "send the title e-mails now" (a dry run first,
then a confirmation that queues the run) and the monthly schedule each record one job per federation, with
its progress (clubs done of clubs to mail) and its figures, counted as they become known: clubs whose mail
was queued, already queued, already sent, busy, with nothing new, or failed (no address), then, as the
outbox's drain sends them, mails sent (leaving ``queued``) or failed after their last attempt, and the
achievements announced (§ 451B). The job itself sends nothing and never waits for the mail server."""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.jobs import error_message, job_count, job_fail, job_finish, job_progress, job_start
from federation.models import Federation, JobRun
from federation.outbox import enqueue_task
from federation.rulesets import rules_or_built_in
from masterpoints.title_mail.services import RunReport, month_check, title_mail_run
from office.access import is_secretariat

#: A title-mail job's figures, all shown from its start: the clubs' outcomes (``ClubOutcome.result``), then
#: the mails the outbox sent or gave up, and the achievements those sent announced.
FIGURES = ("queued", "already_queued", "already_sent", "busy", "nothing", "failed", "sent", "announced")


def _check(actor, federation: Federation, month: datetime.date, today: datetime.date) -> None:
    if not is_secretariat(actor, federation):
        raise PermissionDenied(
            _("Only the secretariat of %(federation)s sends its title e-mails.") % {"federation": federation}
        )
    month_check(scheme=federation, month=month, today=today, rules=rules_or_built_in(federation, month))


def title_mail_preview(*, actor, federation: Federation, month: datetime.date, today=None) -> RunReport:
    """The dry run: what ``month``'s run would send to ``federation``'s clubs; sends and writes nothing."""
    today = today or timezone.localdate()
    _check(actor, federation, month, today)
    return title_mail_run(month=month, today=today, federations=[federation], dry_run=True)[federation.code]


def title_mail_request(*, actor, federation: Federation, month: datetime.date, today=None) -> JobRun:
    """Record ``month``'s title e-mails of ``federation`` as a job started by ``actor`` and queue the run
    after commit; refused outside September–April (§ 451B). A second run queued beside a running one is
    safe: each club's mail is claimed once (``SKIP LOCKED``), so it finds the clubs sent or busy."""
    today = today or timezone.localdate()
    _check(actor, federation, month, today)
    with transaction.atomic():
        job = job_start(kind=JobRun.Kind.TITLE_MAIL, federation=federation, actor=actor, stage=_("queued for a worker"))
        enqueue_task("masterpoints.title_mail.tasks.title_mail_send", job.pk, month.isoformat())
    return job


def title_mail_job(*, job: JobRun, month: datetime.date, today=None) -> RunReport:
    """Run ``month``'s title e-mails of the job's federation: each club's mail written to the outbox in the
    club's own transaction, its outcome counted there, the clubs done recorded after it, and the achievements
    of players without a home club at the end. A run in which a club's mail could not be queued ends as
    failed, naming the clubs and why (the next run writes them); call it outside any transaction."""
    federation = job.federation
    job_count(job.pk, **dict.fromkeys(FIGURES, 0))

    def progress(done: int, total: int) -> None:
        job_progress(job, stage=_("queueing the clubs' mails"), done=done, total=total)

    try:
        report = title_mail_run(
            month=month, today=today, federations=[federation], actor=job.actor, progress=progress, job=job
        )[federation.code]
    except Exception as error:
        job_fail(job, message=error_message(error))
        raise
    figures = {"homeless": report.homeless}
    if report.failed:
        failures = "; ".join(f"{outcome.club}: {outcome.error}" for outcome in report.failed)
        message = _("%(count)d club mails failed: %(failures)s") % {"count": len(report.failed), "failures": failures}
        job_fail(job, figures=figures, message=message)
    else:
        job_finish(job, figures=figures)
    return report

"""``python manage.py send_title_emails [--dry-run] [--month YYYY-MM] [--federation CODE]`` (§ 451B)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from federation.jobs import job_start
from federation.models import Federation, JobRun
from federation.rulesets import rules_or_built_in
from masterpoints.title_mail.jobs import title_mail_job
from masterpoints.title_mail.services import RunReport, month_check, month_parse, title_mail_run


class Command(BaseCommand):
    help = (
        "Queues each club's title e-mail of the month in the outbox (§ 451B), which sends it and retries a "
        "failure with back-off: members who reached a higher title or category since the last mailing, and "
        "those close to their next one. Each achievement is announced once; running it again queues nothing "
        "twice. Exit status 1 when a club's mail could not be queued (no address; written again next run). "
        "Each federation's run is recorded as a job in the admin."
    )

    def add_arguments(self, parser):
        parser.add_argument("--month", help="The mailing's month, YYYY-MM (default: this month).")
        parser.add_argument("--dry-run", action="store_true", help="Show what would be sent; send and write nothing.")
        parser.add_argument("--federation", help="Only this federation (its code, e.g. dbf).")

    def handle(self, *args, month: str | None, dry_run: bool, federation: str | None, **options):
        federations = Federation.objects.order_by("pk")
        if federation:
            federations = federations.filter(code=federation)
            if not federations:
                raise CommandError(f"No federation with the code {federation!r}.")
        try:
            first = month_parse(month) if month else timezone.localdate().replace(day=1)
            if dry_run:
                reports = title_mail_run(month=first, federations=federations, dry_run=True)
            else:
                for fed in federations:  # every month refused before any federation's run is recorded
                    month_check(
                        scheme=fed, month=first, today=timezone.localdate(), rules=rules_or_built_in(fed, first)
                    )
                reports = {fed.code: _recorded_run(fed, first) for fed in federations}
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        failed = 0
        for code, report in reports.items():
            self.stdout.write(f"{code} {first:%Y-%m}{' (dry run)' if dry_run else ''}:")
            for outcome in report.outcomes:
                line = f"  {outcome.club.number} {outcome.club.name}: {outcome.result}"
                if outcome.announced or outcome.close:
                    line += f" ({outcome.announced} new, {outcome.close} close)"
                if outcome.error:
                    line += f": {outcome.error}"
                self.stdout.write(line)
            if not report.outcomes:
                self.stdout.write("  nothing to announce")
            if report.homeless:
                self.stdout.write(f"  {report.homeless} achievements of players without a home club stay pending")
            failed += len(report.failed)
        if failed:
            raise CommandError(f"{failed} club mails failed; they are recorded and will be written next run.")


def _recorded_run(federation: Federation, month) -> RunReport:
    """The federation's run, recorded as a job like the schedule's and the admin's."""
    job = job_start(kind=JobRun.Kind.TITLE_MAIL, federation=federation, actor=None)
    return title_mail_job(job=job, month=month)

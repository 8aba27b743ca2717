"""``python manage.py hbs_transition opening|held-1991|keep-categories FILE`` and ``… what-if [options]``.

HBS transition rules 1, 3, 4 and 8 (``masterpoints.transition``).
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from federation.models import Federation
from masterpoints.transition.services import IMPORTS
from masterpoints.transition.what_if import transition_what_if, what_if_csv, what_if_parameters

HELP = {
    "opening": "rule 1: opening black points, CSV number,black",
    "held-1991": "rule 3: 1991 category holders, CSV number,category",
    "keep-categories": "rule 4: old categories kept, CSV number,category",
}


class Command(BaseCommand):
    help = "HBS transition tools (transition rules 1, 3, 4 and 8): imports of the old lists and the what-if run."

    def add_arguments(self, parser):
        parser.add_argument("--federation", default="hbs", help="The HBS federation's code (default hbs).")
        sub = parser.add_subparsers(dest="action", required=True)
        for name in IMPORTS:
            sub.add_parser(name, help=HELP[name]).add_argument("file", type=Path)
        what_if = sub.add_parser("what-if", help="rule 8: replay the stored results under other parameters")
        what_if.add_argument(
            "--set",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help='A rule-set key, e.g. paid_share=0.4, paid_rounding=down, form_factors={"pairs": "1.5"}.',
        )
        what_if.add_argument("--strength", action="append", default=[], metavar="KIND=S", help="S for every event.")
        what_if.add_argument("--csv", action="store_true", help="Every player as CSV instead of the changes.")

    def handle(self, *args, action: str, federation: str, **options):
        fed = Federation.objects.filter(code=federation).first()
        if fed is None:
            raise CommandError(f"No federation with the code {federation!r}.")
        try:
            if action in IMPORTS:
                self._import(fed, action, options["file"])
            else:
                self._what_if(fed, options)
        except ValidationError as exc:
            raise CommandError("\n".join(exc.messages)) from None

    def _import(self, federation, action: str, path: Path) -> None:
        if not path.is_file():
            raise CommandError(f"{path}: no such file.")
        service = IMPORTS[action]
        report = service(actor=None, federation=federation, data=path.read_bytes())
        for number, kind, units in report.posted:
            self.stdout.write(f"posted {number}: {units} {kind}")
        for number, category in report.kept:
            self.stdout.write(f"kept {number}: {category}")
        if report.already:
            self.stdout.write(f"already done, nothing posted: {', '.join(report.already)}")
        if report.unchanged:
            self.stdout.write(f"nothing to post: {', '.join(report.unchanged)}")
        if report.nothing_posted:
            self.stdout.write("This import posted nothing.")

    def _what_if(self, federation, options) -> None:
        overrides, strengths = what_if_parameters(options["set"], options["strength"])
        result = transition_what_if(federation=federation, overrides=overrides, strengths=strengths)
        what_if_csv(result, self.stdout, every=options["csv"])

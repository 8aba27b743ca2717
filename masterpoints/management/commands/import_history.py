"""``python manage.py import_history --federation CODE --as-of YYYY-MM-DD [--balances F] [--titles F] [--awards F]
[--apply]``: the history of a federation moving in, brought into the ledger as opening entries
(``masterpoints.history``; README § "History brought in"). A dry run unless ``--apply``."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from federation.models import Federation
from masterpoints.history.services import history_import

#: The largest history file read (200,000 awards are about 10 MB).
MAX_BYTES = 200 * 1024 * 1024


class Command(BaseCommand):
    help = (
        "Bring a federation's history in: opening balances and titles as of a date and historic awards, as "
        "opening entries (never points won in a season); a dry run unless --apply; idempotent."
    )

    def add_arguments(self, parser):
        parser.add_argument("--federation", required=True, help="The federation's code.")
        parser.add_argument("--as-of", required=True, type=datetime.date.fromisoformat, help="The balances' date.")
        parser.add_argument("--balances", type=Path, help="CSV number;kind;points")
        parser.add_argument("--titles", type=Path, help="CSV number;title;stars;reached_on")
        parser.add_argument("--awards", type=Path, help="CSV number;date;tournament;kind;points")
        parser.add_argument("--apply", action="store_true", help="Write (one transaction); without it, a dry run.")

    def handle(self, *args, federation: str, as_of, balances, titles, awards, apply: bool, **options):
        fed = Federation.objects.filter(code=federation).first()
        if fed is None:
            raise CommandError(f"No federation with the code {federation!r}.")
        if not any((balances, titles, awards)):
            raise CommandError("Give at least one of --balances, --titles, --awards.")
        data = {name: _read(path) for name, path in (("balances", balances), ("titles", titles), ("awards", awards))}
        try:
            report = history_import(actor=None, federation=fed, as_of=as_of, dry_run=not apply, **data)
        except ValidationError as error:
            raise CommandError("\n".join(error.messages)) from None
        for name, value in report.figures().items():
            self.stdout.write(f"{name}={value}")
        self.stdout.write("Imported." if apply else "Dry run: nothing was written (--apply to import).")


def _read(path: Path | None) -> bytes | None:
    if path is None:
        return None
    if not path.is_file():
        raise CommandError(f"{path}: no such file.")
    if path.stat().st_size > MAX_BYTES:
        raise CommandError(f"{path}: larger than {MAX_BYTES} bytes.")
    return path.read_bytes()

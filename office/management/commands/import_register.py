"""``python manage.py import_register FILE [--dry-run] [--sync [--confirm-ends N]] [--federation CODE]``: the
member register import (``office.register``; layout in ``static/register-templates/README.md``), as on the admin
page: add and update by default (nothing missing from the file is ended); ``--sync`` for a full sync, which writes
its ends only with ``--confirm-ends`` the number its dry run printed."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from federation.models import Federation
from office.register.plan import Plan
from office.register.reader import MAX_BYTES
from office.register.services import register_import


class Command(BaseCommand):
    help = (
        "Import the member register (players, clubs, memberships, officers) from CSV or XLSX: what the file "
        "holds is added or changed; with --sync, what it no longer holds is ended (members lapse, never deleted)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--dry-run", action="store_true", help="Show every change, row by row; write nothing.")
        parser.add_argument("--federation", help="The federation's code (needed when there is more than one).")
        parser.add_argument("--sync", action="store_true", help="Full sync: end what the file no longer holds.")
        parser.add_argument(
            "--confirm-ends", type=int, default=None, help="A full sync's number of ends, as its dry run printed it."
        )

    def handle(self, *args, file: Path, dry_run: bool, federation: str | None, sync: bool, confirm_ends, **options):
        fed = self._federation(federation)
        if not file.is_file():
            raise CommandError(f"{file}: no such file.")
        if file.stat().st_size > MAX_BYTES:
            raise CommandError(f"{file}: {file.stat().st_size} bytes; at most {MAX_BYTES} are accepted.")
        try:
            plan = register_import(
                actor=None,
                federation=fed,
                data=file.read_bytes(),
                dry_run=dry_run,
                mode="sync" if sync else "add",
                confirm_ends=confirm_ends,
            )
        except ValidationError as exc:
            raise CommandError("\n".join(exc.messages)) from None
        self._report(plan, dry_run=dry_run)

    def _federation(self, code: str | None) -> Federation:
        if code:
            found = Federation.objects.filter(code=code).first()
            if found is None:
                raise CommandError(f"No federation with the code {code!r}.")
            return found
        federations = list(Federation.objects.all()[:2])
        if len(federations) != 1:
            raise CommandError("Name the federation with --federation CODE.")
        return federations[0]

    def _report(self, plan: Plan, *, dry_run: bool) -> None:
        for change in plan.changes:
            where = f"line {change.line}" if change.line else "not in the file"
            fields = "; ".join(f"{name}: {_shown(old)} -> {_shown(new)}" for name, old, new in change.fields)
            self.stdout.write(f"{where}: {change.record} {change.key}: {change.action}  {fields}".rstrip())
        for line, number in plan.waiting:
            self.stdout.write(f"line {line}: officer {number}: waits until the player has a login")
        for kind in plan.left_alone:
            self.stdout.write(f"the file has no {kind} rows: they are left as they are")
        counts = ", ".join(
            f"{record}s {values['add']} added, {values['change']} changed, {values['end']} ended"
            for record, values in plan.counts().items()
        )
        self.stdout.write(f"{counts}; {plan.unchanged} rows unchanged.")
        if dry_run and plan.ends:
            self.stdout.write(f"A full sync ends {plan.ends} rows: import with --sync --confirm-ends {plan.ends}.")
        self.stdout.write("Dry run: nothing was written." if dry_run else f"Imported: {len(plan.changes)} changes.")


def _shown(value) -> str:
    return "–" if value is None or value == "" else str(value)

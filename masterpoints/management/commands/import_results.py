"""``python manage.py import_results FILE... --club NUMBER [--dry-run] [--json]``: bulk import for the office.

Each file goes through exactly the checks of the web upload; a file with errors writes nothing. Used by
the secretariat for backlogs and by HBS's transition (results since 1991). Exit status 0 when every file
could be read and imported, 1 when any file has errors.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club
from masterpoints.uploads.lines import Preview
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tournaments.checks import CheckIssue
from tournaments.models import ResultUpload


class Command(BaseCommand):
    help = "Imports result files for a club with the web upload's checks; --dry-run writes nothing."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--club", required=True, help="The organising club's federation number.")
        parser.add_argument("--federation", help="Federation code, when the club number exists in more than one.")
        parser.add_argument("--category", help="Points played for (default: BP for DBf, black for HBS).")
        parser.add_argument("--strength", help="HBS strength S (default: the rule set's S for unlisted events).")
        parser.add_argument("--form", choices=["pairs", "individual", "minihold", "teams"], help="Override the form.")
        parser.add_argument("--dry-run", action="store_true", help="Check and compute, write nothing.")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print one JSON object per file.")
        parser.add_argument(
            "--accept-warnings",
            action="store_true",
            help="Import files that have warnings (errors always stop a file).",
        )

    def handle(self, *args, files, club, federation, category, strength, form, dry_run, as_json, **options):
        clubs = Club.objects.filter(number=club).select_related("federation")
        if federation:
            clubs = clubs.filter(federation__code=federation)
        if not clubs:
            raise CommandError(f"No club with number {club}" + (f" in federation {federation}." if federation else "."))
        if len(clubs) > 1:
            raise CommandError(f"Club number {club} exists in several federations: name one with --federation.")
        organiser = clubs[0]
        facts = {
            "organiser_kind": "club",
            "category": category or organiser.federation.scheme_info.default_category,
            "form": form or "",
            "boards": None,
        }
        if strength:
            facts["strength"] = strength
        failed = False
        for path in files:
            ok, report = self._one(path, organiser, facts, dry_run, options["accept_warnings"])
            failed |= not ok
            if as_json:
                self.stdout.write(_json(report))
            else:
                self.stdout.write(_text(report, ok, dry_run))
        if failed:
            raise SystemExit(1)

    def _one(self, path: Path, club: Club, facts: dict, dry_run: bool, accept_warnings: bool) -> tuple[bool, dict]:
        try:
            data = path.read_bytes()
        except OSError as error:
            return False, {
                "file": str(path),
                "format": None,
                "event": None,
                "groups": [],
                "awards": [],
                "issues": [{"code": "FILE_UNREADABLE", "severity": "error", "where": {}, "message": str(error)}],
            }
        upload = ResultUpload(
            federation=club.federation, club=club, original_name=path.name, size=len(data), facts=facts, sha256=""
        )
        preview = build_preview(upload, data=data)
        ok = preview.event is not None and not preview.has_errors and (accept_warnings or not preview.has_warnings)
        if ok and not dry_run:
            try:
                with transaction.atomic():
                    stored = results_upload_create(
                        actor=None,
                        federation=club.federation,
                        club=club,
                        region=None,
                        data=data,
                        filename=path.name,
                        facts=facts,
                        trusted=True,
                    )
                    results_upload_confirm(actor=None, upload=stored, acknowledge_warnings=True, trusted=True)
            except ValidationError as error:
                ok = False
                preview.issues.append(CheckIssue("IMPORT_REFUSED", params={"message": " ".join(error.messages)}))
        return ok, report_for(path, preview)


def report_for(path: Path, preview: Preview) -> dict:
    """The JSON report of one file: event, groups, issues (code, severity, where, params) and awards."""
    event = preview.event
    return {
        "file": str(path),
        "format": event.format if event else None,
        "event": (
            {"date": event.date.isoformat() if event.date else None, "name": event.name, "form": event.form}
            if event
            else None
        ),
        "groups": [
            {
                "name": line.group.name or line.group.key,
                "entries": line.group.field_size,
                "ranked_by": line.group.ranked_by,
            }
            for line in preview.groups
        ],
        "issues": [issue.as_dict() for issue in preview.issues],
        "awards": [
            {
                "player": line.player.number,
                "group": line.group,
                "place": line.place_first
                if line.place_first == line.place_last
                else f"{line.place_first}-{line.place_last}",
                "points": award.amount,
                "kind": award.kind,
            }
            for line, award in preview.ledger_awards
        ],
    }


def _json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, default=str)


def _text(report: dict, ok: bool, dry_run: bool) -> str:
    status = "ok" if ok else "REFUSED"
    lines = [f"{report['file']}: {status}{' (dry run)' if dry_run and ok else ''}, {len(report['awards'])} awards"]
    lines += [f"  {i['severity']}: {i['code']} {i['message']}" for i in report["issues"]]
    return "\n".join(lines)

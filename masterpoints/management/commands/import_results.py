"""``python manage.py import_results FILE... (--club NUMBER | --federation CODE --organiser federation)``.

Bulk import for the office: each file goes through exactly the checks of the web upload; a file with errors
writes nothing. Used by the secretariat for backlogs and by HBS's transition: "2. Na temelju svih dostupnih
rezultata od 1991. god. odredit će se broj majstorskih poena." and "5. Startni broj crvenih poena izvest će se
iz prethodnih rezultata, na temelju kriterija iz ovog Pravilnika." (master points from all results since 1991,
opening red points from earlier results, by these rules). So the results since 1991 are imported with the
federation as organiser (``--organiser federation``, no club), awarding the kinds ``--kinds`` names
(``red,master``: black comes from the old list, transition rule 1) where the rule set valid on each file's
date lets the federation award them (H-1, ``organiser_awards``), each tournament computed by that rule set (the
HBS draft is valid from 1991). ``--boards`` gives D for files that do not say.

Running it again is harmless: a file whose event (the re-upload key, formats.md § 1.3) is current from the very
same bytes and facts is reported ``unchanged`` and writes nothing; two files of one run with one event key are
refused (the second would supersede the first). Exit status 0 when every file could be read and imported (or
was unchanged), 1 when any file has errors.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal, InvalidOperation
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club
from federation.models import Federation
from federation.schemes import decimals_of
from masterpoints.engine.common import MAX_BOARDS, format_units
from masterpoints.uploads.lines import Preview
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import results_upload_confirm, results_upload_create
from tournaments.issues import Issue
from tournaments.models import ResultUpload

ORGANISERS = ("club", "federation")


class Command(BaseCommand):
    help = (
        "Imports result files for a club, or for the federation (HBS transition rules 2 and 5: "
        "--organiser federation --kinds red,master), with the web upload's checks; --dry-run writes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--club", help="The organising club's federation number (organiser club).")
        parser.add_argument("--federation", help="Federation code; needed for --organiser federation.")
        parser.add_argument(
            "--organiser",
            choices=ORGANISERS,
            help="Who organised the events: a club (the default with --club) or the federation itself.",
        )
        parser.add_argument("--category", help="Points played for (default: BP for DBf, black for HBS).")
        parser.add_argument(
            "--kinds",
            help="HBS: the kinds awarded, each with its S if not --strength's: 'red,master' or 'red=1,master=1.5' "
            "(transition rules 2 and 5). Instead of --category.",
        )
        parser.add_argument("--strength", help="HBS strength S (default: the rule set's S for unlisted events).")
        parser.add_argument("--boards", type=int, help="Boards (D) for files that do not say how many were played.")
        parser.add_argument("--form", choices=["pairs", "individual", "minihold", "teams"], help="Override the form.")
        parser.add_argument("--dry-run", action="store_true", help="Check and compute, write nothing.")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print one JSON object per file.")
        parser.add_argument(
            "--accept-warnings",
            action="store_true",
            help="Import files that have warnings (errors always stop a file).",
        )

    def handle(self, *args, files, dry_run, as_json, **options):
        federation, club = _organiser(options["organiser"], options["club"], options["federation"])
        facts = _facts(federation, club, options)
        failed, seen = False, {}
        for path in files:
            ok, report = self._one(path, federation, club, facts, dry_run, options["accept_warnings"], seen)
            failed |= not ok
            if as_json:
                self.stdout.write(_json(report))
            else:
                self.stdout.write(_text(report, ok, dry_run))
        if failed:
            raise SystemExit(1)

    def _one(
        self,
        path: Path,
        federation: Federation,
        club: Club | None,
        facts: dict,
        dry_run: bool,
        accept_warnings: bool,
        seen: dict[str, str],
    ) -> tuple[bool, dict]:
        try:
            data = path.read_bytes()
        except OSError as error:
            return False, {
                "file": str(path),
                "status": "refused",
                "format": None,
                "event": None,
                "groups": [],
                "awards": [],
                "issues": [{"code": "FILE_UNREADABLE", "severity": "error", "where": {}, "message": str(error)}],
            }
        digest = hashlib.sha256(data).hexdigest()
        upload = ResultUpload(
            federation=federation, club=club, original_name=path.name, size=len(data), facts=facts, sha256=digest
        )
        preview = build_preview(upload, data=data)
        if preview.event is not None and _unchanged(preview, digest, facts):
            preview.issues.append(Issue("IMPORT_UNCHANGED", params={"tournament": preview.previous.pk}))
            seen.setdefault(preview.event_key, str(path))
            return True, report_for(path, preview, status="unchanged")
        if preview.event is not None:
            if preview.event_key in seen:
                preview.issues.append(Issue("IMPORT_EVENT_TWICE", params={"file": seen[preview.event_key]}))
            seen.setdefault(preview.event_key, str(path))
        ok = preview.event is not None and not preview.has_errors and (accept_warnings or not preview.has_warnings)
        if ok and not dry_run:
            try:
                with transaction.atomic():
                    stored = results_upload_create(
                        actor=None,
                        federation=federation,
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
                preview.issues.append(Issue("IMPORT_REFUSED", params={"message": " ".join(error.messages)}))
        status = ("checked" if dry_run else "imported") if ok else "refused"
        return ok, report_for(path, preview, status=status)


def _organiser(organiser: str | None, club_number: str | None, code: str | None) -> tuple[Federation, Club | None]:
    """The federation and club (``None``: the federation organised the events) the files are imported for."""
    organiser = organiser or ("club" if club_number else None)
    if organiser is None:
        raise CommandError("Name the organiser: --club NUMBER, or --federation CODE --organiser federation.")
    if organiser == "federation":
        if club_number:
            raise CommandError("--organiser federation imports without a club: leave out --club.")
        if not code:
            raise CommandError("--organiser federation needs --federation CODE.")
        federation = Federation.objects.filter(code=code).first()
        if federation is None:
            raise CommandError(f"No federation with code {code}.")
        return federation, None
    if not club_number:
        raise CommandError("--organiser club needs --club NUMBER.")
    clubs = Club.objects.filter(number=club_number).select_related("federation")
    if code:
        clubs = clubs.filter(federation__code=code)
    if not clubs:
        raise CommandError(f"No club with number {club_number}" + (f" in federation {code}." if code else "."))
    if len(clubs) > 1:
        raise CommandError(f"Club number {club_number} exists in several federations: name one with --federation.")
    return clubs[0].federation, clubs[0]


def _facts(federation: Federation, club: Club | None, options: dict) -> dict:
    """The upload's facts from the command's options, as the upload form would store them (plain JSON)."""
    boards = options["boards"]
    if boards is not None and not 1 <= boards <= MAX_BOARDS:
        raise CommandError(f"--boards must lie between 1 and {MAX_BOARDS}.")
    strength = _strength(options["strength"], "--strength") if options["strength"] else ""
    facts = {
        "organiser_kind": "club" if club is not None else "federation",
        "category": options["category"] or federation.scheme_info.default_category,
        "form": options["form"] or "",
        "boards": boards,
    }
    if options["kinds"]:
        if options["category"]:
            raise CommandError("Give either --category or --kinds.")
        kinds = _kinds(options["kinds"], strength, federation)
        facts.update(category=kinds[0][0], kinds=kinds, strength="")
    elif strength:
        facts["strength"] = strength
    return facts


def _kinds(text: str, strength: str, federation: Federation) -> list[list[str]]:
    """``red,master`` or ``red=1,master=1.5``: each kind with its S (H-1, H-4), in the scheme's kinds."""
    info = federation.scheme_info
    if not info.recognised_list:
        raise CommandError("--kinds is for rule books whose tournaments award several kinds (HBS, H-1).")
    kinds: list[list[str]] = []
    for part in (item.strip() for item in text.split(",")):
        kind, _sep, value = part.partition("=")
        kind = kind.strip()
        if kind not in info.kinds:
            raise CommandError(f"--kinds: unknown kind {kind!r}; the kinds are {', '.join(info.kinds)}.")
        if kind in (k for k, _s in kinds):
            raise CommandError(f"--kinds names {kind} twice.")
        s = _strength(value, f"--kinds {kind}") if value.strip() else strength
        if not s:
            raise CommandError(f"--kinds: give S for {kind} ({kind}=1) or --strength (H-4).")
        kinds.append([kind, s])
    return kinds


def _strength(text: str, option: str) -> str:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise CommandError(f"{option}: S must be a decimal number, not {text!r}.") from None
    if not value.is_finite() or value <= 0:
        raise CommandError(f"{option}: S must be greater than 0 (H-4).")
    return str(value)


def _unchanged(preview: Preview, digest: str, facts: dict) -> bool:
    """Whether the event's current version is this very file confirmed with the same facts: importing it again
    would supersede it with itself, so nothing is written (the command is idempotent)."""
    previous = preview.previous
    if previous is None or previous.upload_id is None:
        return False
    return previous.upload.sha256 == digest and previous.upload.facts == json.loads(json.dumps(facts))


def report_for(path: Path, preview: Preview, *, status: str) -> dict:
    """The JSON report of one file: its status (``imported``, ``checked`` in a dry run, ``unchanged``,
    ``refused``), event, groups, issues (code, severity, where, params) and awards."""
    event = preview.event
    return {
        "file": str(path),
        "status": status,
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
                "points": format_units(award.units, decimals_of(award.kind)),
                "kind": award.kind,
            }
            for line, award in preview.ledger_awards
        ],
    }


def _json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, default=str)


def _text(report: dict, ok: bool, dry_run: bool) -> str:
    status = "ok" if ok else "REFUSED"
    if report["status"] == "unchanged":
        status = "unchanged, nothing written"
    lines = [f"{report['file']}: {status}{' (dry run)' if dry_run and ok else ''}, {len(report['awards'])} awards"]
    lines += [f"  {i['severity']}: {i['code']} {i['message']}" for i in report["issues"]]
    return "\n".join(lines)

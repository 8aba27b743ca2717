"""Writes of the results upload: store the file, record the director's choices, confirm.

Confirming is one transaction: it recomputes the preview, creates the tournament from it
(:func:`tournament_create_from_preview`), reverses the version it supersedes and posts the awards through
:mod:`masterpoints.ledger`.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, PlayingTime
from federation.models import Federation, Region
from federation.outbox import enqueue_task
from federation.services import audit_record
from masterpoints.ledger import ResultEntry, awards_post_results, awards_reverse_tournament
from masterpoints.office_queue.services import office_cases_open
from masterpoints.standings.tasks import standings_update_tournament
from masterpoints.uploads import names, summary
from masterpoints.uploads.claims import fact_id
from masterpoints.uploads.lines import Preview, event_key
from masterpoints.uploads.models import RememberedResolution
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.quota import check_upload_quota
from masterpoints.uploads.scoring import event_boards, event_form
from office.access import can_act_for_club, can_act_for_region, is_secretariat
from tournaments.importers.detect import sniff
from tournaments.importers.text import codec_name
from tournaments.models import Entry, Participation, RankingGroup, ResultUpload, Tournament
from tournaments.recognised import holds_licence, tourist_refusal
from tournaments.sanctions.selectors import sanction_used_by, sanction_used_issue

RESOLUTIONS = ("member", "guest", "office")
#: The encodings a director may have the stored bytes read with (Python's codec names): Unicode, the Western
#: European code pages Danish clubs write (Windows-1252, ISO-8859-1 and -15), the Central European ones
#: Croatian clubs write (Windows-1250, ISO-8859-2), and the DOS pages of old scoring programs.
ENCODINGS = ("utf-8", "cp1252", "iso8859-1", "iso8859-15", "cp1250", "iso8859-2", "cp850", "cp852")


def check_organiser(
    *, actor, federation: Federation, club: Club | None, region: Region | None, trusted: bool = False
) -> None:
    """Directors upload for their own club, region officers for their region, the secretariat for all.

    ``trusted`` is only for the server's own command line (``import_results``), never for a web request.
    """
    if trusted:
        return
    if club is not None:
        allowed = club.federation_id == federation.pk and can_act_for_club(actor, club)
    elif region is not None:
        allowed = region.federation_id == federation.pk and can_act_for_region(actor, region)
    else:  # the federation: its secretariat, or a licensed internet director (HBS rule 10, H-26)
        allowed = is_secretariat(actor, federation) or holds_licence(actor, federation)
    if not allowed:
        raise PermissionDenied(_("You may not upload results for this organiser."))


def licensed_report(*, actor, federation: Federation, club: Club | None, region: Region | None, facts: dict) -> dict:
    """H-26, HBS rule 10: "Rezultati internet turnira priznaju se odobrenjem licence njihovom voditelju. Te
    rezultate prijavljuje voditelj." (internet tournaments' results are recognised by their director's licence;
    the director reports them). A licence holder without an office reports for the federation only an internet
    tournament, as its organiser kind ``internet`` (the rule set's ``organiser_awards`` say what it awards unless
    it is on the list, H-1); anything else is refused. The licence's dates are checked against the event's in the
    preview (DIRECTOR_NOT_LICENSED). Returns the facts to store."""
    if club is not None or region is not None or is_secretariat(actor, federation):
        return facts
    if not facts.get("internet"):
        raise PermissionDenied(
            _("Under an internet director's licence you report internet tournaments only (rule 10): tick it.")
        )
    return {**facts, "organiser_kind": "internet"}


@transaction.atomic
def results_upload_create(
    *,
    actor,
    federation: Federation,
    club: Club | None,
    region: Region | None,
    data: bytes,
    filename: str,
    facts: dict,
    trusted: bool = False,
) -> ResultUpload:
    """Store the uploaded bytes unchanged with their SHA-256, before anything parses them."""
    check_organiser(actor=actor, federation=federation, club=club, region=region, trusted=trusted)
    if not trusted:
        facts = licensed_report(actor=actor, federation=federation, club=club, region=region, facts=facts)
    _check_nature(federation, facts)
    if (refused := tourist_refusal(federation, facts)) is not None:
        raise refused
    if len(data) > settings.RESULTS_UPLOAD_MAX_BYTES:
        raise ValidationError(_("The file is larger than the 5 MB limit."), code="FILE_TOO_LARGE")
    if not trusted:
        check_upload_quota(federation=federation, club=club, region=region, size=len(data))
    digest = hashlib.sha256(data).hexdigest()
    upload = ResultUpload(
        federation=federation,
        club=club,
        region=region,
        uploaded_by=actor if actor is not None and actor.is_authenticated else None,
        original_name=filename[:255],
        sha256=digest,
        size=len(data),
        format=sniff(data).kind,
        facts=facts,
    )
    upload.file.save(digest, ContentFile(data), save=False)
    upload.save()
    audit_record(
        actor=actor,
        action="results.upload.create",
        target=upload,
        payload={"sha256": digest, "size": len(data), "file": filename[:255], "facts": facts},
    )
    return upload


def _check_nature(federation: Federation, facts: dict) -> None:
    """H-15 (HBS rule 11): an event whose nature is not scored is refused before anything is stored."""
    info = federation.scheme_info
    nature = info.nature(facts.get("nature"))
    if info.event_natures and (nature is None or not nature.scored):
        label = nature.label if nature is not None else str(facts.get("nature"))[:40]
        raise ValidationError(info.unscored_refusal, code="EVENT_NOT_SCORED", params={"nature": label})


def check_pending(actor, upload: ResultUpload, *, trusted: bool = False) -> None:
    check_organiser(actor=actor, federation=upload.federation, club=upload.club, region=upload.region, trusted=trusted)
    if upload.status != ResultUpload.Status.PENDING:
        raise ValidationError(_("This upload is already %(status)s."), params={"status": upload.get_status_display()})


def resolution_value(resolution: str, number: str = "") -> dict:
    """A director's choice for one player as the upload stores it; an unknown choice is refused."""
    if resolution not in RESOLUTIONS:
        raise ValidationError(_("Unknown choice %(choice)s."), params={"choice": resolution[:40]})
    if resolution == "member":
        return {"resolution": resolution, "number": number.strip()[:20]}
    return {"resolution": resolution}


@transaction.atomic
def results_upload_resolve(*, actor, upload: ResultUpload, player_key: str, resolution: str, number: str = "") -> None:
    """Record how to treat one player of the file: a member (by number), a guest, or the office's case."""
    upload = ResultUpload.objects.select_for_update().get(pk=upload.pk)
    check_pending(actor, upload)
    value = resolution_value(resolution, number)
    upload.resolutions = {**upload.resolutions, player_key: value}
    upload.save(update_fields=["resolutions"])
    audit_record(actor=actor, action="results.upload.resolve", target=upload, payload={"player": player_key, **value})


@transaction.atomic
def results_upload_discard(*, actor, upload: ResultUpload) -> None:
    upload = ResultUpload.objects.select_for_update().get(pk=upload.pk)
    check_pending(actor, upload)
    upload.status = ResultUpload.Status.DISCARDED
    upload.save(update_fields=["status"])
    audit_record(actor=actor, action="results.upload.discard", target=upload)


@transaction.atomic
def results_upload_choose_encoding(*, actor, upload: ResultUpload, encoding: str) -> None:
    """Have the stored bytes read with ``encoding`` (one of :data:`ENCODINGS`), or as the importers decide
    when it is empty: the choice is a fact of the upload (``facts["encoding"]``), which the preview and the
    confirm pass to the importers. The bytes themselves are never changed."""
    upload = ResultUpload.objects.select_for_update().get(pk=upload.pk)
    check_pending(actor, upload)
    chosen = codec_name(encoding) if encoding else None
    if encoding and chosen not in ENCODINGS:
        raise ValidationError(_("Unknown encoding %(encoding)s."), params={"encoding": encoding[:40]})
    previous = upload.facts.get("encoding") or ""
    facts = {key: value for key, value in upload.facts.items() if key != "encoding"}
    if chosen:
        facts["encoding"] = chosen
    upload.facts = facts
    upload.save(update_fields=["facts"])
    audit_record(
        actor=actor,
        action="results.upload.encoding",
        target=upload,
        payload={"encoding": chosen or "", "previous": previous},
    )


@transaction.atomic
def results_upload_choose_playing_time(*, actor, upload: ResultUpload, playing_time: str) -> None:
    """Record the tournament's playing time (§ 452A): ``""`` as the file's weekday and start time say
    (D-Q27), ``"none"`` for a tournament outside the club's weekly sessions, or the id of one of the
    organising club's playing times; another club's is refused. A fact of the upload (``facts["playing_time"]``)."""
    upload = ResultUpload.objects.select_for_update(of=("self",)).select_related("club").get(pk=upload.pk)
    check_pending(actor, upload)
    if playing_time not in ("", "none"):
        chosen = fact_id(playing_time)
        if upload.club_id is None or not PlayingTime.objects.filter(club_id=upload.club_id, pk=chosen or 0).exists():
            raise ValidationError(
                _("Choose one of the playing times of %(club)s, or none (§ 452A)."),
                params={"club": upload.club or upload.region or upload.federation},
                code="PLAYING_TIME_OTHER_CLUB",
            )
        playing_time = str(chosen)
    previous = upload.facts.get("playing_time") or ""
    upload.facts = {**upload.facts, "playing_time": playing_time}
    upload.save(update_fields=["facts"])
    audit_record(
        actor=actor,
        action="results.upload.playing_time",
        target=upload,
        payload={"playing_time": playing_time, "previous": previous},
    )


def results_upload_preview(*, upload: ResultUpload) -> dict:
    """The summary the preview page shows (:mod:`masterpoints.uploads.summary`): the stored one while the
    fingerprint of what it depends on holds and it is younger than ``summary.MAX_AGE``, else the preview
    built again from the stored file, summarised and stored.

    Storing it is a derived value's single UPDATE, not a decision: two visits building it at once both
    store the same summary, and a summary built from an older fingerprint is built again on the next visit.
    """
    now, today = timezone.now(), timezone.localdate()
    fingerprint = summary.fingerprint(upload, today=today)
    if summary.is_current(upload, fingerprint, now):
        return upload.preview_summary
    built = summary.summarise(build_preview(upload, today=today))
    ResultUpload.objects.filter(pk=upload.pk).update(
        preview_summary=built, preview_fingerprint=fingerprint, preview_built_at=now
    )
    upload.preview_summary, upload.preview_fingerprint, upload.preview_built_at = built, fingerprint, now
    return built


def _strengths(facts: dict) -> dict[str, str]:
    """HBS: S per kind, from the chosen entry of the list of recognised tournaments or the director's S (H-1)."""
    if facts.get("kinds"):
        return dict(facts["kinds"])
    return {facts["category"]: facts["strength"]} if facts.get("strength") else {}


#: ``expected_previous`` not given: the server's own import, which supersedes whatever version is current.
UNCHECKED = object()
_CONFIRMED_MEANWHILE = _(
    "Another upload of this event was confirmed while you were reviewing this one; nothing was written. "
    "Look at the preview again: it now shows the differences from that version."
)


def _lock_event(federation_id: int, key: str) -> None:
    """Take the confirms of one event one at a time (PostgreSQL: a transaction-level advisory lock on the
    federation and event key; SQLite runs one writer at a time anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"event|{federation_id}|{key}"])


def _lock_claims(upload: ResultUpload) -> None:
    """Take the confirms of one club's claims of automatic SP one at a time (§ 403A: a top-16 per playing
    time per season, one choice of Klubsølv or alternative Klubsølv, § 453), so that two claims confirmed
    at once cannot both pass the check of the other (PostgreSQL: an advisory lock on the club)."""
    if upload.club_id and upload.facts.get("special") and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"claims|{upload.club_id}"])


def _current_version(upload: ResultUpload, keys: list[str]) -> Tournament | None:
    return Tournament.objects.current().filter(federation=upload.federation, event_key__in=keys).first()


def _check_expected(preview: Preview, expected_previous) -> None:
    """Refuse when the version this confirm would replace is not the one the director's preview showed."""
    if expected_previous is UNCHECKED:
        return
    found = preview.previous.pk if preview.previous is not None else None
    if found != expected_previous:
        raise ValidationError(_CONFIRMED_MEANWHILE, code="confirmed_meanwhile")


def results_upload_forget_preview(*, upload: ResultUpload) -> None:
    """Let the page build the preview again on its next visit (a derived value's single UPDATE)."""
    ResultUpload.objects.filter(pk=upload.pk).update(preview_fingerprint="")


def _create_refusal(preview: Preview) -> ValidationError:
    """Which constraint refused the tournament: one current version per event, where no lock serialised the
    confirms, or one current tournament per sanction (D-Q24: another event's confirm took the sanction after
    this preview was checked; the refusal names the sanction and that tournament, the upload stays pending)."""
    other = sanction_used_by(preview.sanction_row) if preview.sanction_row is not None else None
    if other is not None and other.event_key != preview.event_key:
        return ValidationError(str(sanction_used_issue(preview.sanction_row, other).message), code="sanction_used")
    return ValidationError(_CONFIRMED_MEANWHILE, code="confirmed_meanwhile")


def tournament_create_from_preview(*, preview: Preview) -> Tournament:
    """Create the tournament, its groups, entries and participations from a checked preview.

    Runs inside the caller's transaction (``results_upload_confirm``); supersedes the earlier version.
    """
    upload, event, facts = preview.upload, preview.event, preview.upload.facts
    organiser_kind = facts.get("organiser_kind", "club")
    if organiser_kind == "internet":  # H-26: reported under an HBS licence, the federation's tournament
        organiser_kind = "federation"
    tournament = Tournament.objects.create(
        federation=upload.federation,
        organiser_kind=organiser_kind,
        club=upload.club,
        region=upload.region,
        name=(event.name or upload.original_name)[:200],
        event_key=event_key(upload, event),
        date=event.date,
        form=event_form(preview),
        category=facts["category"],
        boards=event_boards(preview),
        rows=len(preview.groups) if facts.get("split_by_strength") else 1,
        split_by_strength=bool(facts.get("split_by_strength")),
        met=facts.get("met"),
        robots=bool(facts.get("robots")),
        strengths=_strengths(facts),
        playing_time=preview.playing_time,
        simultaneous_event=preview.simultaneous_event if preview.sanction == "automatic" else None,
        file_info={
            "format": event.format,
            "dialect": event.dialect,
            "program": event.program,
            "scoring": event.scoring,
            "encoding": event.encoding.encoding,
        },
        upload=upload,
        supersedes=preview.previous,
        sanction=preview.sanction_row,
    )
    for group_line in preview.groups:
        group = RankingGroup.objects.create(
            tournament=tournament,
            key=group_line.group.key,
            name=group_line.group.name or "",
            row_number=group_line.row_number,
            field_size=group_line.group.field_size,
        )
        entries = Entry.objects.bulk_create(
            Entry(
                group=group,
                key=line.entry.key,
                number=line.entry.number,
                name=(line.entry.name or "")[:200],
                place_first=line.entry.place_first,
                place_last=line.entry.place_last,
                score=line.entry.score,
                percentage=line.entry.percentage,
            )
            for line in group_line.entries
        )
        Participation.objects.bulk_create(
            Participation(
                entry=entry,
                player=player.player if player.resolution == "member" else None,
                name_in_file=player.name[:200],
                id_in_file=(player.id_in_file or "")[:40],
                boards_played=player.boards_played,
                resolution=player.resolution,
            )
            for entry, line in zip(entries, group_line.entries, strict=True)
            for player in line.players
        )
    return tournament


def _post_awards(actor, tournament: Tournament, preview) -> None:
    """Post the preview's awards of ``tournament`` to the ledger, each with its place and explanation."""
    awards_post_results(
        actor=actor,
        tournament=tournament,
        entries=[
            ResultEntry(
                player=line.player,
                kind=award.kind,
                units=award.units,
                part=award.part,
                place_first=line.place_first,
                place_last=line.place_last,
                explanation=award.explanation.as_dict(),
            )
            for line, award in preview.ledger_awards
        ],
    )


def _remember_resolutions(actor, upload: ResultUpload, preview: Preview) -> int:
    """Remember for the club each player its director resolved to a member on this upload (file name and
    number → member, ``RememberedResolution``), for the club's next uploads; the confirm's own transaction."""
    if upload.club_id is None:
        return 0
    chosen = {key for key, value in upload.resolutions.items() if value.get("resolution") == "member"}
    count = 0
    for line in preview.player_lines:
        name, number = names.remembered_key(line.name, line.id_in_file)
        if line.key in chosen and line.receives_points and not line.unnamed:
            RememberedResolution.objects.update_or_create(
                club_id=upload.club_id,
                name_in_file=name,
                id_in_file=number,
                defaults={"player": line.player, "resolved_by": actor if getattr(actor, "pk", None) else None},
            )
            count += 1
    return count


@transaction.atomic
def results_upload_confirm(
    *,
    actor,
    upload: ResultUpload,
    acknowledge_warnings: bool,
    trusted: bool = False,
    expected_previous: int | object | None = UNCHECKED,
    expected_payable: str | None = None,
) -> Tournament:
    """Confirm an upload: recompute its preview, refuse it on any error (or unacknowledged warning), then
    create the tournament and post its awards; a re-upload reverses the earlier version's awards first.

    All in one transaction: either everything is written or nothing is. Confirms of one event are taken
    one at a time (:func:`_lock_event`) and at most one version of an event is current (a constraint), so
    two confirms at once leave one result; so do two confirms of different events under one sanction (D-Q24:
    the constraint of one current tournament per sanction, refused by :func:`_create_refusal`). ``expected_previous``
    is the version the director's preview showed as replaced (``None``: a new event); when another upload of
    the event was confirmed since, the confirm is refused and the upload stays pending, to be reviewed
    against it. ``expected_payable`` is the :func:`~masterpoints.uploads.summary.payable_digest` of the preview
    the director confirmed: when the recomputed preview pays differently or finds other issues, the confirm is
    refused naming the players whose points changed (``points_changed``; :func:`results_upload_forget_preview`
    then makes the page build the preview again). Never a silent difference from what was shown.
    """
    upload = (
        ResultUpload.objects.select_for_update(of=("self",))
        .select_related("federation", "club", "region")
        .get(pk=upload.pk)
    )
    check_pending(actor, upload, trusted=trusted)
    _lock_claims(upload)
    preview = build_preview(upload, suggest=False)
    # First what changed since the preview the director checked, naming it (an error that appeared meanwhile
    # among it), then the refusals of the preview as it is now.
    summary.check_payable(upload, preview, expected_payable)
    if preview.event is None or preview.has_errors:
        raise ValidationError(_("The results have errors; correct them before confirming."), code="has_errors")
    if preview.has_warnings and not acknowledge_warnings:
        raise ValidationError(_("Tick the box to confirm that you have read the warnings."), code="warnings")
    _lock_event(upload.federation_id, preview.event_key)
    if _current_version(upload, preview.event_keys) != preview.previous:
        preview = build_preview(upload, suggest=False)  # another version was confirmed while it was built
        summary.check_payable(upload, preview, expected_payable)
    _check_expected(preview, expected_previous)
    if preview.previous is not None:
        awards_reverse_tournament(actor=actor, tournament=preview.previous, reason=_("superseded by a re-upload"))
        Tournament.objects.filter(pk=preview.previous.pk).update(is_current=False)
    try:
        with transaction.atomic():
            tournament = tournament_create_from_preview(preview=preview)
    except IntegrityError:
        # A constraint of one current version per event or per sanction, where no lock serialised the confirms.
        raise _create_refusal(preview) from None
    _post_awards(actor, tournament, preview)
    left = office_cases_open(tournament=tournament, lines=preview.player_lines)  # the office's queue
    remembered = _remember_resolutions(actor, upload, preview)
    upload.status = ResultUpload.Status.CONFIRMED
    upload.confirmed_at = timezone.now()
    upload.format = preview.event.format[:20]
    upload.sanction = preview.sanction_row
    upload.save(update_fields=["status", "confirmed_at", "format", "sanction"])
    audit_record(
        actor=actor,
        action="results.upload.confirm",
        target=tournament,
        payload={
            "upload": upload.pk,
            "sha256": upload.sha256,
            "awards": len(preview.ledger_awards),
            "supersedes": preview.previous.pk if preview.previous else None,
            "sanction": preview.sanction_row.pk if preview.sanction_row else None,
            "remembered": remembered,
            "left_to_office": left,
        },
    )
    # The affected players' standings, queued through the outbox once the awards are committed: were the
    # broker unreachable, the confirmed upload stands and the outbox queues the update when it is back.
    enqueue_task(standings_update_tournament, tournament.pk)
    return tournament

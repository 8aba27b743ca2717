"""Reads of the upload API: a token's own upload, and an upload with its preview as JSON."""

from __future__ import annotations

from collections import Counter

from django.urls import reverse
from django.utils.translation import gettext as _

from api.errors import ApiError
from federation.schemes import decimals_of
from masterpoints.engine.common import format_units
from masterpoints.models import Award
from masterpoints.uploads.preview import build_preview
from office.models import ApiToken
from tournaments.models import ResultUpload, Tournament


def token_upload(token: ApiToken, upload_id: int) -> ResultUpload:
    """The upload ``upload_id`` when it is the token's club's or region's; another organiser's is not found
    (a token acts only for its own organiser, and does not learn what others uploaded)."""
    upload = (
        ResultUpload.objects.select_related("federation", "club", "region")
        .filter(pk=upload_id, federation_id=token.federation_id, club_id=token.club_id, region_id=token.region_id)
        .first()
    )
    if upload is None:
        raise ApiError(
            404,
            "UPLOAD_NOT_FOUND",
            _("%(organiser)s has no upload %(id)s.") % {"organiser": token.organiser, "id": upload_id},
            params={"upload": upload_id},
        )
    return upload


def _points(awards: list[dict]) -> dict[str, str]:
    units: Counter[str] = Counter()
    for award in awards:
        units[award["kind"]] += award["units"]
    return {kind: format_units(total, decimals_of(kind)) for kind, total in units.items()}


def _pending_part(upload: ResultUpload) -> dict:
    """What the upload page's preview checks and shows, from the preview built now: every issue with its
    code, place and parameters, the players still to resolve, and the awards confirming would write."""
    preview = build_preview(upload)
    event = preview.event
    awards = [
        {
            "number": line.player.number,
            "name": str(line.player),
            "kind": award.kind,
            "units": award.units,
            "amount": format_units(award.units, decimals_of(award.kind)),
            "place_first": line.place_first,
            "place_last": line.place_last,
            "part": award.part,
        }
        for line, award in preview.ledger_awards
    ]
    return {
        "event": None
        if event is None
        else {
            "name": event.name or "",
            "date": event.date.isoformat() if event.date else None,
            "format": event.format,
            "form": event.form,
            "boards": event.boards_played or event.boards_declared,
        },
        "has_errors": preview.has_errors,
        "has_warnings": preview.has_warnings,
        "can_confirm": event is not None and not preview.has_errors,
        "previous": preview.previous.pk if preview.previous is not None else None,
        "issues": [issue.as_dict() for issue in preview.issues],
        "unresolved": [
            {"key": line.key, "name": line.name, "id_in_file": line.id_in_file or "", "where": line.where.as_dict()}
            for line in preview.unresolved
        ],
        "awards": awards,
    }


def _confirmed_part(request, upload: ResultUpload) -> dict:
    """A confirmed upload: its tournament and the awards the ledger holds for it."""
    tournament = Tournament.objects.filter(upload=upload).first()
    rows = Award.objects.filter(tournament=tournament, source=Award.Source.RESULT).select_related("player")
    awards = [
        {
            "number": row.player.number,
            "name": str(row.player),
            "kind": row.kind,
            "units": row.units,
            "amount": row.amount,
            "place_first": row.place_first,
            "place_last": row.place_last,
            "part": row.part,
        }
        for row in rows.order_by("pk")
    ]
    return {
        "event": {"name": tournament.name, "date": tournament.date.isoformat()} if tournament else None,
        "has_errors": False,
        "has_warnings": False,
        "can_confirm": False,
        "previous": tournament.supersedes_id if tournament else None,
        "issues": [],
        "unresolved": [],
        "awards": awards,
        "tournament": None
        if tournament is None
        else {"id": tournament.pk, "url": request.build_absolute_uri(tournament.get_absolute_url())},
    }


def upload_json(request, upload: ResultUpload) -> dict:
    """The upload as the API gives it (``api.schemas.UploadOut``)."""
    if upload.status == ResultUpload.Status.PENDING:
        part = _pending_part(upload)
    elif upload.status == ResultUpload.Status.CONFIRMED:
        part = _confirmed_part(request, upload)
    else:
        part = {**_confirmed_part(request, upload), "event": None, "tournament": None, "awards": []}
    return {
        "id": upload.pk,
        "status": upload.status,
        "federation": upload.federation.code,
        "organiser": str(upload.club or upload.region),
        "file": {"name": upload.original_name, "sha256": upload.sha256, "size": upload.size, "format": upload.format},
        **part,
        "points": _points(part["awards"]),
        "url": request.build_absolute_uri(reverse("api:upload", args=[upload.pk])),
        "preview_url": request.build_absolute_uri(reverse("uploads:preview", args=[upload.pk])),
    }

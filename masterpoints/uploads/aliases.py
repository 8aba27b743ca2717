"""The club ids results files name for a club (D-Q40): "this file is ours".

When a file names another club than the one it is uploaded for (``CLUB_MISMATCH``), the club's director, or
the secretariat, may record the file's club id as the club's own (:class:`~.models.ClubAlias`); later uploads
of the club naming that id get the notice ``CLUB_ALIAS`` instead of the error. An id is one club's at most.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import Club
from federation.services import audit_record
from masterpoints.uploads.models import ClubAlias, club_id_key
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import check_pending
from office.access import can_act_for_club
from tournaments.models import ResultUpload


def _refuse_taken(federation, club: Club, key: str) -> None:
    """D-Q40: an id that is another club's number on the register, or another club's alias, stays theirs."""
    holder = ClubAlias.objects.filter(federation=federation, file_club_id=key).select_related("club").first()
    if holder is not None and holder.club_id == club.pk:
        raise ValidationError(
            _("The club id %(id)s is already recorded as %(club)s's."), params={"id": key, "club": club}
        )
    owner = holder.club if holder is not None else None
    if owner is None:
        numbers = Club.objects.filter(federation=federation, number__endswith=key).exclude(pk=club.pk)
        owner = next((c for c in numbers if club_id_key(c.number) == key), None)
    if owner is not None:
        raise ValidationError(
            _(
                "The club id %(id)s belongs to %(other)s, so it cannot be recorded as %(club)s's. If the file is "
                "really %(club)s's, ask the federation's secretariat."
            ),
            params={"id": key, "other": owner, "club": club},
        )


@transaction.atomic
def club_alias_record(*, actor, upload: ResultUpload) -> ClubAlias:
    """Record the club id the pending ``upload``'s file names as the id of the club it is uploaded for.

    Only a director of that club or the federation's secretariat (``check_pending``), only when the file
    names another id than the club's number, and never an id another club holds (its number or an alias):
    refused naming that club. The id is read from the stored file, not from the request. One audit row.
    """
    upload = ResultUpload.objects.select_for_update(of=("self",)).select_related("federation", "club").get(pk=upload.pk)
    if upload.club is None or not can_act_for_club(actor, upload.club):
        raise PermissionDenied(_("Only a director of the club, or the secretariat, may record its club ids."))
    check_pending(actor, upload)
    event = build_preview(upload, suggest=False).event
    raw = (event.club_number or "").strip() if event is not None else ""
    key = club_id_key(raw)
    if not raw or key == club_id_key(upload.club.number):
        raise ValidationError(_("The file names no other club id than %(club)s's own."), params={"club": upload.club})
    if len(key) > ClubAlias._meta.get_field("file_club_id").max_length:
        raise ValidationError(_("The club id in the file is longer than 40 characters."))
    _refuse_taken(upload.federation, upload.club, key)
    try:
        with transaction.atomic():
            alias = ClubAlias.objects.create(
                federation=upload.federation, club=upload.club, file_club_id=key, recorded_by=actor
            )
    except IntegrityError as error:  # another club recorded it meanwhile (the constraint decides)
        raise ValidationError(
            _("The club id %(id)s was just recorded for another club."), params={"id": key}
        ) from error
    audit_record(
        actor=actor,
        action="results.club_alias.record",
        target=alias,
        payload={"club": upload.club.pk, "file_club_id": key, "upload": upload.pk},
    )
    return alias

"""Writes of the table of players to resolve: many players at once ("accept all suggestions", "hold the
remaining players' points", or the rows of the table posted together).

Like ``results_upload_resolve`` (:mod:`.services`), each is one transaction on the locked upload, allowed to
whoever may act for its organiser while it is pending, and writes one audit row naming every player changed.
The two bulk actions read the upload's preview in that transaction, so they act on the register and the
resolutions of that moment, not on a page that may be old.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from federation.services import audit_record
from masterpoints.uploads.bounds import MAX_ENTRIES_PER_EVENT, MAX_PLAYERS_PER_ENTRY
from masterpoints.uploads.preview import build_preview
from masterpoints.uploads.services import check_pending, resolution_value
from tournaments.models import ResultUpload

#: Players one request may resolve: every player of the largest file accepted.
RESOLVE_MAX = MAX_ENTRIES_PER_EVENT * MAX_PLAYERS_PER_ENTRY


def _locked(actor, upload: ResultUpload) -> ResultUpload:
    upload = (
        ResultUpload.objects.select_for_update(of=("self",))
        .select_related("federation", "club", "region")
        .get(pk=upload.pk)
    )
    check_pending(actor, upload)
    return upload


def _record(actor, upload: ResultUpload, values: dict[str, dict], action: str) -> int:
    upload.resolutions = {**upload.resolutions, **values}
    upload.save(update_fields=["resolutions"])
    audit_record(actor=actor, action=action, target=upload, payload={"players": values, "count": len(values)})
    return len(values)


@transaction.atomic
def results_upload_resolve_many(*, actor, upload: ResultUpload, choices: dict[str, tuple[str, str]]) -> int:
    """Record the director's choice (resolution, number) for each player key of ``choices``; an unknown
    choice or more than :data:`RESOLVE_MAX` players refuses them all. Returns how many were recorded."""
    if len(choices) > RESOLVE_MAX:
        raise ValidationError(
            _("At most %(limit)s players can be resolved at once; %(count)s were sent."),
            params={"limit": RESOLVE_MAX, "count": len(choices)},
        )
    upload = _locked(actor, upload)
    values = {key[:100]: resolution_value(resolution, number) for key, (resolution, number) in choices.items()}
    return _record(actor, upload, values, "results.upload.resolve")


@transaction.atomic
def results_upload_accept_suggestions(*, actor, upload: ResultUpload) -> int:
    """Take the first suggestion of every player to resolve whose suggestion is certain (the one club member
    of the file's folded name, or the file's number with it: :func:`~masterpoints.uploads.names.is_certain`,
    N-1). Returns how many were taken."""
    upload = _locked(actor, upload)
    values = {
        line.key: resolution_value("member", line.suggestions[0].player.number)
        for line in build_preview(upload).to_resolve
        if line.certain
    }
    return _record(actor, upload, values, "results.upload.accept_suggestions") if values else 0


@transaction.atomic
def results_upload_remaining_held(*, actor, upload: ResultUpload) -> int:
    """Record every player still without a member (unknown or missing number, a chosen number not on the
    register) as held for the office: at the confirm each becomes a provisional player whose points are kept
    until they join or the office merges them (DBf appendix B, HBS rule 4), never thrown away as a
    guest's. Players whose name only differs from their number's member keep the member. Returns how many
    were recorded."""
    upload = _locked(actor, upload)
    values = {line.key: resolution_value("office") for line in build_preview(upload, suggest=False).unresolved}
    return _record(actor, upload, values, "results.upload.remaining_held") if values else 0

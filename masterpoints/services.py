"""Writes to the award ledger. Every change of points is a new row; every service audits."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.services import audit_record
from masterpoints.models import Award
from masterpoints.tasks import standings_update_tournament
from tournaments.models import ResultUpload, Tournament
from tournaments.preview import build_preview
from tournaments.services import _check_pending, tournament_create_from_preview


@transaction.atomic
def results_upload_confirm(
    *, actor, upload: ResultUpload, acknowledge_warnings: bool, trusted: bool = False
) -> Tournament:
    """Confirm an upload: recompute its preview, refuse it on any error (or unacknowledged warning), then
    create the tournament and post its awards; a re-upload reverses the earlier version's awards first.

    All in one transaction: either everything is written or nothing is.
    """
    upload = (
        ResultUpload.objects.select_for_update(of=("self",))
        .select_related("federation", "club", "region")
        .get(pk=upload.pk)
    )
    _check_pending(actor, upload, trusted=trusted)
    preview = build_preview(upload)
    if preview.event is None or preview.has_errors:
        raise ValidationError(_("The results have errors; correct them before confirming."), code="has_errors")
    if preview.has_warnings and not acknowledge_warnings:
        raise ValidationError(_("Tick the box to confirm that you have read the warnings."), code="warnings")
    if preview.previous is not None:
        # Lock the earlier version so two re-uploads of one event cannot both supersede it.
        Tournament.objects.select_for_update().get(pk=preview.previous.pk)
        awards_reverse_tournament(actor=actor, tournament=preview.previous, reason=_("superseded by a re-upload"))
    tournament = tournament_create_from_preview(preview=preview)
    Award.objects.bulk_create(
        Award(
            federation=upload.federation,
            player=line.player,
            kind=award.kind,
            units=award.units,
            source=Award.Source.RESULT,
            tournament=tournament,
            part=award.part[:100],
            place_first=line.place_first,
            place_last=line.place_last,
            explanation=award.explanation.as_dict(),
            awarded_on=tournament.date,
            created_by=actor if actor is not None and actor.is_authenticated else None,
        )
        for line, award in preview.ledger_awards
    )
    upload.status = ResultUpload.Status.CONFIRMED
    upload.confirmed_at = timezone.now()
    upload.save(update_fields=["status", "confirmed_at"])
    audit_record(
        actor=actor,
        action="results.upload.confirm",
        target=tournament,
        payload={
            "upload": upload.pk,
            "sha256": upload.sha256,
            "awards": len(preview.ledger_awards),
            "supersedes": preview.previous.pk if preview.previous else None,
        },
    )
    # The affected players' standings, once the awards are committed (issue 4). Robust: were the broker
    # unreachable, the confirmed upload stands and the nightly rebuild brings the standings up to date.
    transaction.on_commit(lambda: standings_update_tournament.delay(tournament.pk), robust=True)
    return tournament


def awards_reverse_tournament(*, actor, tournament: Tournament, reason: str) -> int:
    """Post one reversing entry for every award of ``tournament`` not reversed yet; returns how many."""
    open_awards = tournament.awards.filter(source=Award.Source.RESULT, reversed_by__isnull=True)
    reversals = [
        Award(
            federation=award.federation_id and award.federation,
            player_id=award.player_id,
            kind=award.kind,
            units=-award.units,
            source=Award.Source.REVERSAL,
            tournament=tournament,
            part=award.part,
            place_first=award.place_first,
            place_last=award.place_last,
            reason=reason[:300],
            reverses=award,
            awarded_on=award.awarded_on,
            created_by=actor if actor is not None and actor.is_authenticated else None,
        )
        for award in open_awards.select_related("federation")
    ]
    Award.objects.bulk_create(reversals)
    audit_record(
        actor=actor,
        action="awards.reverse_tournament",
        target=tournament,
        payload={"count": len(reversals), "reason": reason},
    )
    return len(reversals)

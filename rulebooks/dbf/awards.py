"""What a DBf organiser awards beyond § 403's table: a granted sanction's kind (§ 403A–B), and never BP for
a partial result of the club's SP or GP tournament (§ 405B7e)."""

from __future__ import annotations

import datetime

from masterpoints.uploads import claims
from masterpoints.uploads.lines import Preview, event_key
from tournaments.sanctions import selectors as sanctions


def dbf_awards_beyond(preview: Preview, allowed: tuple[str, ...], today: datetime.date) -> tuple[str, ...]:
    """``allowed`` with the kind a granted sanction adds if no other event used it (D-Q24: ``SANCTION_USED``
    then stops the computation); the preview's issues gain the sanction's and § 405B7e's (D-Q66)."""
    upload, event = preview.upload, preview.event
    category = upload.facts.get("category")
    if category not in allowed and upload.club_id and event.date:
        found = sanctions.event_sanction(
            club=upload.club,
            category=category,
            on_date=event.date,
            event_key=event_key(upload, event),
            claim=claims.claim_of(preview),
        )
        preview.sanction, preview.sanction_row = found.kind, found.sanction
        preview.issues += found.issues
        if found.issues or found.kind != "none":
            allowed = (*allowed, category)
    if category == "BP" and upload.club_id and event.date:  # § 405B7e, D-Q66
        preview.issues += sanctions.partial_result_issues(
            club=upload.club, on_date=event.date, bp_not_partial=bool(upload.facts.get("bp_not_partial"))
        )
    return allowed

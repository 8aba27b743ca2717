"""What an HBS organiser awards beyond H-1's black points: the kinds of the event's entry on the list of
recognised tournaments (``tournaments.recognised``), with the list's checks."""

from __future__ import annotations

import datetime

from masterpoints.uploads.lines import Preview
from tournaments import recognised


def hbs_awards_beyond(preview: Preview, allowed: tuple[str, ...], today: datetime.date) -> tuple[str, ...]:
    """``allowed`` with the listed entry's kinds (H-1); the preview's issues gain the list's (H-1, H-8,
    rules 2 and 10)."""
    listed, issues = recognised.upload_issues(upload=preview.upload, on_date=preview.event.date or today)
    preview.issues = preview.issues + issues
    return (*allowed, *listed)

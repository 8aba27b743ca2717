"""The one write of the member file: its download is audited (who, when, which club or federation)."""

from __future__ import annotations

from django.db import transaction

from clubs.models import Club
from federation.models import Federation
from federation.services import audit_record


@transaction.atomic
def member_file_download_record(*, actor, federation: Federation, club: Club | None, fmt: str, rows: int) -> None:
    """Audit one download of the member file: its user and time (the audit row's actor and time), the club
    (or the whole federation), the format and how many players it held."""
    audit_record(
        actor=actor,
        action="member_file.download",
        target=club or federation,
        payload={"federation": federation.code, "club": club.number if club else None, "format": fmt, "rows": rows},
    )

"""The upload quota per organiser: without it, any burst of large files would be stored in full.

Every upload is stored byte for byte before anything reads it (design.md § Invariants), so the bytes one
organiser (a club, a district or circle, the federation) may store are bounded per hour, on the upload page and
the upload API alike: at most ``RESULTS_UPLOAD_QUOTA_FILES`` files and ``RESULTS_UPLOAD_QUOTA_BYTES`` bytes in
the last hour (settings, from the environment; 20 files and 25 MB by default): a club uploads one evening's file
of a few kilobytes, a region a weekend's events; five files at the 5 MB limit an hour is far beyond either. The
server's own ``import_results`` is not counted.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Count, Min, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from federation.models import Federation, Region
from tournaments.models import ResultUpload

#: The quota's window: the refusal says "in the last hour".
WINDOW = datetime.timedelta(hours=1)

QUOTA_REFUSAL = _(
    "%(organiser)s has uploaded %(count)s files (%(used)s MB) in the last hour; the quota is %(files)s files and "
    "%(megabytes)s MB an hour per organiser, and this file of %(size)s MB does not fit: %(left_files)s files and "
    "%(left_mb)s MB are left. The quota frees up at %(reset)s. Nothing was stored."
)


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}"


def check_upload_quota(*, federation: Federation, club: Club | None, region: Region | None, size: int) -> None:
    """Refuse an upload of ``size`` bytes that would take the organiser past its hourly quota, naming the quota,
    what is left and when it frees up (``UPLOAD_QUOTA``). Runs inside the upload's transaction with the organiser's
    row locked, so two uploads at once cannot both take the last of it."""
    files, limit, window = settings.RESULTS_UPLOAD_QUOTA_FILES, settings.RESULTS_UPLOAD_QUOTA_BYTES, WINDOW
    organiser = club or region or federation
    type(organiser).objects.select_for_update().filter(pk=organiser.pk).first()
    since = timezone.now() - window
    used = ResultUpload.objects.filter(
        federation=federation, club=club, region=region, created_at__gte=since
    ).aggregate(count=Count("pk"), size=Sum("size"), oldest=Min("created_at"))
    count, taken = used["count"], used["size"] or 0
    if count < files and taken + size <= limit:
        return
    reset = timezone.localtime(used["oldest"] + window) if used["oldest"] else timezone.localtime()
    raise ValidationError(
        QUOTA_REFUSAL,
        code="UPLOAD_QUOTA",
        params={
            "organiser": str(organiser),
            "count": count,
            "used": _megabytes(taken),
            "files": files,
            "megabytes": _megabytes(limit),
            "size": _megabytes(size),
            "left_files": max(files - count, 0),
            "left_mb": _megabytes(max(limit - taken, 0)),
            "reset": reset.strftime("%H:%M"),
        },
    )

"""The office's answer reaching an upload that waits for it: a preview refused with RULESET_MISSING
(no rule set of the federation valid on the event's date) waits for the secretariat to add one. Once a rule set
is valid on that date, the preview is built again and the director who uploaded is told once by e-mail, so the
upload is not a dead end and nobody has to remember to look again."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from federation import outbox
from federation.rulesets import rules_for
from masterpoints.uploads.services import results_upload_preview
from tournaments.models import ResultUpload

WAITING_CODE = "RULESET_MISSING"


def waits_for_rule_set(upload: ResultUpload) -> bool:
    """Whether the upload's stored preview was refused for want of a rule set on the event's date."""
    counts = (upload.preview_summary or {}).get("issue_counts") or []
    return any(item.get("code") == WAITING_CODE for item in counts)


def _event_date(upload: ResultUpload) -> datetime.date | None:
    day = ((upload.preview_summary or {}).get("event") or {}).get("date")
    return datetime.date.fromisoformat(day) if day else None


def _answered(upload: ResultUpload) -> bool:
    day = _event_date(upload)
    if day is None:
        return False
    try:
        rules_for(upload.federation, day)
    except LookupError:
        return False
    return True


def results_uploads_ruleset_answered(*, site: str | None = None) -> list[int]:
    """Pending uploads waiting for a rule set that one now covers: each preview built again (the summary
    stored) and, where the rule set answered it, the uploader told once, in the same transaction as the new
    summary (the mail leaves through the outbox after the commit). Idempotent: an answered upload's stored
    preview no longer waits, so the next run passes it over; a row lock keeps two runs from telling twice."""
    told = []
    waiting = ResultUpload.objects.filter(status=ResultUpload.Status.PENDING).select_related("federation")
    for upload in waiting.iterator():
        if not waits_for_rule_set(upload) or not _answered(upload):
            continue
        with transaction.atomic():
            locked = (
                ResultUpload.objects.select_for_update(of=("self",))
                .select_related("federation", "uploaded_by")
                .get(pk=upload.pk)
            )
            if locked.status != ResultUpload.Status.PENDING or not waits_for_rule_set(locked):
                continue
            locked.preview_fingerprint = ""  # build it again now, whatever the fingerprint says
            ResultUpload.objects.filter(pk=locked.pk).update(preview_fingerprint="")
            results_upload_preview(upload=locked)
            if waits_for_rule_set(locked):
                continue
            _tell(locked, site=site)
            told.append(locked.pk)
    return told


def _tell(upload: ResultUpload, *, site: str | None) -> None:
    address = getattr(upload.uploaded_by, "email", "")
    if not address:
        return
    site = (site or settings.SITE_URL).rstrip("/")
    context = {
        "upload": upload,
        "event_date": _event_date(upload),
        "preview_url": site + reverse("uploads:preview", args=[upload.pk]),
    }
    with translation.override(upload.federation.default_language or settings.LANGUAGE_CODE):
        subject = " ".join(render_to_string("emails/upload_ruleset_added_subject.txt", context).split())
        body = render_to_string("emails/upload_ruleset_added.txt", context)
    outbox.enqueue_mail(subject=subject, body=body, to=[address])

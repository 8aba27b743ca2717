"""The table of "My uploads" and of a club's uploads."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from masterpoints.uploads.selectors import SUPERSEDED
from tournaments.models import ResultUpload

STATES = {**dict(ResultUpload.Status.choices), SUPERSEDED: _("superseded")}


class ResultUploadTable(tables.Table):
    created_at = tables.DateTimeColumn(verbose_name=_("uploaded"), format="Y-m-d H:i")
    original_name = tables.Column(verbose_name=_("file"))
    organiser = tables.Column(verbose_name=_("organiser"), empty_values=(), orderable=False)
    event = tables.Column(verbose_name=_("event"), empty_values=(), orderable=False)
    state = tables.Column(verbose_name=_("state"))
    issues = tables.Column(verbose_name=_("issues"), empty_values=(), orderable=False)

    class Meta:
        model = ResultUpload
        fields = ["created_at", "original_name", "organiser", "event", "state", "issues"]
        attrs = {"class": "table"}

    def render_original_name(self, record, value):
        """Pending and discarded uploads link to their preview; confirmed ones to their tournament."""
        tournament = getattr(record, "tournament", None)
        if record.status == ResultUpload.Status.CONFIRMED and tournament is not None:
            return format_html('<a href="{}">{}</a>', tournament.get_absolute_url(), value)
        return format_html('<a href="{}">{}</a>', reverse("uploads:preview", args=[record.pk]), value)

    def render_organiser(self, record):
        return str(record.club or record.region or record.federation)

    def render_event(self, record):
        event = (record.preview_summary or {}).get("event") or {}
        return " ".join(part for part in (event.get("name") or "", event.get("date") or "") if part) or "–"

    def render_state(self, value):
        return STATES.get(value, value)

    def render_issues(self, record):
        """A pending upload's errors and warnings, as its preview last counted them."""
        if record.status != ResultUpload.Status.PENDING:
            return "–"
        counts = (record.preview_summary or {}).get("issue_counts")
        if counts is None:
            return _("not checked yet")
        errors = sum(item["count"] for item in counts if item["severity"] == "error")
        warnings = sum(item["count"] for item in counts if item["severity"] == "warning")
        return ", ".join(
            (
                ngettext("%(n)s error", "%(n)s errors", errors) % {"n": errors},
                ngettext("%(n)s warning", "%(n)s warnings", warnings) % {"n": warnings},
            )
        )

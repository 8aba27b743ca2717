"""What every application or request an office decides keeps of the decision: who, when and why.

A sanction application (DBf § 403B), a correction request (HBS H-12–H-14), a tourist tournament's approval
(HBS rule 2) and a registration of foreign points (DBf § 401B) are each decided once, by the office the
rule names. Their models inherit :class:`Decided`, so the three fields are spelled and written in one
place; the model's own ``status`` says what was decided, in the states its workflow has.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: The decision's fields, which a page lists after the row's own (the abstract parent's come first in ``_meta``).
DECISION_FIELDS = ("decided_by", "decided_at", "decision_reason")


class Decided(models.Model):
    """Who decided, when, and the reason given (required for a refusal by each workflow's service)."""

    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decision_reason = models.TextField(_("reason for the decision"), blank=True)

    class Meta:
        abstract = True

    def decide(self, *, actor, status: str, reason: str = "", also: Iterable[str] = ()) -> None:
        """Record the decision ``status`` by ``actor`` now with ``reason``, and save those fields with the
        model's own fields named in ``also`` (a posted award, say). The caller holds the row's lock and has
        checked that the actor may decide and that the row is still open."""
        self.status = status
        self.decided_by = actor
        self.decided_at = timezone.now()
        self.decision_reason = reason.strip()
        self.save(update_fields=["status", *DECISION_FIELDS, *also])

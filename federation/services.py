"""Writes to the federation's own records. Every other app's services audit through :func:`audit_record`."""

from __future__ import annotations

from typing import Any

from django.db import models

from federation.models import AuditEvent


def audit_record(*, actor, action: str, target: models.Model | None = None, payload: dict[str, Any] | None = None):
    """Append one audit event; call it inside the service's transaction so both land or neither does."""
    return AuditEvent.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        target_repr=str(target)[:300] if target is not None else "",
        payload=payload or {},
    )

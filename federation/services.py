"""Writes to the federation's own records. Every other app's services audit through :func:`audit_record`
(or :func:`audit_record_many` for the rows of one bulk change, such as a register import)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models

from federation.bulk import insert_many
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


def audit_record_many(*, actor, model: type[models.Model], entries: Iterable[tuple[str, Any, str, dict]]) -> int:
    """Append one audit event per entry ``(action, target id, target text, payload)`` about rows of
    ``model``, at once (``federation.bulk``): for the rows of one bulk change, inside its transaction, like
    :func:`audit_record`. Returns how many were written."""
    actor_id = actor.pk if actor is not None and actor.is_authenticated else None
    label = model._meta.label_lower
    return insert_many(
        AuditEvent,
        (
            {
                "actor_id": actor_id,
                "action": action,
                "target_type": label,
                "target_id": str(pk),
                "target_repr": text[:300],
                "payload": payload,
            }
            for action, pk, text, payload in entries
        ),
    )

"""Writes of the API: each write call once per idempotency key, and the audit row of every token's call."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from api.errors import ApiError
from api.models import IdempotentCall
from federation.services import audit_record
from office.models import ApiToken


def request_digest(request, payload: Any) -> str:
    """What makes two calls the same request: the method, the path and the payload (the caller's parsed
    body; a file stands in by its name and SHA-256)."""
    basis = {"method": request.method, "path": request.path, "payload": payload}
    return hashlib.sha256(json.dumps(basis, sort_keys=True, default=str).encode()).hexdigest()


@transaction.atomic
def api_call_once(
    *, token: ApiToken, key: str, digest: str, write: Callable[[], tuple[int, dict]]
) -> tuple[int, dict, bool]:
    """Run ``write`` once per ``token`` and ``key``: ``(status, body, replayed)``.

    The key's row is written first, in the same transaction as everything ``write`` writes, and its answer
    stored with it: a retry with the key gets the stored answer and writes nothing again. Two calls racing
    with one key both try to insert the row; the unique constraint lets one through, and the other (which
    waits for it on PostgreSQL) replays its answer. When ``write`` refuses (raises), nothing is kept, the
    key's row included: nothing was written, and the call may be sent again. The same key with another
    request is refused (409).
    """
    try:
        with transaction.atomic():
            call = IdempotentCall.objects.create(token=token, key=key, request_digest=digest, status=0, response={})
    except IntegrityError:
        earlier = IdempotentCall.objects.get(token=token, key=key)
        if earlier.request_digest != digest:
            raise ApiError(
                409,
                "IDEMPOTENCY_KEY_REUSED",
                _("The Idempotency-Key %(key)s was used for another request: send a new key for a new request.")
                % {"key": key},
                field="Idempotency-Key",
                params={"key": key},
            ) from None
        return earlier.status, earlier.response, True
    status, body = write()
    call.status, call.response = status, body
    call.save(update_fields=["status", "response"])
    return status, body, False


def api_call_audit(*, token: ApiToken, request, status: int, key: str = "", replayed: bool = False) -> None:
    """One audit row per call with a token, answered or refused, in the name of the officer who made it."""
    audit_record(
        actor=token.created_by,
        action="api.call",
        target=token,
        payload={
            "token": token.prefix,
            "method": request.method,
            "path": request.path[:300],
            "status": status,
            "idempotency_key": key,
            "replayed": replayed,
        },
    )

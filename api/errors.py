"""The API's refusals, answered alike everywhere: ``{"error": {"code", "message", "field", "params"}}`` with
the HTTP status (``api.handlers`` turns every other exception into one)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse

from federation.refusals import plain_value


class ApiError(Exception):
    """A refusal with its HTTP status, a stable ``code``, a message naming what and where, and plain ``params``.

    ``params`` is one mapping, not keyword arguments: a refusal's own parameters (a service's ``status`` of an
    upload, say) must never collide with the refusal's ``status``, ``code``, ``message`` or ``field``."""

    def __init__(
        self, status: int, code: str, message: str, *, field: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field
        self.params = dict(params or {})

    def as_json(self) -> dict[str, Any]:
        return error_body(self.code, self.message, field=self.field, params=self.params)


def _plain(value: Any) -> Any:
    """A parameter as JSON: numbers, text and lists or mappings of them; a date or a time in ISO 8601; anything
    else (a lazy label, a club) as its text."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return plain_value(value)


def error_body(code: str, message: str, *, field: str | None = None, params: dict | None = None) -> dict:
    plain = {key: _plain(value) for key, value in (params or {}).items()}
    return {"error": {"code": code, "message": str(message), "field": field, "params": plain}}


def error_response(error: ApiError) -> JsonResponse:
    return JsonResponse(error.as_json(), status=error.status, json_dumps_params={"ensure_ascii": False})


def service_refusal(error: DjangoValidationError, *, status: int = 409) -> ApiError:
    """A service's refusal (the same message the upload page shows), with its code, or ``REFUSED``."""
    code = getattr(error, "code", None) or "REFUSED"
    return ApiError(status, code.upper(), " ".join(error.messages), params=getattr(error, "params", None))

"""Every refusal the API can give, in the one shape of ``api.errors``: our own, a service's, a 404, a request
the schema refuses, a missing token; each one of a call with a token is audited."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as SchemaError

from api.errors import ApiError, error_response, service_refusal
from api.services import api_call_audit
from federation.params import BadParameter
from masterpoints.engine.common import RequestError
from office.models import ApiToken


def _schema_refusal(errors: list[dict]) -> ApiError:
    """The schema's first complaint, naming the field; all of them in ``params.errors``."""
    first = errors[0] if errors else {}
    field = ".".join(str(part) for part in first.get("loc", ())[1:]) or None
    details = [{"field": ".".join(str(p) for p in e.get("loc", ())[1:]), "message": e.get("msg", "")} for e in errors]
    message = _("The request does not match the schema: %(field)s: %(message)s") % {
        "field": field or _("request"),
        "message": first.get("msg", ""),
    }
    return ApiError(400, "INVALID_REQUEST", message, field=field, params={"errors": details})


def respond(request, refusal: ApiError):
    """The refusal as JSON; audited when a token was accepted for the call (``request.auth``)."""
    token = getattr(request, "auth", None)
    if isinstance(token, ApiToken):
        key = request.headers.get("Idempotency-Key", "")[:100]
        api_call_audit(token=token, request=request, status=refusal.status, key=key)
    return error_response(refusal)


def install_handlers(api: NinjaAPI) -> None:
    """Every refusal the API can give, in the one shape of :func:`error_body`."""

    def handle(refusal):
        return lambda request, exc: respond(request, refusal(exc))

    api.add_exception_handler(ApiError, handle(lambda exc: exc))
    api.add_exception_handler(
        Http404, handle(lambda exc: ApiError(404, "NOT_FOUND", str(exc) or _("There is nothing at this address.")))
    )
    api.add_exception_handler(SchemaError, handle(lambda exc: _schema_refusal(exc.errors)))
    api.add_exception_handler(
        AuthenticationError,
        handle(
            lambda exc: ApiError(
                401, "TOKEN_MISSING", _("This call needs a token: send the header Authorization: Bearer <token>.")
            )
        ),
    )
    api.add_exception_handler(HttpError, handle(lambda exc: ApiError(exc.status_code, "HTTP_ERROR", str(exc))))
    api.add_exception_handler(
        PermissionDenied,
        handle(lambda exc: ApiError(403, "PERMISSION_DENIED", str(exc) or _("You may not do this."))),
    )
    api.add_exception_handler(DjangoValidationError, handle(service_refusal))
    api.add_exception_handler(
        BadParameter, handle(lambda exc: ApiError(400, "BAD_PARAMETER", exc.message, field=exc.name))
    )
    api.add_exception_handler(
        RequestError, handle(lambda exc: ApiError(400, "BAD_REQUEST", exc.message, field=exc.field))
    )

"""``/api/``: the NinjaAPI with its routers, its OpenAPI schema (``/api/openapi.json``) and its browsable
documentation (``/api/docs``); an address under ``/api/`` that names no call is a JSON 404 too."""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext as _
from ninja import NinjaAPI

from api import public, uploads
from api.docs import SiteSwagger
from api.errors import ApiError, error_response
from api.handlers import install_handlers

api = NinjaAPI(
    title="Masterpoint office API",
    version="1",
    description=(
        "Public reads (rankings, players, the points calculator) and the upload API for scoring programs. "
        "Upload calls need `Authorization: Bearer <token>` with a token a club or region makes on its office "
        "page, and every write call an `Idempotency-Key`. Every refusal is "
        '`{"error": {"code", "message", "field", "params"}}`.'
    ),
    urls_namespace="api",
    docs=SiteSwagger(),
)
install_handlers(api)
api.add_router("", public.router)
api.add_router("", uploads.router)


def not_found(request, rest: str):
    return error_response(ApiError(404, "NOT_FOUND", _("The API has no call at /api/%(rest)s.") % {"rest": rest[:100]}))


urlpatterns = [path("api/", api.urls), path("api/<path:rest>", not_found)]

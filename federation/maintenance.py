"""Maintenance mode: an operator closes the site for a migration by creating a file, and opens it by removing
the file (README § Running in production, "Health and maintenance").

A file rather than an environment variable, so that it is switched on and off without restarting a process:
every gunicorn worker looks for ``MAINTENANCE_FILE`` on each request (one ``stat``, a few microseconds). Several
machines share the switch when ``MAINTENANCE_FILE`` names a path on a shared volume; otherwise each machine has
its own.

While it is on, :class:`MaintenanceMiddleware` answers 503 with ``Retry-After`` (``MAINTENANCE_RETRY_AFTER``
seconds): the site a page in the reader's language, ``/api/`` the API's error shape with the code
``MAINTENANCE``. ``/health/`` still answers (saying ``"maintenance": true``) and static files still serve
(WhiteNoise answers them before this middleware; the static address passes it too). The database is not
touched, so the page answers while a migration holds its locks.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext

#: Addresses that answer as usual during maintenance.
HEALTH_PATH = "/health/"
API_PATH = "/api/"


def maintenance_on() -> bool:
    """Whether the file ``MAINTENANCE_FILE`` exists (no file configured: never)."""
    return bool(settings.MAINTENANCE_FILE) and os.path.exists(settings.MAINTENANCE_FILE)


def _passes(path: str) -> bool:
    static = urlsplit(settings.STATIC_URL).path
    static = static if static.startswith("/") else "/" + static
    return path.startswith((HEALTH_PATH, static))


class MaintenanceMiddleware:
    """Answers every request but ``/health/`` and static files with 503 while :func:`maintenance_on`; placed
    after ``LocaleMiddleware`` (the page speaks the reader's language) and before anything that reads the
    session, the user or the database."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not maintenance_on() or _passes(request.path_info):
            return self.get_response(request)
        retry_after = settings.MAINTENANCE_RETRY_AFTER
        minutes = max(1, round(retry_after / 60))
        if request.path_info.startswith(API_PATH):
            message = ngettext(
                "The site is closed for maintenance; try again in a minute.",
                "The site is closed for maintenance; try again in %(minutes)s minutes.",
                minutes,
            ) % {"minutes": minutes}
            # The API's error shape (api.errors.error_body): this app lies below the API; a test pins the two alike.
            error = {"code": "MAINTENANCE", "message": message, "field": None, "params": {"retry_after": retry_after}}
            response = JsonResponse({"error": error}, status=503, json_dumps_params={"ensure_ascii": False})
        else:
            response = render(request, "maintenance.html", {"minutes": minutes}, status=503)
        response["Retry-After"] = str(retry_after)
        return response

"""Whole public pages for anonymous readers, kept as response bytes (issue 16).

The rankings and a player's page are what tens of thousands of players open, almost all without logging in,
and they change only when the federation's standings do. For an anonymous ``GET`` (no session and no
pending message: nothing of one reader is on the page; the language switch is a plain link form, so the
page carries no CSRF token) the whole response is kept in the cache under the path, the query, the
language, today's date and the federation's standings version, and served as bytes:

- ``ETag`` is that key, so a browser or a proxy asking again with ``If-None-Match`` gets ``304 Not
  Modified`` (Django's :func:`~django.utils.cache.get_conditional_response`) without the page being read;
- ``Cache-Control: public, max-age=0, s-maxage=PUBLIC_PROXY_SECONDS, must-revalidate``: a reverse proxy or
  CDN may serve the page for that many seconds (it varies by ``Accept-Language`` and ``Cookie``, which
  choose the language), a browser asks again each time and is answered by the ETag.

A standings change raises the version (:func:`masterpoints.standings.services._bump`), which changes every
key of the federation, so a confirmed upload shows at once; changes to the register (a new name, a club
membership) show within :data:`PAGE_CACHE_SECONDS`, as the rankings' cached table always did. A logged-in
reader's page is rendered for them (the rankings around their cached table).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from masterpoints.public import selectors
from masterpoints.standings.versions import standings_version_cached

#: How long a whole page is kept (the same bound as the rankings' cached table).
PAGE_CACHE_SECONDS = 300


def _anonymous(request: HttpRequest) -> bool:
    """Nothing of one reader can be on the page: a GET or HEAD without a session or a pending message (the
    session is not even read), and not an export nor a part of a page asked for by htmx."""
    return (
        request.method in ("GET", "HEAD")
        and "HX-Request" not in request.headers
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
        and "export" not in request.GET
    )


def page_key(request: HttpRequest, federation_id: int) -> str:
    """The page's key and ETag: its path and query (in a fixed order), the language, today and the
    federation's standings version."""
    query = urlencode(sorted(request.GET.lists()), doseq=True)
    version = standings_version_cached(federation_id)
    parts = (request.path, query, get_language(), selectors.today().isoformat(), str(federation_id), version)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:40]


def _headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=0, s_maxage=settings.PUBLIC_PROXY_SECONDS, must_revalidate=True)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _keepable(request: HttpRequest, response: HttpResponse) -> bool:
    """A complete 200 page that set no cookie and asked for no CSRF cookie (no token on it)."""
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


def anonymous_page_cache(federation_of: Callable[..., int | None]):
    """Serve the view's page to anonymous readers from the cache (see the module). ``federation_of(request,
    *args, **kwargs)`` names the federation whose standings the page shows (``None``: do not cache, e.g. an
    unknown federation, which the view answers itself)."""

    def decorator(view):
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            federation_id = federation_of(request, *args, **kwargs) if _anonymous(request) else None
            if federation_id is None:
                return view(request, *args, **kwargs)
            key = page_key(request, federation_id)
            etag = f'"{key}"'
            unchanged = get_conditional_response(request, etag=etag)
            if unchanged is not None:
                return _headers(unchanged, etag)
            stored = cache.get(f"page:{key}")
            if stored is not None:
                content, content_type = stored
                return _headers(HttpResponse(content, content_type=content_type), etag)
            response = view(request, *args, **kwargs)
            if hasattr(response, "render") and callable(response.render):
                response = response.render()
            if request.method != "GET" or not _keepable(request, response):
                return response
            cache.set(f"page:{key}", (response.content, response["Content-Type"]), PAGE_CACHE_SECONDS)
            return _headers(response, etag)

        return wrapped

    return decorator


def rankings_federation(request: HttpRequest, *args, **kwargs) -> int | None:
    """The rankings' federation: ``?federation=`` (an id) or the default one; anything else is not cached
    (the view refuses or falls back as it does for everyone)."""
    raw = request.GET.get("federation", "")
    if not raw:
        return selectors.default_federation_id_cached()
    return int(raw) if raw.isdecimal() and len(raw) <= 9 else None


def player_federation(request: HttpRequest, code: str, number: str) -> int | None:
    """A player's page: the federation its address names (an unknown code is not cached)."""
    return selectors.federation_id_by_code_cached(code)

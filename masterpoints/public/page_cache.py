"""Whole public pages for anonymous readers, kept as response bytes.

The rankings and a player's page are what tens of thousands of players open, almost all without logging in,
and they change only when the federation's standings do. For an anonymous ``GET`` (no session and no
pending message: nothing of one reader is on the page; the language switch is a plain link form, so the
page carries no CSRF token) the whole response is kept in the cache under the path, the query, the
language, today's date and the federation, with the standings version it was rendered under (both are
read in one round trip), and served as bytes while that version stands:

- ``ETag`` is a digest of the page's bytes, so a browser or a proxy asking again with ``If-None-Match``
  gets ``304 Not Modified`` (Django's :func:`~django.utils.cache.get_conditional_response`) while the kept
  page is the one it holds, and the new page once anything on it changed (a name, a release's template);
- ``Cache-Control: public, max-age=0, s-maxage=PUBLIC_PROXY_SECONDS, must-revalidate``: a reverse proxy or
  CDN may serve the page for that many seconds (it varies by ``Accept-Language`` and ``Cookie``, which
  choose the language), a browser asks again each time and is answered by the ETag;
- a reader whose ``Accept-Encoding`` names gzip, as every browser's does, is sent the page gzip-compressed
  (compressed once, when it is kept): the rankings' 54 KB travel as about 8 KB to a phone. Each form is kept
  apart, and only once a reader asked for it (a browser's page is kept compressed only, a fifth of the
  bytes to write and fetch), so that a hit fetches only what it sends. The compressed page has its own
  ETag and the response varies by ``Accept-Encoding``. A kept page holds no secret of anyone (no session,
  no CSRF token), so compression reveals nothing (BREACH).

A standings change raises the version (:func:`masterpoints.standings.services._bump`), which changes every
key of the federation, so a confirmed upload shows at once; changes to the register (a new name, a club
membership) show within :data:`PAGE_CACHE_SECONDS`, as the rankings' cached table always did. A logged-in
reader's page is rendered for them (the rankings around their cached table) and marked for no cache to
keep.

Only addresses whose parameters the page reads are kept (and only its first :data:`KEPT_PAGES` pages), so
that made-up parameters cannot fill the cache; it should still be bounded itself (Redis ``maxmemory`` with
an LRU policy, see the README).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import (
    add_never_cache_headers,
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.text import compress_string
from django.utils.translation import get_language

from federation.tables import PAGE_SIZES
from masterpoints.public import selectors
from masterpoints.standings.versions import FEDERATION_CODE_LENGTH, version_key, version_read

#: How long a whole page is kept (the same bound as the rankings' cached table).
PAGE_CACHE_SECONDS = 300
#: Pages of a list beyond this one are rendered for each reader, not kept.
KEPT_PAGES = 20
#: A page shorter than this is not worth compressing (Django's ``GZipMiddleware`` draws the same line).
COMPRESS_FROM_BYTES = 200
#: The page numbers and sizes a kept address may ask for, written as the page writes them.
_NUMBERS = {"page": {str(page) for page in range(1, KEPT_PAGES + 1)}, "per_page": {str(size) for size in PAGE_SIZES}}


def _anonymous(request: HttpRequest) -> bool:
    """Nothing of one reader can be on the page: a GET or HEAD without a session or a pending message (the
    session is not even read), and not a part of a page asked for by htmx."""
    return (
        request.method in ("GET", "HEAD")
        and "HX-Request" not in request.headers
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
    )


def kept_address(request: HttpRequest, parameters: frozenset[str]) -> bool:
    """Every parameter is one the page reads, each once, a page number one of the first pages and a page
    size one of those offered, each written as the page writes it (``page=01`` is another address)."""
    query = request.GET
    if not set(query) <= parameters or any(len(values) > 1 for _name, values in query.lists()):
        return False
    return all(query[name] in allowed for name, allowed in _NUMBERS.items() if name in query)


def _slot(request: HttpRequest, handle: str) -> str:
    """Where the page is kept: the release, its path and query (in a fixed order), the language, today and
    the federation's handle (the version is kept with the page)."""
    query = urlencode(sorted(request.GET.items()))
    parts = (settings.RELEASE, request.path, query, get_language(), selectors.today().isoformat(), handle)
    # "kept-page:", not the "page:" of the earlier tuples: a worker of the release before, during a rolling
    # deploy, never reads a KeptPage it cannot unpickle.
    return "kept-page:" + hashlib.sha256("\n".join(parts).encode()).hexdigest()[:40]


def _public(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=0, s_maxage=settings.PUBLIC_PROXY_SECONDS, must_revalidate=True)
    patch_vary_headers(response, ("Accept-Language", "Cookie", "Accept-Encoding"))
    return response


def _accepts_gzip(request: HttpRequest) -> bool:
    """``Accept-Encoding`` names gzip with a weight above 0 (``gzip;q=0`` refuses it, RFC 9110 § 12.5.3)."""
    for part in request.headers.get("Accept-Encoding", "").split(","):
        coding, _sep, parameters = part.partition(";")
        if coding.strip().lower() != "gzip":
            continue
        weight = parameters.strip().lower()
        if not weight.startswith("q="):
            return True
        # A weight is at most "1.000" (RFC 9110 § 12.4.2): anything longer or not a number refuses gzip.
        try:
            return len(weight) <= len("q=1.000") and Decimal(weight[2:]) > 0
        except InvalidOperation:
            return False
    return False


@dataclass(frozen=True)
class KeptPage:
    """One representation of a page as kept: the version it was rendered under, its bytes (gzip-compressed
    when ``gzipped``), type and ETag. A page is kept apart as it is and for readers who accept gzip, so
    that a reader's hit fetches only the bytes it is sent."""

    version: str
    body: bytes
    content_type: str
    etag: str
    gzipped: bool = False

    @classmethod
    def of(cls, version: str, response: HttpResponse, *, gzip: bool) -> KeptPage:
        """The page as it is or, with ``gzip``, for readers who accept it: compressed, with its own ETag
        (the plain page's, marked), unless too short to gain from it (then as it is)."""
        content = response.content
        plain = cls(version, content, response["Content-Type"], _etag(content))
        if not gzip or len(content) < COMPRESS_FROM_BYTES:
            return plain
        packed = compress_string(content)
        if len(packed) >= len(content):
            return plain
        return cls(version, packed, plain.content_type, f'{plain.etag[:-1]}-gzip"', gzipped=True)

    def answer(self, request: HttpRequest) -> HttpResponse:
        """The page for ``request``, or 304 when the reader holds it."""
        unchanged = get_conditional_response(request, etag=self.etag)
        if unchanged is not None:
            return _public(unchanged, self.etag)
        response = HttpResponse(self.body, content_type=self.content_type)
        if self.gzipped:
            response["Content-Encoding"] = "gzip"
        return _public(response, self.etag)


def _etag(content: bytes) -> str:
    return f'"{hashlib.sha256(content).hexdigest()[:40]}"'


def _private(response: HttpResponse) -> HttpResponse:
    """A page rendered for one reader: no proxy may keep it, even one that ignores ``Vary: Cookie``."""
    if not response.has_header("Cache-Control"):
        add_never_cache_headers(response)
    return response


def _keepable(request: HttpRequest, response: HttpResponse) -> bool:
    """A complete 200 page of a GET that set no cookie and asked for no CSRF cookie (no token on it)."""
    return (
        request.method == "GET"
        and response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


def anonymous_page_cache(federation_of: Callable[..., str | None], parameters: Iterable[str]):
    """Serve the view's page to anonymous readers from the cache (see the module). ``federation_of(request,
    *args, **kwargs)`` gives the handle of the federation whose standings the page shows
    (:mod:`masterpoints.standings.versions`; ``None``: do not keep, the view answers as for anyone);
    ``parameters``: the query parameters the page reads."""
    known = frozenset(parameters)

    def decorator(view):
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            keep = _anonymous(request) and kept_address(request, known)
            handle = federation_of(request, *args, **kwargs) if keep else None
            if handle is None:
                return _private(view(request, *args, **kwargs))
            gzip = _accepts_gzip(request)
            slot = _slot(request, handle)
            wanted = f"{slot}:gzip" if gzip else slot
            found = cache.get_many([version_key(handle), wanted])  # one round trip for a kept page
            version = found.get(version_key(handle)) or version_read(handle)
            if version is None:  # no such federation: the view says so
                return _private(view(request, *args, **kwargs))
            stored = found.get(wanted)
            if isinstance(stored, KeptPage) and stored.version == version:
                return stored.answer(request)
            request.standings_version = version  # read here already: the view need not ask again
            response = view(request, *args, **kwargs)
            if hasattr(response, "render") and callable(response.render):
                response = response.render()
            if not _keepable(request, response):
                return _private(response)
            kept = KeptPage.of(version, response, gzip=gzip)
            cache.set(wanted, kept, PAGE_CACHE_SECONDS)
            # A reader who holds it (rendered again, and the same) gets a 304.
            return kept.answer(request)

        return wrapped

    return decorator


def rankings_federation(request: HttpRequest, *args, **kwargs) -> str | None:
    """The rankings' federation: ``?federation=`` (an id) or the default one; anything else is not kept
    (the view refuses or falls back as it does for everyone)."""
    raw = request.GET.get("federation", "")
    if not raw:
        return "default"
    # As the filter reads it: an id written otherwise (05) is no federation's, and the filter falls back.
    return f"id:{raw}" if raw.isascii() and raw.isdecimal() and len(raw) <= 9 and raw == str(int(raw)) else None


def player_federation(request: HttpRequest, code: str, number: str) -> str | None:
    """A player's page: the federation its address names (a code no federation could have is not kept)."""
    return f"code:{code}" if len(code) <= FEDERATION_CODE_LENGTH else None

"""Calls per client address (the anonymous reads) and per token (the upload API), counted by django-ratelimit
in the cache; past the limit the answer is 429 with the code ``RATE_LIMITED`` naming the limit."""

from __future__ import annotations

from functools import wraps

from django.utils.translation import gettext as _
from django_ratelimit.core import is_ratelimited

from api.errors import ApiError, error_response

#: Calls of one token, reads and writes together: a scoring program sends a file, resolves and confirms in a
#: handful of calls; a loop gone wrong is stopped without stopping the club's other programs' tokens.
UPLOAD_API_RATE = "60/m"


def limited_per_address(rate: str):
    """Count the view's calls per client address and answer 429 past ``rate`` (``"60/m"``)."""

    def decorate(view):
        @wraps(view)
        def checked(request, *args, **kwargs):
            if is_ratelimited(
                request, group=f"{view.__module__}.{view.__qualname__}", key="ip", rate=rate, increment=True
            ):
                message = _("Too many requests from this address: at most %(rate)s. Try again shortly.")
                refusal = ApiError(
                    429, "RATE_LIMITED", message % {"rate": rate}, field="request", params={"rate": rate}
                )
                return error_response(refusal)
            return view(request, *args, **kwargs)

        return checked

    return decorate


def check_token_rate(request, token) -> None:
    """Count one call of ``token``; past :data:`UPLOAD_API_RATE` the call is refused (429)."""

    def key(_group, _request) -> str:
        return str(token.pk)

    if is_ratelimited(request, group="api.token", key=key, rate=UPLOAD_API_RATE, increment=True):
        message = _("Too many calls with this token: at most %(rate)s. Try again shortly.")
        raise ApiError(429, "RATE_LIMITED", message % {"rate": UPLOAD_API_RATE}, params={"rate": UPLOAD_API_RATE})

"""The anonymous JSON API's calls per client address (django-ratelimit), answered alike everywhere: 429 with
``{"error": {"field": "request", "message": …}}`` naming the limit."""

from __future__ import annotations

from functools import wraps

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django_ratelimit.decorators import ratelimit


def limited_per_address(rate: str):
    """Count the view's calls per client address and answer 429 past ``rate`` (``"60/m"``)."""

    def decorate(view):
        @ratelimit(key="ip", rate=rate, block=False)
        @wraps(view)
        def checked(request, *args, **kwargs):
            if getattr(request, "limited", False):
                message = _("Too many requests from this address: at most %(rate)s. Try again shortly.")
                return JsonResponse({"error": {"field": "request", "message": message % {"rate": rate}}}, status=429)
            return view(request, *args, **kwargs)

        return checked

    return decorate

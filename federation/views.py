"""The home page and the language choice."""

from django.conf import settings
from django.http import HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from federation.models import Federation


def home(request):
    federations = Federation.objects.order_by("name")
    return render(request, "federation/home.html", {"federations": federations})


@require_GET
def language_choose(request):
    """``/language/?language=da&next=/rankings/``: remember the reader's language in its cookie and go back.

    A link, not a form with a CSRF token, so that the public pages hold nothing of one reader and can be
    served whole from a cache (:mod:`masterpoints.public.page_cache`); all it changes is the reader's own
    choice of language. ``next`` is followed only to this site (else the home page); a language the site
    does not offer is refused, naming the ones it does."""
    code = request.GET.get("language", "")
    offered = dict(settings.LANGUAGES)
    if code not in offered:
        names = ", ".join(f"{key} ({name})" for key, name in offered.items())
        return HttpResponseBadRequest(
            _("The site offers these languages: %(languages)s.") % {"languages": names}, content_type="text/plain"
        )
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response

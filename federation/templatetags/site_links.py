"""``{% load site_links %}``: the site's header links, each address worked out once per process.

The header of every page names eight to fifteen pages by their URL names and three static files. Django
reverses a name (``{% url %}``) and looks a static file up in the manifest (``{% static %}``) on every
rendering: a dozen or more lookups on every page, for addresses that only a new release changes.
:func:`page_url` keeps a name's address by the URLconf and script prefix it was reversed under,
:func:`static_url` a file's by the static address and storage it was looked up in.
"""

from __future__ import annotations

import functools

from django import template
from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.urls import get_script_prefix, get_urlconf, reverse

register = template.Library()


@register.simple_tag
def page_url(name: str) -> str:
    """``{% page_url "public:rankings" %}``: the address of a page that takes no arguments."""
    return _reversed(name, get_urlconf(), get_script_prefix())


@functools.lru_cache(maxsize=256)
def _reversed(name: str, urlconf, prefix: str) -> str:
    return reverse(name, urlconf=urlconf)


@register.simple_tag
def static_url(path: str) -> str:
    """``{% static_url "css/site.css" %}``: as ``{% static %}``, the file's (hashed) address."""
    return _stored(path, settings.STATIC_URL, settings.STORAGES["staticfiles"]["BACKEND"])


@functools.lru_cache(maxsize=64)
def _stored(path: str, base: str, backend: str) -> str:
    return staticfiles_storage.url(path)

"""The header's links kept per process (federation.templatetags.site_links, issue 16): the same addresses
as ``{% url %}`` and ``{% static %}``, under the script prefix a deployment below a path sets."""

from __future__ import annotations

from django.template import Context, Template
from django.templatetags.static import static
from django.urls import clear_script_prefix, reverse, set_script_prefix

TAGS = '{% load site_links %}{% page_url "public:rankings" %} {% static_url "css/site.css" %}'


def test_the_header_links_are_the_addresses_url_and_static_give():
    assert Template(TAGS).render(Context()) == f"{reverse('public:rankings')} {static('css/site.css')}"


def test_a_kept_address_follows_the_script_prefix_it_was_worked_out_under():
    before = Template(TAGS).render(Context())
    set_script_prefix("/mesterpoint/")
    try:
        under = Template(TAGS).render(Context())
        assert under.startswith("/mesterpoint/rankings/") and under.split()[0] == reverse("public:rankings")
    finally:
        clear_script_prefix()
    assert Template(TAGS).render(Context()) == before

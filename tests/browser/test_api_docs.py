"""The API's browsable documentation (``/api/docs``, django-ninja's Swagger UI served from the site's own
static files) renders under the site's Content-Security-Policy and lists the calls (issue 17)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_the_api_documentation_renders_every_call_without_a_policy_violation(page, db):
    refused = []
    page.on("console", lambda message: refused.append(message.text) if message.type == "error" else None)
    page.goto("/api/docs")
    page.get_by_text("/api/uploads/{upload_id}/confirm").wait_for()
    for path in ("/api/rankings", "/api/players/{code}/{number}", "/api/calculator", "/api/uploads"):
        assert page.get_by_text(path, exact=True).count() >= 1, path
    assert [text for text in refused if "Content Security Policy" in text] == []


def test_the_api_documentation_fits_a_phone_and_leads_back_to_the_site(page, db):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/api/docs")
    assert page.locator("meta[name=viewport]").count() == 1
    assert page.locator("link[rel=icon]").count() == 1
    page.get_by_text("/api/calculator", exact=True).first.wait_for()
    page.get_by_role("link", name="Back to the masterpoint office").click()
    page.wait_for_url("**/")
    assert "/api/" not in page.url

"""Content-Security-Policy (django-csp): pages run only the site's own scripts and styles, none inline."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from django.db import connections
from django.urls import reverse

REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = REPO_ROOT / "templates"


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parts = (part.strip().split() for part in header.split(";") if part.strip())
    return {part[0]: part[1:] for part in parts}


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/rankings/", "/calculator/", "/accounts/login/", "/admin/login/"])
def test_html_pages_allow_only_the_sites_own_scripts_and_styles(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    policy = directives(response)
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]


def test_the_admin_pages_carry_the_policy_too(admin_client):
    response = admin_client.get(reverse("admin:federation_player_changelist"))
    assert response.status_code == 200
    assert directives(response)["script-src"] == ["'self'"]


INLINE = {
    "inline <script>": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "<style> element": re.compile(r"<style\b", re.IGNORECASE),
    "style= attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "on…= handler": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
}


def test_no_template_has_inline_scripts_styles_or_handlers():
    """The policy forbids them, so a browser would silently ignore them: keep them out of the templates."""
    found = [
        f"{path.relative_to(REPO_ROOT)}:{number}: {name}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for name, pattern in INLINE.items()
        if pattern.search(line)
    ]
    assert found == []


# --- in a real browser: no page the journeys use trips the policy ---------------------------------------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_browser_reports_no_policy_violation_on_the_site_and_the_admin(live_server, personas, monkeypatch):
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    pages = [
        "/",
        "/rankings/",
        "/calculator/",
        "/accounts/login/",
        "/admin/",
        "/admin/federation/player/",
        "/admin/federation/player/add/",
        "/admin/clubs/club/add/",
        "/admin/tournaments/sanctionapplication/",
    ]
    violations: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            context = browser.new_context(base_url=live_server.url, locale="en-GB")
            page = context.new_page()
            page.set_default_timeout(15000)
            page.on("console", lambda message: violations.append(f"{page.url}: {message.text}"))
            page.goto("/accounts/login/")
            page.get_by_label("Username").fill("secretariat")
            page.get_by_label("Password").fill("pw-secretariat")
            page.get_by_role("button", name="Log in").click()
            page.get_by_role("button", name="Log out").wait_for()
            for url in pages:
                response = page.goto(url)
                assert response.status < 400, url
                assert "script-src 'self'" in response.headers["content-security-policy"]
                page.wait_for_load_state("load")
            context.close()
            browser.close()
    finally:
        connections.close_all()
    assert [text for text in violations if "Content Security Policy" in text] == []

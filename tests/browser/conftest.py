"""Headless Chromium (Debian's package) driven by Playwright, against pytest-django's live server.

Skipped with a reason where Chromium is absent; ``.ci/run`` installs it, so CI always runs these.
"""

from __future__ import annotations

import os
import shutil

import pytest
from django.db import connections

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def page(live_server, monkeypatch):
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the fixtures make are safe.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(base_url=live_server.url, locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(15000)
        yield page
        # Connections the test opened while Playwright's event loop was running are kept apart from this
        # thread's usual ones (asgiref's Local): close them here, or one outlives the test database.
        connections.close_all()
        context.close()
        browser.close()


@pytest.fixture
def log_in(page):
    """Log in through the login page, as a person would."""

    def log_in(username: str, password: str) -> None:
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        page.get_by_role("button", name="Log out").wait_for()

    return log_in

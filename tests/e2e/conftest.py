"""Browser fixtures for end-to-end tests: Playwright driving the Debian
``chromium`` package (never ``playwright install``).

Outside CI the tests skip when chromium or the playwright package is missing;
under CI=true they fail instead, so a missing browser never passes silently.
"""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager

import pytest

CHROMIUM = os.environ.get("SHTAB_CHROMIUM", "/usr/bin/chromium")
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]


def _unavailable() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -r requirements.txt)"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
        return f"chromium is missing at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture
def browser_page():
    """A factory: ``with browser_page() as page`` launches chromium. Start it only
    after the test's database setup, so no ORM call runs inside Playwright's loop."""
    reason = _unavailable()
    if reason:
        if CI:
            pytest.fail(f"CI=true: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    @contextmanager
    def launch(**context_options):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                context = browser.new_context(**context_options)
                page = context.new_page()
                page.set_default_timeout(15000)
                yield page
            finally:
                browser.close()

    return launch


def recorded(page) -> None:
    """After a recording form was sent (the page's script posts it; the page stays): its answer has
    come, and the regions show the entry with its outcome (the state at the log's head), or the
    refusal with what was typed."""
    page.wait_for_function("() => !document.querySelector('#record-region[aria-busy]')"
                           " && !document.getElementById('recorded-note')"
                           " && (b => b && b.dataset.state === b.dataset.head)(document.getElementById('battle'))",
                           timeout=20000)

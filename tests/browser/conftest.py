"""A real Chromium (Debian's package) against the app served on loopback.

The server is werkzeug's, in a thread of the test process, with the real army books. Chromium
is launched by Playwright through ``executable_path`` (never ``playwright install``). A missing
``/usr/bin/chromium`` FAILS these tests: ``make test`` installs it, and CI must run them.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = Path(os.environ.get("LISTBUILDER_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def live_database_url(tmp_path_factory):
    """The SQLite database behind ``live_server`` (tests that set up saved data directly)."""
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'browser.sqlite3'}"


def closing_answers(app):
    """*app* whose every answer is closed even when the browser drops the connection mid-answer.

    werkzeug's development server closes an answer only after writing all of it; when Chromium
    leaves a page while a static file is still being sent, the file is left to the garbage
    collector and its ResourceWarning fails whatever test runs then. gunicorn (what serves
    users) closes answers on every path; this gives the test server the same manners."""

    def serve(environ, start_response):
        answer = app(environ, start_response)
        try:
            yield from answer
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()

    return serve


@contextmanager
def served(registry, database_url):
    """The app on *database_url*, served on loopback in a thread: its base URL."""
    from listbuilder.web import create_app
    from listbuilder.web.context import DATABASE_KEY

    # One browser is one client sending a whole session's requests: no per-client rate limits.
    app = create_app({"REGISTRY": registry, "DATABASE_URL": database_url, "RATELIMIT_ENABLED": False})
    server = make_server("127.0.0.1", 0, closing_answers(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        opened = app.extensions.get(DATABASE_KEY)
        if opened is not None:  # its pooled connections closed before their database goes
            opened.dispose()


@pytest.fixture(scope="session")
def live_server(registry, live_database_url):
    with served(registry, live_database_url) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium) before the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture()
def context(browser):
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield context
    context.close()


@pytest.fixture()
def page(context, live_server):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(10000)
    page.base = live_server  # type: ignore[attr-defined]
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"

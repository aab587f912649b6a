"""What the event-day browser tests share (issue 39): an event made and filled through the API,
a browser context of a size and colour scheme with axe loaded, and the checks every page passes."""

from __future__ import annotations

from contextlib import contextmanager

from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import AXE, TARGETS, serious
from tests.browser.test_rounds import ARMY, post


def make_event(base, books=("gf-cinder-covenant",), name="Club Night"):
    """A grimdark-future event open until 2099, with the organiser token."""
    return post(
        base,
        "/api/v1/events",
        {
            "name": name,
            "system": "grimdark-future",
            "points_limit": 1000,
            "books": [{"book": b} for b in books],
            "deadline": "2099-01-01T18:00:00Z",
        },
    )


def enter(base, event, name, army=ARMY):
    """*name* submits a new saved list of *army*: their player token."""
    saved = post(base, "/api/v1/lists", army)
    answer = post(
        base, f"/api/v1/events/{event['id']}/submissions", {"list_id": saved["id"], "player": name}, saved["edit_token"]
    )
    return answer["player_token"]


def sized(browser, size, scheme="light"):
    """A context and page of *size* in *scheme*, axe loaded, and the page errors it collects."""
    context = browser.new_context(viewport=size, is_mobile=size == PHONE, has_touch=size == PHONE, color_scheme=scheme)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


@contextmanager
def opened(browser, size, scheme="light"):
    """A page of *size* in *scheme* (axe loaded) for a with block, its context closed after; the
    block fails on any script error the page raised."""
    context, page, errors = sized(browser, size, scheme)
    try:
        yield page
        assert not errors, errors
    finally:
        context.close()


def checked(page, where):
    """axe at any width; 44 px touch targets and no sideways scroll on a phone."""
    assert not serious(page), f"{where}, axe: {serious(page)}"
    if page.viewport_size["width"] == PHONE["width"]:
        assert not page.evaluate(TARGETS), f"{where}, targets: {page.evaluate(TARGETS)}"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{where}: sideways scroll"

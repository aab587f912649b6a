"""Every page fits a 390 px phone: nothing scrolls sideways (issue 24)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_events import LEGAL, create_event, remember_list, submit

pytestmark = pytest.mark.browser


def overflow(page) -> list[str]:
    """The page's width past the viewport, and the widest elements that cause it."""
    return page.evaluate(
        """(limit) => {
        const wide = document.documentElement.scrollWidth;
        if (wide <= limit) return [];
        const out = [`page ${wide}px`];
        for (const el of document.querySelectorAll('body *')) {
            const r = el.getBoundingClientRect();
            if (r.right > limit + 1 && r.width > 0) out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} right=${Math.round(r.right)}`);
        }
        return out.slice(0, 12);
    }""",
        PHONE["width"],
    )


@pytest.fixture()
def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10000)
    page.base = live_server  # type: ignore[attr-defined]
    yield page
    context.close()


def test_no_page_scrolls_sideways_at_390_px(phone, registry):
    page = phone
    made = page.request.post(
        f"{page.base}/api/v1/lists", data=json.dumps(LEGAL), headers={"Content-Type": "application/json"}
    ).json()
    page.goto(page.base + "/")
    remember_list(page, LEGAL)
    event_url = create_event(page)
    submit(page, event_url, LEGAL["name"], "Ann Long-Named Player of the Ember Marches")  # the report has a row
    expect(page.locator("#submit-status")).to_contain_text("Submitted as", timeout=30000)
    event_path = event_url.replace(page.base, "")
    paths = [
        "/",
        "/import",
        "/lists",
        f"/l/{made['id']}",
        "/events/new",
        event_path,
        f"{event_path}/standings",
        f"{event_path}/day",
        "/api/v1/docs",
        "/no-such-page",
    ]
    paths += [f"/systems/{s}" for s in registry.systems]
    paths += [f"/build/{b.id}" for b in {b.system: b for b in registry.books.values()}.values()]
    paths += [f"/books/{b.id}" for b in registry.books.values()][:3]
    wide = {}
    for path in paths:
        page.goto(page.base + path)
        page.wait_for_load_state("networkidle")
        if path.startswith("/build/"):
            expect(page.locator("#validity")).to_be_visible()
        if path == event_path:
            expect(page.locator("#submit-list option")).not_to_have_count(0)
        found = overflow(page)
        if found:
            wide[path] = found
    assert wide == {}, wide

"""The statistics page in a browser (issue 39): its charts load as images, and the page passes
axe at 390 and 1280 px in both colour schemes, with no sideways scroll on a phone."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_accessibility import AXE, TARGETS, serious
from tests.browser.test_rounds import ARMY, SHOTS, post

pytestmark = pytest.mark.browser


def test_the_statistics_page_reads_well_on_a_phone_and_a_desk_in_both_schemes(browser, live_server):
    made = post(
        live_server,
        "/api/v1/events",
        {
            "name": "Club Night",
            "system": "grimdark-future",
            "points_limit": 1000,
            "books": [{"book": "gf-cinder-covenant"}],
            "deadline": "2099-01-01T18:00:00Z",
        },
    )
    tokens = {}
    for name in ("Ann", "Bob"):
        saved = post(live_server, "/api/v1/lists", ARMY)
        answer = post(
            live_server,
            f"/api/v1/events/{made['id']}/submissions",
            {"list_id": saved["id"], "player": name},
            saved["edit_token"],
        )
        tokens[name] = answer["player_token"]
    base = f"/api/v1/events/{made['id']}"
    post(live_server, f"{base}/rounds", {}, made["organiser_token"])
    post(
        live_server,
        f"{base}/rounds/1/results",
        {"table": 1, "outcome": {"Ann": "draw", "Bob": "draw"}},
        made["organiser_token"],
    )
    request = urllib.request.Request(
        live_server + f"{base}/statistics",
        data=b'{"public": true}',
        method="PUT",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {made['organiser_token']}"},
    )
    urllib.request.urlopen(request, timeout=30).close()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, scheme in ((PHONE, "light"), (PHONE, "dark"), (DESKTOP, "light"), (DESKTOP, "dark")):
        context = browser.new_context(
            viewport=size, is_mobile=size == PHONE, has_touch=size == PHONE, color_scheme=scheme
        )
        context.add_init_script(path=str(AXE))
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        try:
            page.goto(f"{live_server}/events/{made['id']}/statistics")
            expect(page.locator("img.chart")).to_have_count(2)
            page.wait_for_function(
                "[...document.querySelectorAll('img.chart')].every((i) => i.complete && i.naturalWidth > 0)"
            )
            assert not serious(page), (size, scheme, serious(page))
            if size == PHONE:
                assert not page.evaluate(TARGETS), page.evaluate(TARGETS)
                assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            page.screenshot(path=str(SHOTS / f"statistics-{size['width']}-{scheme}.png"), full_page=True)
            assert not errors, errors
        finally:
            context.close()

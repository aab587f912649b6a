"""The statistics page in a browser (issue 39): its charts load as images, and the page passes
axe at 390 and 1280 px in both colour schemes, with no sideways scroll on a phone."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.event_day_pages import checked, enter, make_event, sized
from tests.browser.test_rounds import SHOTS, post

pytestmark = pytest.mark.browser


def test_the_statistics_page_reads_well_on_a_phone_and_a_desk_in_both_schemes(browser, live_server):
    made = make_event(live_server)
    for name in ("Ann", "Bob"):
        enter(live_server, made, name)
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
        context, page, errors = sized(browser, size, scheme)
        try:
            page.goto(f"{live_server}/events/{made['id']}/statistics")
            expect(page.locator("img.chart")).to_have_count(3)
            page.wait_for_function(
                "[...document.querySelectorAll('img.chart')].every((i) => i.complete && i.naturalWidth > 0)"
            )
            checked(page, f"statistics, {size['width']} px, {scheme}")
            page.screenshot(path=str(SHOTS / f"statistics-{size['width']}-{scheme}.png"), full_page=True)
            assert not errors, errors
        finally:
            context.close()

"""The public standings page on a phone (issue 39): one compact row per player instead of a
270 px card, and a search that keeps only the players (or armies) typed; axe clean at 390 and
1280 px in both colour schemes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.event_day_pages import checked, enter, make_event, sized
from tests.browser.test_rounds import SHOTS, post

pytestmark = pytest.mark.browser


def test_standings_rows_are_compact_on_a_phone_and_searchable(browser, live_server):
    made = make_event(live_server, name="Big Day")
    for i in range(24):
        enter(live_server, made, f"Player {i:02d}")
    first = post(live_server, f"/api/v1/events/{made['id']}/rounds", {}, made["organiser_token"])
    for t in first["pairings"]:
        a, b = t["players"]
        post(
            live_server,
            f"/api/v1/events/{made['id']}/rounds/1/results",
            {"table": t["table"], "outcome": {a: "win", b: "loss"}, "secondary": {a: 3, b: 1}},
            made["organiser_token"],
        )
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, scheme in ((PHONE, "light"), (PHONE, "dark"), (DESKTOP, "dark"), (DESKTOP, "light")):
        context, page, _ = sized(browser, size, scheme)
        try:
            page.goto(f"{live_server}/events/{made['id']}/standings")
            rows = page.locator("#standings-rows tr")
            expect(rows).to_have_count(24)
            checked(page, f"standings, {size['width']} px, {scheme}")
            if size == PHONE:
                heights = page.evaluate(
                    "[...document.querySelectorAll('#standings-rows tr')].map((r) => r.getBoundingClientRect().height)"
                )
                assert max(heights) < 100, heights  # three short lines; was a 270 px card per player
                tables = page.evaluate(
                    "[...document.querySelectorAll('#current-tables .table-card')].map((c) => c.getBoundingClientRect().height)"
                )
                assert len(tables) == 12 and max(tables) < 60, tables  # one line per table
            page.fill("#standings-search", "player 07")
            expect(page.locator("#standings-rows tr:visible")).to_have_count(1)
            expect(page.locator("#standings-found")).to_have_text("1 of 24 players")
            expect(page.locator("#current-tables .table-card:visible")).to_have_count(1)  # their table too
            page.fill("#standings-search", "cinder")
            expect(page.locator("#standings-rows tr:visible")).to_have_count(24)
            page.fill("#standings-search", "")
            page.screenshot(path=str(SHOTS / f"standings-{size['width']}-{scheme}.png"), full_page=True)
        finally:
            context.close()

"""The opponent's list as unit cards on a player's page (issue 39): the share page's cards under
the table, folded when the list is long and opened with one tap; at 390 px (light) and 1280 px
(dark), axe clean, 44 px targets and no sideways scroll on the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.event_day_pages import checked, enter, make_event, opened
from tests.browser.test_rounds import ARMY, SHOTS, post
from tests.web.test_event_cards import FIVE

pytestmark = pytest.mark.browser

LONG = {**ARMY, "units": [{"key": f"u{i}", "unit": unit} for i, unit in enumerate(FIVE)]}


def test_each_player_reads_the_opponents_list_as_cards(browser, live_server):
    made = make_event(live_server)
    tokens = {"Ann": enter(live_server, made, "Ann"), "Bob": enter(live_server, made, "Bob", LONG)}
    post(live_server, f"/api/v1/events/{made['id']}/rounds", {}, made["organiser_token"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    with opened(browser, PHONE, "light") as page:
        page.goto(f"{live_server}/events/{made['id']}/me#player={tokens['Ann']}")
        folded = page.locator("#me-table details.opponent-cards")
        expect(folded.locator("summary")).to_have_text("Their list as unit cards (5 units)")
        expect(folded).not_to_have_attribute("open", "")  # five cards: folded on a phone
        expect(folded.locator(".list-card").first).to_be_hidden()
        checked(page, "Ann's day, phone, cards folded")
        folded.locator("summary").click()
        expect(folded.locator(".list-card")).to_have_count(5)
        expect(folded.locator(".list-card").last).to_be_visible()
        checked(page, "Ann's day, phone, cards open")
        page.screenshot(path=str(SHOTS / "player-day-cards-phone.png"), full_page=True)
    with opened(browser, DESKTOP, "dark") as page:
        page.goto(f"{live_server}/events/{made['id']}/me#player={tokens['Bob']}")
        shown = page.locator("#me-table details.opponent-cards")
        expect(shown).to_have_attribute("open", "")  # one card: open
        expect(shown.locator(".list-card")).to_have_count(1)
        expect(shown.locator(".list-card")).to_contain_text("Ember Priest")
        checked(page, "Bob's day, desktop, dark, cards")
        page.screenshot(path=str(SHOTS / "player-day-cards-desktop-dark.png"), full_page=True)

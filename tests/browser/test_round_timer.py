"""The round timer (issue 39): the organiser starts it on the round page, and the event page,
a player's page and the standings count down to the same end; it says when time is up."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.event_day_pages import checked, enter, make_event, sized
from tests.browser.test_rounds import post

pytestmark = pytest.mark.browser


def test_the_round_timer_shows_on_every_page_of_the_event(browser, live_server):
    made = make_event(live_server)
    tokens = {name: enter(live_server, made, name) for name in ("Ann", "Bob")}
    post(live_server, f"/api/v1/events/{made['id']}/rounds", {}, made["organiser_token"])
    context, page, errors = sized(browser, PHONE)
    try:
        page.goto(f"{live_server}/events/{made['id']}/day#organiser={made['organiser_token']}")
        expect(page.locator("#timer-form")).to_be_visible()
        page.fill("#timer-minutes", "90")
        page.get_by_role("button", name="Start the timer").click()
        expect(page.locator(".round-timer")).to_have_text(re.compile(r"Round 1: 1:(29:5\d|30:00) left"))
        checked(page, "round page with the timer, phone")
        for path in ("", "/standings", f"/me#player={tokens['Ann']}"):
            page.goto(f"{live_server}/events/{made['id']}{path}")
            expect(page.locator(".round-timer")).to_have_text(re.compile(r"Round 1: 1:(29:[0-5]\d|30:00) left"))
        # the server says the round ended a second ago (its clock, not this device's)
        over = {"round": 1, "ends_at": "2026-01-01T10:00:00+00:00", "now": "2026-01-01T10:00:01+00:00"}
        page.route("**/timer", lambda route: route.fulfill(json=over))
        page.goto(f"{live_server}/events/{made['id']}/standings")
        expect(page.locator(".round-timer")).to_have_text("Round 1: time is up")
        assert not errors, errors
    finally:
        context.close()

"""The event page's submission in words (issue 39, problem 5): the list picker says whether the
chosen list is legal and what it costs before anything is locked; an illegal list is refused
with each problem as the rule words it (not a path into the list) and a link to open the list;
a submission leads to the player's own page, which shows the list and its verification code."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.event_day_pages import checked, make_event, sized
from tests.browser.test_events import remember_list
from tests.browser.test_organiser_day import ILLEGAL
from tests.browser.test_rounds import ARMY

pytestmark = pytest.mark.browser


def test_the_picker_says_legal_and_points_and_a_refusal_is_in_words_with_the_list_to_open(browser, live_server):
    made = make_event(live_server)
    context, page, errors = sized(browser, PHONE)
    try:
        page.goto(f"{live_server}/events/{made['id']}")
        page.base = live_server  # what remember_list reads, as the saved-list tests' page has it
        remember_list(page, {**ILLEGAL, "name": "Too many flamers"})
        remember_list(page, {**ARMY, "name": "Ash Legion"})
        page.reload()
        legal = page.locator("#submit-list option", has_text="Ash Legion").get_attribute("value")
        page.select_option(
            "#submit-list", page.locator("#submit-list option", has_text="Too many flamers").get_attribute("value")
        )
        expect(page.locator("#submit-check")).to_contain_text("Not legal")
        expect(page.locator("#submit-check")).to_contain_text("1 problem")
        expect(page.locator("#submit-check a")).to_have_text("Open the list to fix it")
        page.fill("#submit-player", "Ann")
        page.locator("#submit-form button[type=submit]").click()
        status = page.locator("#submit-status")
        expect(status).to_contain_text("this list is not legal under the event’s rules")
        assert "list.units" not in status.inner_text()  # the rule's words, not a path into the list
        expect(status.locator("a", has_text="Open the list to fix it")).to_have_attribute(
            "href", "/build/gf-cinder-covenant?list=" + page.locator("#submit-list").input_value()
        )
        page.select_option("#submit-list", legal)
        expect(page.locator("#submit-check")).to_contain_text("Legal")
        expect(page.locator("#submit-check")).to_contain_text("pts")
        checked(page, "event page, phone, picker")
        page.locator("#submit-form button[type=submit]").click()
        expect(status).to_contain_text("Verification code")
        status.get_by_role("link", name="My day: check in, your table, your results").click()
        expect(page.locator("#entry-title")).to_have_text("Ann: my list")
        expect(page.locator("#me-entry code")).not_to_be_empty()
        assert not errors, errors
    finally:
        context.close()

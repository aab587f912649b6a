"""A player's own day in a browser (issue 39): each player opens /events/<id>/me from their
link, checks in, enters the result and the opponent confirms it or disputes it, on a phone and
on a desk, in both colour schemes; axe finds nothing serious and every target is 44 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.event_day_pages import checked, enter, make_event, sized
from tests.browser.test_accessibility import AXE
from tests.browser.test_rounds import SHOTS, post

pytestmark = pytest.mark.browser


@pytest.fixture()
def table_of_two(live_server):
    """An event with Ann and Bob (a name with markup, to see it escaped): their player tokens."""
    made = make_event(live_server)
    return made, {name: enter(live_server, made, name) for name in ("Ann", "<b>Bob</b>")}


def player_page(browser, live_server, event, token, size, scheme):
    context, page, errors = sized(browser, size, scheme)
    page.goto(f"{live_server}/events/{event['id']}/me#player={token}")
    expect(page.locator("#me-body")).to_be_visible()
    assert "#player" not in page.url  # the token leaves the address bar
    return context, page, errors


def test_players_check_in_enter_and_confirm_their_result_from_their_own_pages(browser, live_server, table_of_two):
    assert AXE.exists(), "run `make browser`"
    SHOTS.mkdir(parents=True, exist_ok=True)
    event, tokens = table_of_two
    ann, ann_page, ann_errors = player_page(browser, live_server, event, tokens["Ann"], PHONE, "light")
    bob, bob_page, bob_errors = player_page(browser, live_server, event, tokens["<b>Bob</b>"], DESKTOP, "dark")
    try:
        expect(ann_page.locator("#entry-title")).to_have_text("Ann: my list")
        expect(ann_page.locator("#me-entry")).to_contain_text("Legal")
        expect(ann_page.locator("#me-table")).to_contain_text("No round has started yet.")
        ann_page.get_by_role("button", name="Check in").click()
        expect(ann_page.locator("#me-checked")).to_have_text("Checked in.")
        checked(ann_page, "player page, phone, before round 1")
        post(live_server, f"/api/v1/events/{event['id']}/rounds", {}, event["organiser_token"])
        ann_page.reload()
        expect(ann_page.locator("#me-table")).to_contain_text("you v <b>Bob</b>")
        assert ann_page.locator("#me-table b").count() == 0  # markup in a name is text
        ann_page.get_by_label("I won").check()
        ann_page.get_by_label("My secondary score").fill("6")
        ann_page.get_by_label("’s secondary score").fill("2")
        checked(ann_page, "player page, phone, result form")
        ann_page.screenshot(path=str(SHOTS / "player-day-phone.png"), full_page=True)
        ann_page.get_by_role("button", name="Send my result").click()
        expect(ann_page.locator("#me-table")).to_contain_text("Waiting for <b>Bob</b> to confirm.")
        bob_page.reload()
        expect(bob_page.locator("#me-table")).to_contain_text("Ann entered: Ann won (secondary ")
        shown = bob_page.locator("#me-table").inner_text()
        assert "Ann 6" in shown and "<b>Bob</b> 2" in shown
        checked(bob_page, "player page, desktop, dark, confirm")
        bob_page.screenshot(path=str(SHOTS / "player-day-desktop-dark.png"), full_page=True)
        bob_page.get_by_role("button", name="Confirm", exact=True).click()
        expect(bob_page.locator("#me-table")).to_contain_text("Agreed: Ann won")
        expect(bob_page.locator("#me-standing")).to_contain_text("0 points (0 won, 0 drawn, 1 lost)")
        ann_page.reload()
        expect(ann_page.locator("#me-standing")).to_contain_text("Rank 1: 3 points")
        assert not ann_errors and not bob_errors, (ann_errors, bob_errors)
    finally:
        ann.close()
        bob.close()


def test_a_contradicting_entry_shows_both_as_a_dispute_and_the_page_keeps_what_is_typed(
    browser, live_server, table_of_two
):
    event, tokens = table_of_two
    post(live_server, f"/api/v1/events/{event['id']}/rounds", {}, event["organiser_token"])
    results = f"/api/v1/events/{event['id']}/rounds/1/results"
    post(live_server, results, {"table": 1, "outcome": {"Ann": "win", "<b>Bob</b>": "loss"}}, tokens["Ann"])
    bob, page, errors = player_page(browser, live_server, event, tokens["<b>Bob</b>"], PHONE, "dark")
    try:
        page.get_by_text("That is not what happened").click()
        page.get_by_label("I won").check()
        page.get_by_label("My secondary score").fill("4")
        page.get_by_label("’s secondary score").fill("1")
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        page.get_by_role("button", name="Send my result").click()
        expect(page.locator("#me-table .badge")).to_have_text("disputed")
        expect(page.locator("#me-table")).to_contain_text("the organiser decides")
        expect(page.locator("#me-table li")).to_have_count(2)
        checked(page, "player page, phone, dark, disputed")
        page.screenshot(path=str(SHOTS / "player-day-disputed-phone.png"), full_page=True)
        assert not errors, errors
    finally:
        bob.close()


def test_the_pages_refresh_never_wipes_a_result_being_typed(browser, live_server, table_of_two):
    event, tokens = table_of_two
    post(live_server, f"/api/v1/events/{event['id']}/rounds", {}, event["organiser_token"])
    context, page, errors = sized(browser, PHONE)
    try:
        page.clock.install()
        page.goto(f"{live_server}/events/{event['id']}/me#player={tokens['Ann']}")
        expect(page.locator("#me-table form")).to_be_visible()
        page.get_by_label("My secondary score").fill("6")
        results = f"/api/v1/events/{event['id']}/rounds/1/results"
        post(live_server, results, {"table": 1, "outcome": {"Ann": "loss", "<b>Bob</b>": "win"}}, tokens["<b>Bob</b>"])
        page.clock.fast_forward(21000)  # the page asks again every 20 s
        page.wait_for_timeout(500)
        assert page.get_by_label("My secondary score").input_value() == "6"  # kept while typing
        expect(page.locator("#me-table")).not_to_contain_text("entered:")
        page.reload()  # a fresh look shows what changed
        expect(page.locator("#me-table")).to_contain_text("<b>Bob</b> entered: <b>Bob</b> won")
        assert not errors, errors
    finally:
        context.close()

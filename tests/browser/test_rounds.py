"""The tournament day in a browser: the organiser runs rounds from a phone (390 px), the public
standings page follows; axe finds nothing serious and every touch target is 44 px or more."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_accessibility import AXE, TARGETS, serious

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("LISTBUILDER_SCREENSHOTS", "/tmp/listbuilder-shots"))
ARMY = {
    "system": "grimdark-future",
    "book": "gf-cinder-covenant",
    "name": "Ash Legion",
    "points_limit": 1000,
    "units": [{"key": "a", "unit": "cc-ash-wardens"}, {"key": "p", "unit": "cc-ember-priest", "joined_to": "a"}],
}


def post(base, path, body, token=None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture()
def event(live_server):
    """An event with five players (names with markup, to see them escaped)."""
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
    for name in ("Ann", "Bob", "Cid", "Dee", "<i>Eve</i>"):
        saved = post(live_server, "/api/v1/lists", ARMY)
        post(
            live_server,
            f"/api/v1/events/{made['id']}/submissions",
            {"list_id": saved["id"], "player": name},
            saved["edit_token"],
        )
    return made


def sized_page(browser, live_server, size):
    context = browser.new_context(viewport=size, is_mobile=size == PHONE, has_touch=size == PHONE)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def test_the_organiser_runs_two_rounds_from_a_phone_and_the_standings_follow(browser, live_server, event):
    assert AXE.exists(), "run `make browser`"
    SHOTS.mkdir(parents=True, exist_ok=True)
    context, page, errors = sized_page(browser, live_server, PHONE)
    try:
        page.goto(f"{live_server}/events/{event['id']}/day#organiser={event['organiser_token']}")
        expect(page.locator("#day-controls")).to_be_visible()
        assert "#organiser" not in page.url
        page.get_by_role("button", name="Start the next round").click()
        expect(page.locator("#day-confirm-text")).to_have_text("Start round 1: 5 players, 2 tables, 1 bye?")
        page.get_by_role("button", name="Start round 1").click()  # the big step asks first (issue 39)
        cards = page.locator("#day-tables .table-card")
        expect(cards).to_have_count(3)  # five players: two games and a bye
        expect(cards.nth(2)).to_contain_text("bye")
        assert (
            "<i>Eve</i>" in page.locator("#day-tables").inner_text() and page.locator("#day-tables i").count() == 0
        )  # markup in a name is text
        for problem in ("axe", "targets"):
            found = serious(page) if problem == "axe" else page.evaluate(TARGETS)
            assert not found, f"round page, phone, {problem}: {found}"
        page.screenshot(path=str(SHOTS / "round-day-phone.png"), full_page=True)
        for i in range(2):
            card = cards.nth(i)
            card.locator("input").first.fill("7")
            card.locator("input").nth(1).fill("3")  # both or neither: an empty box is never a 0 (issue 39)
            card.get_by_role("button", name="Draw").click() if i else card.locator(".choices button").first.click()
            expect(cards.nth(i).locator(".badge")).to_have_text("decided")
        expect(page.locator("#round-summary")).to_have_text("3 of 3 tables have a result.")
        page.get_by_role("button", name="Start the next round").click()
        page.get_by_role("button", name="Start round 2").click()
        expect(page.locator("#round-title")).to_have_text("Round 2")
        expect(cards).to_have_count(3)
        first, second = (cards.nth(i).locator(".players").inner_text().split(" v ")[0].strip() for i in (0, 1))
        page.select_option("#swap-first", first)
        page.select_option("#swap-second", second)
        page.get_by_role("button", name="Swap", exact=True).click()
        expect(page.locator("#day-status")).to_have_text("Swapped.")
        expect(cards.nth(0).locator(".players")).to_contain_text(second)
        page.select_option("#withdraw-player", "Ann")
        page.get_by_role("button", name="Withdraw from later rounds").click()
        page.get_by_role("button", name="Withdraw Ann").click()  # asked first (issue 39)
        expect(page.locator("#reinstate-form")).to_be_visible()
        assert not serious(page), serious(page)
        assert not page.evaluate(TARGETS), page.evaluate(TARGETS)
        page.select_option("#reinstate-player", "Ann")  # no select defaults to a player (issue 39)
        page.get_by_role("button", name="Reinstate").click()
        expect(page.locator("#reinstate-form")).to_be_hidden()
        page.goto(f"{live_server}/events/{event['id']}/standings")
        rows = page.locator("#standings-rows tr")
        expect(rows).to_have_count(5)
        assert not serious(page), serious(page)
        assert not page.evaluate(TARGETS), page.evaluate(TARGETS)
        page.screenshot(path=str(SHOTS / "standings-phone.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
    context, page, errors = sized_page(browser, live_server, DESKTOP)
    try:
        page.goto(f"{live_server}/events/{event['id']}/standings")
        expect(page.locator("#current-tables .table-card")).to_have_count(3)
        assert not serious(page), serious(page)
        page.screenshot(path=str(SHOTS / "standings-desktop.png"), full_page=True)
        page.goto(f"{live_server}/events/{event['id']}/day")  # this browser has no token: the form asks
        expect(page.locator("#day-token-form")).to_be_visible()
        page.fill("#day-token", "wrong")
        page.locator("#day-token-form button").click()
        expect(page.locator("#day-status")).to_contain_text("organiser")
        assert not serious(page), serious(page)
        assert not errors, errors
    finally:
        context.close()

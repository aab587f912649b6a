"""The organiser's round page in a browser (issue 39): check-in and the no-shows, a round
started after a confirmation with its numbers and undone, a dispute's two entries side by side
decided with one tap while scores typed into the next table stay, a withdrawal that names
nobody until chosen and asks first, a penalty with its reason, and the refused submissions; at
390 px (light) and 1280 px (dark), axe clean, 44 px targets on the phone."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.event_day_pages import checked, enter, make_event, sized
from tests.browser.test_rounds import ARMY, SHOTS, post

pytestmark = pytest.mark.browser

ILLEGAL = {
    **ARMY,
    "units": [
        {
            "key": "a",
            "unit": "cc-ash-wardens",
            "upgrades": [{"section": "cc-rifle-specials", "option": "flamer", "count": 3}],
        }
    ],
}


@pytest.fixture()
def event(live_server):
    """Five players (Eve will not come) and one list refused as illegal (a name with markup)."""
    made = make_event(live_server)
    tokens = {name: enter(live_server, made, name) for name in ("Ann", "Bob", "Cid", "Dee", "Eve")}
    with pytest.raises(urllib.error.HTTPError) as refused:
        enter(live_server, made, "<i>Zed</i>", ILLEGAL)
    assert refused.value.code == 422
    refused.value.close()
    return made, tokens


def get(base, path, token):
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_the_organiser_runs_the_room_from_a_phone(browser, live_server, event):
    made, tokens = event
    SHOTS.mkdir(parents=True, exist_ok=True)
    context, page, errors = sized(browser, PHONE, "light")
    try:
        page.goto(f"{live_server}/events/{made['id']}/day#organiser={made['organiser_token']}")
        expect(page.locator("#day-controls")).to_be_visible()
        expect(page.locator("#checkin-summary")).to_have_text("0 of 5 players checked in.")
        for name in ("Ann", "Bob", "Cid"):
            page.get_by_role("button", name=f"Check in {name}").click()
            expect(page.locator("#day-status")).to_have_text(f"{name} is checked in.")
        post(
            live_server, f"/api/v1/events/{made['id']}/checkins", {"player": "Dee"}, tokens["Dee"]
        )  # from her own page
        expect(page.locator("#refusals")).to_contain_text("<i>Zed</i>")  # refused, and listed as text
        assert page.locator("#refusals i").count() == 0
        page.reload()
        page.get_by_role("button", name="Withdraw the 1 player not checked in…").click()
        expect(page.locator("#day-confirm-text")).to_contain_text("Withdraw Eve?")
        page.get_by_role("button", name="Withdraw 1 player").click()
        expect(page.locator("#round-summary")).to_have_text("4 players still in.")
        assert page.locator("#withdraw-player").input_value() == ""  # never defaults to someone
        checked(page, "organiser, phone, before round 1")
        page.get_by_role("button", name="Start the next round").click()
        expect(page.locator("#day-confirm-text")).to_have_text("Start round 1: 4 players, 2 tables, 0 byes?")
        page.get_by_role("button", name="Cancel").click()
        expect(page.locator("#day-tables .table-card")).to_have_count(0)  # nothing happened
        page.get_by_role("button", name="Start the next round").click()
        page.get_by_role("button", name="Start round 1").click()
        cards = page.locator("#day-tables .table-card")
        expect(cards).to_have_count(2)
        expect(page.get_by_role("button", name="Start the next round")).to_be_hidden()  # not during a round
        page.locator("#undo-round").click()
        expect(page.locator("#day-confirm-yes")).to_have_text("Undo round 1")
        page.locator("#day-confirm-yes").click()
        expect(page.locator("#round-title")).to_have_text("No round yet")
        page.get_by_role("button", name="Start the next round").click()
        page.get_by_role("button", name="Start round 1").click()
        expect(cards).to_have_count(2)
        first = get(live_server, f"/api/v1/events/{made['id']}/rounds/1", made["organiser_token"])["pairings"]
        a, b = first[0]["players"]
        c, d = first[1]["players"]
        results = f"/api/v1/events/{made['id']}/rounds/1/results"
        post(live_server, results, {"table": 1, "outcome": {a: "win", b: "loss"}}, tokens[a])
        post(live_server, results, {"table": 1, "outcome": {a: "loss", b: "win"}}, tokens[b])
        page.reload()
        expect(cards.nth(0).locator(".badge")).to_have_text("disputed")
        expect(cards.nth(0).locator(".entry")).to_have_count(2)
        cards.nth(1).locator("input").nth(0).fill("5")  # typing at table 2 while table 1 is decided
        cards.nth(1).locator("input").nth(1).fill("2")
        checked(page, "organiser, phone, a dispute")
        page.screenshot(path=str(SHOTS / "organiser-day-phone.png"), full_page=True)
        cards.nth(0).get_by_role("button", name=f"Count {b}’s").click()
        expect(cards.nth(0).locator(".badge")).to_have_text("decided")
        assert cards.nth(1).locator("input").nth(0).input_value() == "5"  # still there
        assert cards.nth(1).locator("input").nth(1).input_value() == "2"
        cards.nth(1).get_by_role("button", name=f"{c} won").click()
        expect(cards.nth(1).locator(".badge")).to_have_text("decided")
        expect(page.locator("#undo-round")).to_be_hidden()  # it has results
        page.get_by_role("button", name="Check in Eve: a loss per missed round").click()  # late, after round 1
        expect(page.locator("#day-status")).to_have_text("Eve is back; each missed round is a loss.")
        eve = get(live_server, f"/api/v1/events/{made['id']}/standings", made["organiser_token"])["standings"]
        assert next(r for r in eve if r["player"] == "Eve")["losses"] == 1
        page.select_option("#adjust-player", "Bob")
        page.fill("#adjust-points", "-1")
        page.fill("#adjust-reason", "late to the table")
        page.get_by_role("button", name="Record it").click()
        expect(page.locator("#adjustments")).to_contain_text("Bob: -1 (late to the table; after round 1)")
        rows = {
            r["player"]: r
            for r in get(live_server, f"/api/v1/events/{made['id']}/standings", made["organiser_token"])["standings"]
        }
        assert rows["Bob"]["adjustment"] == -1 and rows[c]["score"] == 3 + (-1 if c == "Bob" else 0)
        page.select_option("#withdraw-player", "Cid")
        page.get_by_role("button", name="Withdraw from later rounds").click()
        expect(page.locator("#day-confirm-text")).to_contain_text("Withdraw Cid")
        page.get_by_role("button", name="Cancel").click()
        assert not any(r["withdrawn"] for p, r in rows.items() if p == "Cid")
        assert not errors, errors
    finally:
        context.close()
    context, page, errors = sized(browser, DESKTOP, "dark")
    try:
        page.goto(f"{live_server}/events/{made['id']}/day#organiser={made['organiser_token']}")
        expect(page.locator("#day-tables .table-card")).to_have_count(2)
        checked(page, "organiser, desktop, dark")
        page.screenshot(path=str(SHOTS / "organiser-day-desktop-dark.png"), full_page=True)
        page.get_by_role("button", name="Hand over to another device").click()
        code = page.locator("#handover-code strong").inner_text()
        assert len(code) == 9 and code[4] == "-"
        assert not errors, errors
    finally:
        context.close()
    context, page, errors = sized(browser, PHONE, "dark")  # the second device: no token, only the code
    try:
        page.goto(f"{live_server}/events/{made['id']}/day")
        expect(page.locator("#day-code-form")).to_be_visible()
        page.fill("#day-code", code.lower())
        page.get_by_role("button", name="Use the code").click()
        expect(page.locator("#day-tables .table-card")).to_have_count(2)  # organiser now
        checked(page, "organiser's second device, phone, dark")
        assert not errors, errors
    finally:
        context.close()

"""armour-hex from a player's own page (issue 39, problem 8): the result is ticked from the two
locked lists (each enemy unit and each own unit untouched, crippled or destroyed), never typed
as unit keys from memory; the opponent reads it back with the units' names and confirms; the
score is the rulebook's, from the locked lists (the worked example of docs/events.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.event_day_pages import checked, enter, sized
from tests.browser.test_rounds import post

pytestmark = pytest.mark.browser

GOLDEN_HEX = Path(__file__).resolve().parents[1] / "golden" / "armour-hex" / "legal-standard-hammerdeep.json"


def test_a_hex_result_is_ticked_from_the_locked_lists_and_confirmed(browser, live_server):
    army = json.loads(GOLDEN_HEX.read_text())["list"]
    made = post(
        live_server,
        "/api/v1/events",
        {
            "name": "Hex Night",
            "system": "armour-hex",
            "books": [{"book": army["book"]}],
            "deadline": "2099-01-01T18:00:00Z",
        },
    )
    tokens = {name: enter(live_server, made, name, army) for name in ("Ann", "Bob")}
    post(live_server, f"/api/v1/events/{made['id']}/rounds", {}, made["organiser_token"])
    context, page, errors = sized(browser, PHONE)
    try:
        page.goto(f"{live_server}/events/{made['id']}/me#player={tokens['Ann']}")
        form = page.locator("#me-table form")
        expect(form.locator("fieldset")).to_have_count(2)
        assert form.locator("input[type=text], input:not([type])").count() == 0  # nothing typed from memory
        form.locator('select[data-side="Ann"][data-key="fortress"]').select_option("destroyed")  # Bob's fortress
        form.locator('select[data-side="Ann"][data-key="guard"]').select_option("crippled")
        form.locator('select[data-side="Bob"][data-key="gyro"]').select_option("destroyed")  # Ann's own gyro
        checked(page, "player page, armour-hex, phone")
        page.get_by_role("button", name="Send my result").click()
        expect(page.locator("#me-table")).to_contain_text("Waiting for Bob to confirm.")
        page.goto(f"{live_server}/events/{made['id']}/me#player={tokens['Bob']}")
        page.reload()
        expect(page.locator("#me-table")).to_contain_text("Ann destroyed Mountain Fortress; crippled")
        page.get_by_role("button", name="Confirm", exact=True).click()
        expect(page.locator("#me-table")).to_contain_text("Agreed")
        scores = page.request.get(f"{live_server}/api/v1/events/{made['id']}/rounds/1").json()["pairings"][0]["scores"]
        assert scores["Ann"] == {"points": round(math.sqrt(199), 3), "secondary": 199, "outcome": "win"}
        assert scores["Bob"]["secondary"] == 87
        assert not errors, errors
    finally:
        context.close()

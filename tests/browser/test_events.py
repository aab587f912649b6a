"""End-to-end: an organiser creates an event, two players submit (one list illegal), the
organiser reads the report and downloads the CSV and the roster pack; all under the CSP."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_csp import watched  # noqa: F401 - the fixture that fails on any CSP violation

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("LISTBUILDER_SCREENSHOTS", "/tmp/listbuilder-shots"))
LEGAL = {
    "system": "grimdark-future",
    "book": "gf-cinder-covenant",
    "name": "Ash Legion",
    "points_limit": 1000,
    "units": [{"key": "a", "unit": "cc-ash-wardens"}, {"key": "p", "unit": "cc-ember-priest", "joined_to": "a"}],
}
ILLEGAL = {
    "system": "grimdark-future",
    "book": "gf-cinder-covenant",
    "name": "Flamer Storm",
    "points_limit": 1000,
    "units": [
        {
            "key": "a",
            "unit": "cc-ash-wardens",
            "upgrades": [{"section": "cc-rifle-specials", "option": "flamer", "count": 3}],
        }
    ],
}


def create_event(page: Page) -> str:
    page.goto(f"{page.base}/events/new")
    page.fill("#event-name", "Ember Cup <b>2026</b>")
    page.select_option("#event-system", "grimdark-future")
    expect(page.locator("#event-books input")).to_have_count(2)
    page.fill("#event-points", "1000")
    page.check("#event-allow-illegal")
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"event-new-{page.viewport_size['width']}.png"), full_page=True)
    page.locator("#event-form button[type=submit]").click()
    link = page.locator("#open-event")
    expect(link).to_be_visible()
    url = link.get_attribute("href")
    assert re.fullmatch(rf"{re.escape(page.base)}/events/[A-Za-z0-9_-]{{16}}#organiser=[A-Za-z0-9_-]{{43}}", url), url
    link.click()
    expect(page.get_by_role("heading", name="Ember Cup <b>2026</b>")).to_be_visible()  # escaped, shown as typed
    expect(page).not_to_have_url(re.compile("#organiser"))  # the token left the address bar
    return page.url


def remember_list(page: Page, army: dict) -> None:
    """Save a list through the API and let this browser remember it, as the builder's Save does."""
    made = page.request.post(
        f"{page.base}/api/v1/lists", data=json.dumps(army), headers={"Content-Type": "application/json"}
    ).json()
    page.evaluate(
        """([id, token, army]) => {
            const all = JSON.parse(localStorage.getItem("listbuilder.saved") || "{}");
            all[id] = {id, token, book: army.book, system: army.system, name: army.name, version: 1, savedAt: Date.now()};
            localStorage.setItem("listbuilder.saved", JSON.stringify(all));
        }""",
        [made["id"], made["edit_token"], army],
    )


def submit(page: Page, event_url: str, list_name: str, player: str) -> None:
    page.goto(event_url)
    page.select_option("#submit-list", page.locator("#submit-list option", has_text=list_name).get_attribute("value"))
    page.fill("#submit-player", player)
    page.locator("#submit-form button[type=submit]").click()


def test_an_event_from_creation_to_the_roster_pack(watched: Page, browser):
    page = watched
    SHOTS.mkdir(parents=True, exist_ok=True)
    event_url = create_event(page)
    expect(page.locator("#entries tr")).to_have_count(0)
    remember_list(page, LEGAL)  # two lists this browser saved (as the builder's Save does)
    remember_list(page, ILLEGAL)

    submit(page, event_url, "Ash Legion", "Ann")
    expect(page.locator("#submit-status")).to_contain_text("Submitted as Ann")
    expect(page.locator("#submit-status .badge")).to_have_text("Legal")
    submit(page, event_url, "Flamer Storm", "Bo")
    expect(page.locator("#submit-status")).to_contain_text("Not legal: flagged for the organiser")

    page.goto(event_url)  # the organiser token is remembered by this browser
    rows = page.locator("#entries tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Ann")
    expect(rows.nth(0).locator(".badge")).to_have_text("Legal")
    expect(rows.nth(1)).to_contain_text("Bo")
    expect(rows.nth(1).locator(".badge")).to_have_text("Illegal")
    expect(rows.nth(1)).to_contain_text("allows 2 models, asked for 3")
    expect(rows.nth(0).locator("code")).to_have_text(re.compile(r"^[0-9A-Z]{4}-[0-9A-Z]{4}$"))
    page.locator("#revalidate").click()
    expect(page.locator("#report-summary")).to_contain_text("re-validated just now")
    page.screenshot(path=str(SHOTS / "event-desktop.png"), full_page=True)

    with page.expect_download(timeout=60000) as download:
        page.locator("#download-csv").click()
    assert re.fullmatch(
        r"Ember Cup .b.2026.+ lists\.csv", download.value.suggested_filename
    )  # the browser tames < and >
    rows_csv = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
    assert [(r["player"], r["valid"]) for r in rows_csv] == [("Ann", "yes"), ("Bo", "no")]

    with page.expect_download(timeout=60000) as download:
        page.locator("#download-pack").click()
    pack = Path(download.value.path()).read_bytes()
    assert pack.startswith(b"%PDF") and download.value.suggested_filename.endswith("rosters.pdf")
    (SHOTS / "event-pack.pdf").write_bytes(pack)

    phone = browser.new_context(viewport=PHONE)
    try:
        other = phone.new_page()
        other.goto(f"{page.base}/events/new")
        other.select_option("#event-system", "armour-hex")
        expect(other.locator("#mode-field")).to_be_visible()  # hex armour: a game mode, not a points limit
        expect(other.locator("#points-field")).to_be_hidden()
        other.screenshot(path=str(SHOTS / "event-new-phone.png"), full_page=True)
        organiser_url = event_url  # a fresh device: the token typed in the form
        other.goto(organiser_url)
        token = page.evaluate("Object.values(JSON.parse(localStorage.getItem('listbuilder.events')))[0].organiser")
        other.fill("#organiser-token", token)
        other.locator("#organiser-form button[type=submit]").click()
        expect(other.locator("#entries tr")).to_have_count(2)
        other.screenshot(path=str(SHOTS / "event-phone.png"), full_page=True)
    finally:
        phone.close()


def test_a_wrong_organiser_token_says_so(watched: Page):
    page = watched
    event_url = create_event(page)
    page.evaluate("localStorage.removeItem('listbuilder.events')")
    page.goto(event_url)
    page.fill("#organiser-token", "not-the-token")
    page.locator("#organiser-form button[type=submit]").click()
    expect(page.locator("#organiser-status")).to_contain_text("not the organiser token")
    expect(page.locator("#report")).to_be_hidden()

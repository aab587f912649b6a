"""Points efficiency in the unit editor (issue 15): each option against a target, per 100 points."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("LISTBUILDER_SCREENSHOTS", "/tmp/listbuilder-screenshots"))


def open_efficiency(page: Page, base: str, book: str = "The Ember Marches", target: str = "Levy Spearmen") -> None:
    page.goto(f"{base}/build/aof-ember-marches")
    expect(page.locator("#validity")).to_be_visible()
    page.get_by_role("button", name="Add March Swordsmen", exact=True).click()
    page.locator("#toast-edit").click()  # nothing to choose: added at once, and Edit opens it
    expect(page.locator("#editor-title")).to_contain_text("March Swordsmen")
    page.locator("#ed-efficiency summary").click()
    page.select_option("#eff-book", label=book)
    page.select_option("#eff-target", label=target)
    page.locator("#eff-run").click()
    expect(page.locator(".efficiency-table tbody tr").first).to_be_visible()


def compare_first_option(page: Page, defender: dict) -> dict:
    """The API's answer for the unit as it comes (the panel's first row), against defender."""
    return page.evaluate(
        """async (defender) => (await (await fetch('/api/v1/previews/compare', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({system: 'age-of-fantasy', attacker: {book: 'aof-ember-marches', unit: 'march-swordsmen'},
          options: [{upgrades: []}, {upgrades: [{section: 'em-command', option: 'sergeant'}]}],
          defender, situation: {attack: 'melee', charging: true}})})).json())""",
        defender,
    )["options"][0]


def test_editor_shows_points_efficiency_of_each_option(page: Page):
    open_efficiency(page, page.base)
    rows = page.locator(".efficiency-table tbody tr")
    count = rows.count()
    assert 2 <= count <= 8
    expect(rows.first.locator("th")).to_contain_text("As chosen")
    expect(page.locator(".efficiency-table tr.best .tag")).to_have_text("best")
    # The figures are the API's: the first row is the unit with no upgrades (70 points).
    first = compare_first_option(page, {"book": "aof-ember-marches", "unit": "levy-spears"})
    expect(rows.first.locator("td").nth(0)).to_have_text(str(first["points"]))
    expect(rows.first.locator("td").nth(3)).to_have_text(f"{first['wounds_per_100_points']:.2f}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#editor").screenshot(path=str(SHOTS / "efficiency-desktop.png"))


def test_efficiency_target_from_another_book_of_the_system(page: Page):
    """The target may be any unit of any listed book of the same system, picked as the combat
    preview's defender is; the choice survives the editor's re-render after an edit."""
    open_efficiency(page, page.base, book="The Sunken Hollows", target="Mire Warriors")
    books = page.locator("#eff-book option").all_inner_texts()
    assert "The Ember Marches" in books and "The Sunken Hollows" in books
    expect(page.locator(".efficiency-table caption")).to_contain_text("Mire Warriors")
    first = compare_first_option(page, {"book": "aof-sunken-hollows", "unit": "mire-warriors"})
    rows = page.locator(".efficiency-table tbody tr")
    expect(rows.first.locator("td").nth(1)).to_have_text(f"{first['expected_wounds']:.2f}")
    expect(rows.first.locator("td").nth(3)).to_have_text(f"{first['wounds_per_100_points']:.2f}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#ed-efficiency").screenshot(path=str(SHOTS / "efficiency-other-book-desktop.png"))
    # An edit rebuilds the editor: the panel keeps the chosen book and target.
    page.locator("#editor").get_by_role("checkbox", name=re.compile("^Sergeant")).check()
    expect(page.locator("#editor")).to_contain_text("75 pts")
    page.locator("#ed-efficiency summary").click()
    expect(page.locator("#eff-target")).to_have_value("mire-warriors")
    expect(page.locator("#eff-book")).to_have_value("aof-sunken-hollows")


def test_efficiency_explains_a_refusal_in_words(page: Page):
    page.goto(f"{page.base}/build/aof-ember-marches")
    expect(page.locator("#validity")).to_be_visible()
    page.get_by_role("button", name="Add March Swordsmen", exact=True).click()
    page.locator("#toast-edit").click()
    page.locator("#ed-efficiency summary").click()
    page.select_option("#eff-attack", label="Shooting")
    page.locator("#eff-run").click()
    expect(page.locator(".efficiency-out .notice.error")).to_contain_text(re.compile("no ranged weapon"))


def test_efficiency_at_phone_width(browser, live_server):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_efficiency(page, live_server, book="The Sunken Hollows", target="Mire Warriors")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the builder is {width}px wide at phone width"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#ed-efficiency").screenshot(path=str(SHOTS / "efficiency-phone.png"))
    finally:
        context.close()

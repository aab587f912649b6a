"""The /import page in Chromium, under its CSP: an Army Forge book (our own fixture) picked as a
file or pasted, its warnings shown, then the builder opened with the new book; a list given
that book opens in the builder as the draft. Desktop and phone widths."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_csp import watched  # noqa: F401  (the fixture: no CSP violation allowed)

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"
BOOK = FIXTURES / "gf-rustbound-book.json"
LIST = FIXTURES / "gf-rustbound-list.json"
# Set LISTBUILDER_SCREENSHOTS to a folder to keep screenshots of each step for a person to look at.
SHOTS = os.environ.get("LISTBUILDER_SCREENSHOTS")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def import_book_from_file(page: Page) -> str:
    page.goto(page.base + "/import")
    page.set_input_files("#book-file", str(BOOK))
    page.click("#book-submit")
    result = page.locator("#book-result")
    expect(result).to_contain_text("Rustbound Salvagers", timeout=20000)  # a loaded machine converts slowly
    return page.locator("#imported-id").inner_text()


def test_book_file_then_list_file_opens_the_builder_with_the_list(watched: Page):
    page = watched
    page.goto(page.base + "/")
    page.get_by_role("link", name="Import", exact=True).click()
    expect(page.get_by_role("heading", name="Import from Army Forge")).to_be_visible()
    book_id = import_book_from_file(page)
    assert book_id.startswith("af-")
    result = page.locator("#book-result")
    expect(result).to_contain_text("4 units imported")
    expect(result.locator(".import-warnings")).to_contain_text("Limited")  # in a player's words (issue 37)
    shot(page, "import-book-desktop")
    # The list form now offers the book just imported.
    expect(page.locator("#list-book")).to_have_value(book_id)
    page.set_input_files("#list-file", str(LIST))
    page.click("#list-submit")
    page.wait_for_url(f"**/build/{book_id}")
    for name in ("Scrap Boss", "Salvagers", "Junk Walker", "Scrap Riders"):  # the builder may group entries
        expect(page.locator("#entries")).to_contain_text(name)
    expect(page.locator('#totals .chip[data-total="units"]')).to_have_text("5 units")
    activations = page.locator('#totals .chip[data-total="activations"] strong')
    expect(activations).to_have_text(re.compile(r"^\d+$"))
    expect(page.locator("#entries > li")).to_have_count(int(activations.inner_text()))  # one row per activation
    expect(page.locator("#totals")).to_contain_text("600")
    expect(page.locator("#list-name")).to_have_value("Scrapyard Patrol")
    shot(page, "import-list-builder-desktop")


def test_pasted_book_at_phone_width_then_the_builder(watched: Page):
    page = watched
    page.set_viewport_size(PHONE)
    page.goto(page.base + "/import")
    page.fill("#book-text", BOOK.read_text())
    page.click("#book-submit")
    expect(page.locator("#book-result")).to_contain_text("Limited", timeout=20000)
    shot(page, "import-book-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways at phone width ({width}px)"
    page.click("#open-builder")
    expect(page.get_by_role("heading", name="Rustbound Salvagers")).to_be_visible()
    expect(page.get_by_role("button", name="Add Junk Walker", exact=True)).to_be_visible()


def test_bad_files_say_what_is_wrong(watched: Page):
    page = watched
    page.goto(page.base + "/import")
    page.fill("#book-text", "{not json")
    page.click("#book-submit")
    expect(page.locator("#book-result .notice.error")).to_contain_text("not JSON")
    page.fill("#book-text", LIST.read_text())  # a list where a book belongs: the server names it
    page.click("#book-submit")
    expect(page.locator("#book-result .notice.error")).to_contain_text("import the book first")
    firefight = json.loads(BOOK.read_text()) | {"gameSystemSlug": "grimdark-future-firefight"}
    page.fill("#book-text", json.dumps(firefight))
    page.click("#book-submit")
    expect(page.locator("#book-result .notice.error")).to_contain_text("gameSystemSlug")
    page.set_input_files("#list-file", str(LIST))
    page.click("#list-submit")
    expect(page.locator("#list-result .notice.error")).to_contain_text("Choose the imported book")
    shot(page, "import-errors-desktop")

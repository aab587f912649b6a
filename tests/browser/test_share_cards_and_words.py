"""Issue 37 part B in Chromium: the share page's unit cards at phone and desk width in both
colour schemes (and printed), book tables that never break a word, the rules-edition links as
full touch targets, and the import page in a player's words."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import AXE, serious, sized  # noqa: F401  (sized: desk and phone, light and dark, axe loaded)
from tests.web.test_list_page_cards import ARMY

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"
BOOK_FILE = FIXTURES / "gf-rustbound-book.json"
LIST_FILE = FIXTURES / "gf-rustbound-list.json"

# Every word of every cell of the page's tables that the browser laid out on more than one line.
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const cell of document.querySelectorAll(selector)) {
    if (cell.getClientRects().length === 0) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(`${m[0]} (${cell.closest('article')?.id || ''})`);
      }
    }
  }
  return broken;
}"""


@pytest.fixture(scope="module")
def shared(live_server) -> str:
    request = urllib.request.Request(
        f"{live_server}/api/v1/lists", data=json.dumps(ARMY).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["id"]


def test_the_share_page_shows_a_readable_card_per_unit(sized: Page, shared):
    page = sized
    width = page.viewport_size["width"]
    page.goto(f"{page.base}/l/{shared}")
    cards = page.locator("article.list-card")
    expect(cards).to_have_count(3)
    expect(cards.nth(0)).to_contain_text("Ash Wardens")
    expect(cards.nth(0)).to_contain_text("+ joined: Ember Priest")
    expect(cards.nth(1)).to_contain_text("2a–2b")
    expect(cards.nth(1).locator("table.weapons")).to_contain_text("Power Sabre")
    expect(cards.nth(1)).to_contain_text("Veteran Leader (10 pts)")
    expect(page.locator("#card-rules-title")).to_be_visible()
    scrolled = page.evaluate("document.documentElement.scrollWidth")
    assert scrolled <= width, f"the page scrolls sideways ({scrolled}px at {width}px)"
    for box in (cards.nth(i).bounding_box() for i in range(3)):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate(BROKEN_WORDS, "article.list-card th, article.list-card td") == []
    assert serious(page) == []


def test_the_share_page_prints_its_cards_without_the_site_around_them(page: Page, shared):
    page.goto(f"{page.base}/l/{shared}")
    page.emulate_media(media="print")
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.locator("section[aria-labelledby=print-title]")).to_be_hidden()
    expect(page.locator("article.list-card")).to_have_count(3)
    expect(page.locator("article.list-card").first).to_be_visible()
    assert page.locator("article.list-card").first.evaluate("el => getComputedStyle(el).breakInside") == "avoid"
    assert len(page.pdf(format="A4")) > 10_000


@pytest.mark.parametrize("book", ["aof-ember-marches", "ah-hammerdeep-holds", "gf-spore-choir"])
def test_book_tables_never_break_inside_a_word_on_a_phone(browser, live_server, book):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/books/{book}")
        expect(page.locator("table.weapons").first).to_be_visible()
        broken = page.evaluate(BROKEN_WORDS, "table.weapons th, table.weapons td")
        assert broken == [], f"words split across lines: {broken[:12]}"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the book page scrolls sideways ({width}px)"
        # nor does any table inside its box (a box that scrolls must take the keyboard's focus)
        scrolled = page.evaluate(
            "[...document.querySelectorAll('.weapons-box')].filter((b) => b.scrollWidth > b.clientWidth).length"
        )
        assert scrolled == 0, f"{scrolled} tables scroll sideways on a phone"
    finally:
        context.close()


def test_the_rules_edition_links_are_full_touch_targets_and_lead_to_the_note(browser, live_server):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        links = page.locator(".cards .edition-link")
        assert links.count() >= 5
        for i in range(links.count()):
            box = links.nth(i).bounding_box()
            assert box is not None and box["height"] >= 44, box
        page.goto(f"{live_server}/build/aof-ember-marches")
        link = page.locator("#rules-edition-link")
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44 and box["height"] < 100, box
        link.click()
        expect(page.get_by_role("heading", name="Rules edition: Age of Fantasy 2.16")).to_be_visible()
        expect(page.locator(".edition-changes")).to_contain_text("Add pair")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


def test_the_import_page_says_where_a_book_comes_from_and_warns_in_a_players_words(page: Page):
    page.goto(page.base + "/import")
    expect(page.locator("#where-from")).to_contain_text("army-forge.onepagerules.com/api/army-books/")
    page.set_input_files("#book-file", str(BOOK_FILE))
    page.click("#book-submit")
    result = page.locator("#book-result")
    expect(result).to_contain_text("Rustbound Salvagers", timeout=20000)
    said = page.locator("#unexplained-rules")
    expect(said).to_contain_text("Limited")
    expect(said).to_contain_text("You can still take the units")
    for word in ("glossary", "'Limited'", "upgradePackages", "["):
        assert word not in said.inner_text()
    details = page.locator("#import-details")
    assert details.evaluate("el => el.open") is False  # the importer's own words wait under Details
    expect(details.locator("li").first).to_be_hidden()
    details.locator("summary").click()
    expect(details).to_contain_text("glossary")


def test_a_list_import_that_left_something_out_says_so_in_a_players_words(page: Page):
    page.goto(page.base + "/import")
    page.set_input_files("#book-file", str(BOOK_FILE))
    page.click("#book-submit")
    expect(page.locator("#imported-id")).to_be_visible(timeout=20000)
    army = json.loads(LIST_FILE.read_text())
    army["list"]["units"][0]["xp"] = 3  # campaign experience: not part of a list here
    page.fill("#list-text", json.dumps(army))
    page.click("#list-submit")
    said = page.locator("#list-left-out")
    expect(said).to_contain_text("One part of the list could not be carried over")
    assert "units[" not in said.inner_text() and "campaign" not in said.inner_text()
    details = page.locator("#list-import-details")
    assert details.evaluate("el => el.open") is False
    details.locator("summary").click()
    expect(details).to_contain_text("campaign experience")
    expect(page.locator("#open-list")).to_be_visible()


def test_a_hex_list_whose_tables_outgrow_a_phone_card_scrolls_them_by_keyboard_too(browser, live_server):
    from tests.printing.test_print_layout import three_hold_guards

    request = urllib.request.Request(
        f"{live_server}/api/v1/lists",
        data=json.dumps(three_hold_guards()).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        list_id = json.loads(response.read())["id"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(path=str(AXE))
    try:
        page = context.new_page()
        page.goto(f"{live_server}/l/{list_id}")
        expect(page.locator("article.list-card")).to_have_count(7)
        expect(page.locator("#unit-6")).to_contain_text("6a–6c")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        boxes = page.locator(".table-box")
        assert page.evaluate("[...document.querySelectorAll('.table-box')].some((b) => b.scrollWidth > b.clientWidth)")
        assert boxes.first.get_attribute("tabindex") == "0" and boxes.first.get_attribute("role") == "region"
        assert serious(page) == []
    finally:
        context.close()


def test_the_rules_edition_import_and_book_pages_read_at_both_widths_in_both_schemes(sized: Page):
    page = sized
    width = page.viewport_size["width"]
    for path, shown in (
        ("/systems/age-of-fantasy/rules-edition", ".edition-changes"),
        ("/import", "#where-from ol"),
        ("/books/ah-hammerdeep-holds", "#unit-anvil-tank table.panel"),
    ):
        page.goto(page.base + path)
        expect(page.locator(shown).first).to_be_visible()
        scrolled = page.evaluate("document.documentElement.scrollWidth")
        assert scrolled <= width, f"{path} scrolls sideways ({scrolled}px at {width}px)"
        assert serious(page) == [], path

"""End-to-end: the small things a player trips on (issue 24): words, counts, defaults, layout."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_builder import add, entries, open_builder

pytestmark = pytest.mark.browser

BOOK = "gf-cinder-covenant"


def test_a_joined_hero_editor_and_the_preview_never_print_null(page: Page):
    open_builder(page, BOOK)
    add(page, "Ash Wardens")
    page.keyboard.press("Escape")
    add(page, "Ember Priest")
    expect(page.locator("#ed-join")).to_be_visible()
    assert "null" not in page.locator("#editor").inner_text()
    page.keyboard.press("Escape")
    expect(entries(page)).to_have_count(2)
    page.select_option("#pv-book", label="Verdant Spore Choir")
    page.select_option("#pv-defender", index=0)
    page.click("#pv-run")
    expect(page.locator("#pv-destroyed")).to_be_visible()
    assert "null" not in page.locator("#preview-result").inner_text()


def test_the_preview_names_a_joined_hero_and_writes_english(page: Page):
    open_builder(page, BOOK)
    add(page, "Ash Wardens")
    page.keyboard.press("Escape")
    add(page, "Ember Priest")
    page.select_option("#ed-join", index=1)
    page.keyboard.press("Escape")
    page.select_option("#pv-attacker", index=0)
    page.select_option("#pv-book", label="Verdant Spore Choir")
    page.select_option("#pv-defender", index=0)
    page.click("#pv-run")
    expect(page.locator("#pv-matchup")).to_have_text(
        re.compile(r"^Ash Wardens \(10 models\) with Ember Priest \(hero\) attack .+ \(1 model\)$")
    )
    expect(page.locator("#preview-result table.expected caption")).to_have_text(
        "Expected results of Ash Wardens’ attack (averages)"
    )


@pytest.mark.parametrize(
    ("book", "unit", "words"),
    [
        ("gf-cinder-covenant", "High Cantor", "the free"),
        ("aof-ember-marches", "Marchlord", "the cheapest"),
    ],
)
def test_a_required_choice_is_filled_with_the_free_or_cheapest_option_and_said(page: Page, book, unit, words):
    open_builder(page, book)
    add(page, unit)
    expect(page.locator("#preselected")).to_contain_text(f"{unit} must choose from")
    expect(page.locator("#preselected")).to_contain_text(words)
    expect(page.locator("#validity")).not_to_have_text(re.compile("error"))
    assert page.locator('#issues li[data-code="upgrade.required"]').count() == 0


def test_offline_the_text_export_says_you_are_offline(browser, live_server):
    context = browser.new_context(service_workers="block")  # the worker's own fetches ignore the switch
    try:
        page = context.new_page()
        page.base = live_server  # type: ignore[attr-defined]
        open_builder(page, BOOK)
        add(page, "Ash Wardens")
        page.keyboard.press("Escape")
        context.set_offline(True)
        page.click("#copy-text")
        expect(page.locator("#export-status")).to_contain_text("You are offline")
        expect(page.locator("#export-status")).not_to_contain_text("Is it still running")
    finally:
        context.close()


def test_ancients_hex_empty_list_is_empty_and_the_keyword_minimum_names_and_links_its_units(page: Page):
    open_builder(page, "ahx-fjordhold")
    expect(page.locator("#validity")).to_have_text("Empty")
    add(page, "Skin-Witch")
    page.keyboard.press("Escape")
    keyword = page.locator('#issues li[data-code="keyword.minimum"]')
    expect(keyword).to_contain_text("(none in the list)")
    expect(keyword).to_contain_text("Keyword troops in this book: Huscarls")
    keyword.get_by_role("button", name="Add Huscarls to the list").click()
    expect(entries(page)).to_have_count(2)
    page.keyboard.press("Escape")
    expect(keyword).to_contain_text("of keyword troops (Huscarls)")
    keyword.get_by_role("button", name="Go to Huscarls").click()
    expect(page.locator("#editor")).to_be_visible()
    expect(page.locator("#editor-title")).to_contain_text("Huscarls")


def test_the_book_panel_is_compact_with_details_on_demand_and_the_choice_kept(page: Page):
    open_builder(page, BOOK)
    card = page.locator("#book-cc-ember-priest")
    expect(card.locator(".card-head")).to_contain_text("1 model · hero")
    expect(card.locator(".card-head")).to_contain_text("65 pts")
    expect(card.locator("table")).to_be_hidden()  # the weapons wait for "Details"
    # At 1280 x 800 several unit cards fit in the window (it was about one and a half).
    in_view = page.evaluate("""() => [...document.querySelectorAll('#book-units > li')]
        .filter((li) => li.getBoundingClientRect().bottom <= innerHeight).length""")
    assert in_view >= 2, in_view
    card.locator(".unit-details > summary").click()
    expect(card.locator("table")).to_be_visible()
    page.check("#book-detailed")
    expect(page.locator("#book-cc-high-cantor table")).to_be_visible()
    page.reload()
    expect(page.locator("#book-detailed")).to_be_checked()
    expect(page.locator("#book-cc-high-cantor table")).to_be_visible()

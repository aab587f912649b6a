"""End-to-end: /books/<id>, an army book to read without building (issue 24)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

BOOK = "gf-cinder-covenant"


def test_the_book_page_shows_every_unit_upgrade_and_rule_and_searches(page: Page, registry):
    book = registry.books[BOOK]
    page.goto(f"{page.base}/systems/{book.system}")
    page.get_by_role("link", name=f"Read the book: {book.name}").click()
    expect(page).to_have_url(f"{page.base}/books/{BOOK}")
    expect(page.locator("h1")).to_contain_text(book.name)
    expect(page.locator("#edition-note")).to_contain_text("Checked under")
    expect(page.locator("article.book-unit")).to_have_count(len(book.units))
    for unit in book.units:
        expect(page.locator(f"#unit-{unit.id}-name")).to_have_text(unit.name)
        expect(page.locator(f"#unit-{unit.id} details.book-section")).to_have_count(len(unit.upgrades))
    # the rules in full: the book's own, and the core rules its units name
    for name in book.rules:
        expect(page.locator(".book-rules").first).to_contain_text(name)
    expect(page.locator(".book-rules").first).to_contain_text("Tough")

    page.fill("#book-search", "flame pistol")
    expect(page.locator("#book-count")).to_have_text(re.compile(r"^\d+ of \d+ units match$"))
    shown = page.locator("article.book-unit:visible")
    assert 0 < shown.count() < len(book.units)
    for i in range(shown.count()):  # every word typed is somewhere in each unit shown
        text = shown.nth(i).text_content().lower()
        assert "flame" in text and "pistol" in text
    expect(shown.first.locator("details[open]")).to_have_count(1)  # the upgrade that matched is open
    page.fill("#book-search", "no such thing anywhere")
    expect(page.locator("#no-match")).to_be_visible()

    page.fill("#book-search", "")
    page.emulate_media(media="print")
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.locator("#book-search")).to_be_hidden()


def test_the_builder_links_to_the_book(page: Page):
    page.goto(f"{page.base}/build/{BOOK}")
    page.get_by_role("link", name="Read the whole book").click()
    expect(page).to_have_url(f"{page.base}/books/{BOOK}")


def test_an_unknown_book_page_is_a_404_in_words(page: Page):
    response = page.goto(f"{page.base}/books/no-such-book")
    assert response.status == 404
    expect(page.locator("main")).to_contain_text("There is no army book called “no-such-book”")

"""End-to-end: the small things a player trips on (issue 24): words, counts, defaults, layout."""

from __future__ import annotations

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

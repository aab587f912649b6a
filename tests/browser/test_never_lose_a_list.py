"""End-to-end: nothing a player built is lost, and a player keeps several lists of one book.

Every path that replaces the builder's list (a new list, a reload, a closed tab, an edit link,
opening a saved list, loading a file, an offline save sent later) either keeps the work in this
browser or asks first (static/js/drafts.js, saved.js; docs/saved-lists.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_builder import add as add_and_edit
from tests.browser.test_builder import entries, open_builder
from tests.browser.test_saved import BOOK, new_page

pytestmark = pytest.mark.browser

SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])


def add(page: Page, name: str) -> None:
    """Add a unit and close its editor (on a phone the editor covers the book)."""
    add_and_edit(page, name)
    if page.locator("#editor").is_visible():
        page.keyboard.press("Escape")
        expect(page.locator("#editor")).to_be_hidden()


def build_and_save(page: Page, name: str) -> str:
    open_builder(page, BOOK)
    page.fill("#list-name", name)
    add(page, "Ash Wardens")
    add(page, "Ember Priest")
    expect(entries(page)).to_have_count(2)
    page.locator("#save-list").click()
    expect(page.locator("#saved-state")).to_have_text("All changes saved (version 1).")
    return list_id_of(page)


def server_list(page: Page, list_id: str) -> dict:
    return page.request.get(f"{page.base}/api/v1/lists/{list_id}").json()


def list_id_of(page: Page) -> str:
    return page.url.rsplit("=", 1)[1]


@SIZES
def test_new_list_detaches_from_the_saved_list_so_the_next_save_makes_a_second_list(page: Page, size):
    page.set_viewport_size(size)
    first = build_and_save(page, "First host")
    page.get_by_role("button", name="New list").click()  # nothing unsaved: no question
    expect(entries(page)).to_have_count(0)
    expect(page).to_have_url(f"{page.base}/build/{BOOK}")
    expect(page.locator("#saved-state")).to_contain_text("Not saved on the server yet")
    page.fill("#list-name", "Second host")
    add(page, "Ash Wardens")
    page.locator("#save-list").click()
    expect(page.locator("#saved-state")).to_have_text("All changes saved (version 1).")
    second = list_id_of(page)
    assert second != first
    kept = server_list(page, first)
    assert kept["version"] == 1 and kept["list"]["name"] == "First host" and len(kept["list"]["units"]) == 2
    assert server_list(page, second)["list"]["name"] == "Second host"
    page.goto(f"{page.base}/lists")
    expect(page.locator(".saved-row")).to_have_count(2)


@SIZES
def test_unsaved_changes_to_a_saved_list_survive_a_reload_and_the_player_saves_or_discards(page: Page, size):
    page.set_viewport_size(size)
    list_id = build_and_save(page, "Kept host")
    add(page, "Forge Crawler")  # a third row: a copy of a unit already listed would stack
    expect(page.locator("#saved-state")).to_have_text("Unsaved changes since version 1.")
    page.reload()
    expect(entries(page)).to_have_count(3)
    expect(page.locator("#saved-state")).to_have_text("Unsaved changes since version 1.")
    expect(page.locator("#draft-restored")).to_contain_text("differ from the saved version 1")
    page.locator("#draft-discard").click()
    expect(entries(page)).to_have_count(2)
    expect(page.locator("#saved-state")).to_have_text("All changes saved (version 1).")
    page.reload()  # discarded means gone: the saved version opens, with no prompt
    expect(entries(page)).to_have_count(2)
    expect(page.locator("#draft-restored")).to_have_count(0)

    add(page, "Forge Crawler")  # a third row: a copy of a unit already listed would stack
    page.reload()
    page.locator("#draft-save").click()
    expect(page.locator("#saved-message")).to_have_text("Saved as version 2.")
    assert len(server_list(page, list_id)["list"]["units"]) == 3


def test_unsaved_changes_to_a_saved_list_survive_a_closed_tab(page: Page):
    list_id = build_and_save(page, "Closed tab")
    page.fill("#list-name", "Closed tab, renamed")
    expect(page.locator("#saved-state")).to_have_text("Unsaved changes since version 1.")
    context = page.context
    page.close()
    again = context.new_page()
    again.base = page.base  # type: ignore[attr-defined]
    again.goto(f"{page.base}/build/{BOOK}?list={list_id}")
    expect(again.locator("#draft-restored")).to_be_visible()
    expect(again.locator("#list-name")).to_have_value("Closed tab, renamed")
    again.goto(f"{page.base}/")  # the home page offers to continue it
    expect(again.locator("#drafts")).to_contain_text("Closed tab, renamed")
    expect(again.locator("#drafts a")).to_have_attribute("href", f"/build/{BOOK}?list={list_id}")


def test_an_edit_link_pasted_into_a_tab_showing_the_list_takes_effect(page: Page, browser, live_server):
    list_id = build_and_save(page, "Pasted")
    page.locator("#copy-edit-link").click()
    edit_link = page.locator("#edit-link").input_value()
    other = new_page(browser, live_server)
    try:
        other.goto(f"{live_server}/l/{list_id}")
        expect(other.locator("#edit-list")).to_be_hidden()
        other.goto(edit_link)  # the same document: only the fragment changes
        expect(other.locator("#can-edit")).to_contain_text("You can now edit this list")
        expect(other.locator("#edit-list")).to_be_visible()
        expect(other).to_have_url(f"{live_server}/l/{list_id}")
        assert other.errors == []
    finally:
        other.context.close()


def test_opening_a_saved_list_keeps_the_unsaved_new_list_of_the_same_book(page: Page):
    list_id = build_and_save(page, "Saved one")
    page.get_by_role("button", name="New list").click()
    page.fill("#list-name", "Work in progress")
    add(page, "Ember Priest")
    page.goto(f"{page.base}/build/{BOOK}?list={list_id}")
    expect(page.locator("#list-name")).to_have_value("Saved one")
    expect(entries(page)).to_have_count(2)
    page.goto(f"{page.base}/build/{BOOK}")
    expect(page.locator("#list-name")).to_have_value("Work in progress")
    expect(entries(page)).to_have_count(1)


def test_loading_a_json_file_asks_before_replacing_an_unsaved_list(page: Page, tmp_path: Path):
    page.goto(f"{page.base}/build/{BOOK}")
    page.fill("#list-name", "Not saved anywhere")
    add(page, "Ember Priest")
    expect(entries(page)).to_have_count(1)
    file = tmp_path / "other.json"
    file.write_text(
        json.dumps(
            {
                "system": "grimdark-future",
                "book": BOOK,
                "name": "From a file",
                "units": [{"key": "a", "unit": "cc-ash-wardens"}, {"key": "b", "unit": "cc-ash-wardens"}],
            }
        )
    )
    asked: list[str] = []

    def refuse(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", refuse)
    page.locator("#load-json").set_input_files(str(file))
    expect(page.locator("#export-status")).to_have_text("Nothing replaced.")
    assert asked and "“Not saved anywhere” (1 unit)" in asked[0]
    expect(entries(page)).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#load-json").set_input_files(str(file))
    expect(page.locator("#list-name")).to_have_value("From a file")
    expect(entries(page)).to_have_count(1)  # two identical copies: one row
    expect(entries(page).nth(0)).to_contain_text("2× Ash Wardens")


def test_a_new_list_asks_before_replacing_the_unsaved_one(page: Page):
    page.goto(f"{page.base}/build/{BOOK}")
    add(page, "Ember Priest")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="New list").click()
    expect(page.locator("#export-status")).to_have_text("Nothing replaced.")
    expect(entries(page)).to_have_count(1)


def test_an_offline_save_sent_later_never_overwrites_a_version_saved_elsewhere(browser, live_server):
    # No service worker: Chromium's offline switch does not reach a worker's own fetches.
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    try:
        page = context.new_page()
        page.set_default_timeout(10000)
        page.base = live_server  # type: ignore[attr-defined]
        offline_save_meets_a_newer_version(page)
    finally:
        context.close()


def offline_save_meets_a_newer_version(page: Page) -> None:
    list_id = build_and_save(page, "Two devices")
    token = page.evaluate(f"JSON.parse(localStorage.getItem('listbuilder.saved'))['{list_id}'].token")
    context = page.context
    context.set_offline(True)
    add(page, "Forge Crawler")  # a third row: a copy of a unit already listed would stack
    page.locator("#save-list").click()
    expect(page.locator("#save-queued")).to_be_visible()
    page.close()
    # Meanwhile another device saves version 2.
    context.set_offline(False)
    helper = context.new_page()
    body = helper.request.get(f"{page.base}/api/v1/lists/{list_id}").json()["list"]
    body["name"] = "Changed on the phone"
    answer = helper.request.put(
        f"{page.base}/api/v1/lists/{list_id}",
        data=body,
        headers={"Authorization": f"Bearer {token}", "If-Match": '"v1"'},
    )
    assert answer.ok, answer.text()
    helper.close()

    again = context.new_page()
    again.base = page.base  # type: ignore[attr-defined]
    again.goto(f"{page.base}/build/{BOOK}?list={list_id}")
    expect(again.locator(".conflict")).to_contain_text("changed somewhere else")
    expect(entries(again)).to_have_count(3)  # the offline work is still here
    saved = server_list(again, list_id)
    assert saved["version"] == 2 and saved["list"]["name"] == "Changed on the phone"
    again.locator("#save-as-new").click()
    expect(again.locator("#saved-state")).to_have_text("All changes saved (version 1).")
    assert list_id_of(again) != list_id
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", list_id_of(again))

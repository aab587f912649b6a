"""Nothing saved, shared or replaced without the player's word, and the list's state always on
screen (issue 37, problems 1, 3 and 6): at 390 px in light and 1280 px in dark.

Each test fails on the builder before issue 37: Share saved unsaved edits as a new version
(and answered a pending "Save them / Discard them" for the player), there was no way back to
an earlier version, a locked list's Save forked a copy under the same name, My lists did not
name the event, and the sticky bar never said "unsaved"."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_builder import entries, open_builder
from tests.browser.test_events import create_event, submit

pytestmark = pytest.mark.browser

BOOK = "gf-cinder-covenant"
SIZES = [pytest.param((PHONE, "light"), id="390-light"), pytest.param((DESKTOP, "dark"), id="1280-dark")]


@pytest.fixture(params=SIZES)
def context(request, browser):
    """conftest's page, in a context at 390 px light or 1280 px dark (this module's tests run in both)."""
    viewport, scheme = request.param
    phone = viewport["width"] < 500
    context = browser.new_context(viewport=viewport, color_scheme=scheme, is_mobile=phone, has_touch=phone)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield context
    context.close()


def add_only(page: Page, name: str) -> None:
    page.get_by_role("button", name=f"Add {name}", exact=True).click()
    expect(page.locator("#toast")).to_contain_text(f"Added {name}")


def state(page: Page):
    return page.locator("#bar-state")


def save_first_version(page: Page, name: str) -> str:
    open_builder(page, BOOK)
    page.fill("#list-name", name)
    add_only(page, "Ash Wardens")
    expect(state(page)).to_have_text("Not saved")
    page.locator("#bar-save").click()
    expect(state(page)).to_have_text("Saved (v1)")
    expect(page).to_have_url(re.compile(r"\?list=[A-Za-z0-9_-]{16}$"))
    return page.url.rsplit("=", 1)[1]


def server_version(page: Page, list_id: str) -> dict:
    return page.request.get(f"{page.base}/api/v1/lists/{list_id}").json()


def test_share_and_the_edit_link_give_the_saved_version_and_ask_about_unsaved_changes(page: Page):
    list_id = save_first_version(page, "Club night")
    page.fill("#points-limit", "100")  # now illegal: over the limit
    expect(page.locator("#validity")).to_have_text(re.compile("error"))
    expect(state(page)).to_have_text("Unsaved changes")

    page.locator("#share-list").click()
    expect(page.locator("#link-question")).to_contain_text("Shares version 1; your changes are not saved.")
    assert server_version(page, list_id)["version"] == 1  # asking saved nothing
    page.get_by_role("button", name="Share version 1").click()
    expect(page.locator("#share-link")).to_have_value(f"{page.base}/l/{list_id}")
    expect(page.locator("#share-answer")).to_contain_text("It shows version 1; your changes here are not saved.")
    shared = server_version(page, list_id)
    assert shared["version"] == 1 and shared["report"]["valid"]  # the legal version is what was shared
    expect(state(page)).to_have_text("Unsaved changes")

    page.locator("#copy-edit-link").click()
    expect(page.locator("#link-question")).to_contain_text("The edit link opens version 1; your changes are not saved.")
    page.get_by_role("button", name="Save and copy the edit link").click()
    expect(page.locator("#edit-link")).to_have_value(re.compile(rf"/l/{list_id}#edit="))
    expect(state(page)).to_have_text("Saved (v2)")
    assert server_version(page, list_id)["version"] == 2


def test_share_never_answers_a_pending_save_or_discard_question(page: Page):
    list_id = save_first_version(page, "Keep asking")
    page.fill("#list-name", "Keep asking, changed")
    page.reload()  # the changes come back from this browser, with the question
    question = page.locator("#draft-restored")
    expect(question).to_contain_text("differ from the saved version 1")
    page.locator("#share-list").click()
    page.get_by_role("button", name="Share version 1").click()
    expect(page.locator("#share-link")).to_have_value(f"{page.base}/l/{list_id}")
    expect(question).to_be_visible()  # still the player's to answer
    expect(page.locator("#draft-save")).to_be_visible()
    assert server_version(page, list_id)["version"] == 1
    page.locator("#draft-discard").click()
    expect(page.locator("#list-name")).to_have_value("Keep asking")
    expect(state(page)).to_have_text("Saved (v1)")


def test_every_saved_version_is_restored_in_one_step_as_a_new_version(page: Page):
    list_id = save_first_version(page, "Versions")
    add_only(page, "Forge Crawler")
    page.locator("#bar-save").click()
    expect(state(page)).to_have_text("Saved (v2)")
    page.locator("#versions summary").click()
    page.get_by_role("button", name="Restore version 1").click()
    expect(page.locator("#restored")).to_contain_text("Restored version 1: it is saved as version 3.")
    expect(entries(page)).to_have_count(1)
    expect(state(page)).to_have_text("Saved (v3)")
    restored = server_version(page, list_id)
    assert restored["version"] == 3 and [u["unit"] for u in restored["list"]["units"]] == ["cc-ash-wardens"]
    page.locator("#undo").click()  # what was here before the restore is one Undo away
    expect(entries(page)).to_have_count(2)
    expect(state(page)).to_have_text("Unsaved changes")


def test_a_locked_list_saves_as_a_copy_named_so_and_my_lists_names_its_event(page: Page):
    list_id = save_first_version(page, "Cup list")
    event_url = create_event(page)
    submit(page, event_url, "Cup list", "Ann")
    expect(page.locator("#submit-status")).to_contain_text("Submitted as", timeout=30000)

    page.goto(f"{page.base}/build/{BOOK}?list={list_id}")
    expect(state(page)).to_have_text("Locked")
    add_only(page, "Forge Crawler")
    page.locator("#bar-save").click()
    question = page.locator("#locked-question")
    expect(question).to_contain_text("submitted to “Ember Cup <b>2026</b>”")
    expect(question).to_contain_text("“Cup list (copy)”")
    assert server_version(page, list_id)["version"] == 1  # nothing saved before the answer
    page.locator("#save-copy").click()
    expect(page).not_to_have_url(re.compile(list_id))
    expect(page.locator("#list-name")).to_have_value("Cup list (copy)")
    expect(state(page)).to_have_text("Saved (v1)")
    original = server_version(page, list_id)
    assert original["version"] == 1 and original["list"]["name"] == "Cup list" and original["locked"]

    page.goto(f"{page.base}/lists")
    rows = page.locator(".saved-row")
    expect(rows).to_have_count(2)
    expect(rows.filter(has_text="Cup list (copy)")).to_have_count(1)
    locked = page.locator(f'.saved-row[data-id="{list_id}"]')
    expect(locked.locator(".locked-by")).to_contain_text("Submitted to Ember Cup <b>2026</b>")
    expect(locked.get_by_role("link", name="Ember Cup <b>2026</b>")).to_have_attribute("href", re.compile(r"^/events/"))


def test_the_bar_says_saved_unsaved_offline_or_conflict_and_save_is_always_on_screen(page: Page):
    list_id = save_first_version(page, "Bar")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the foot of the page
    box = page.locator("#bar-save").bounding_box()
    viewport = page.viewport_size
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"], box
    assert box["x"] + box["width"] <= viewport["width"], box
    expect(state(page)).to_have_text("Saved (v1)")

    page.fill("#list-name", "Bar, changed")
    expect(state(page)).to_have_text("Unsaved changes")
    page.context.set_offline(True)
    expect(state(page)).to_have_text("Offline")
    page.locator("#bar-save").click()
    expect(state(page)).to_have_text("Offline: save waiting")
    page.context.set_offline(False)
    expect(state(page)).to_have_text("Saved (v2)")  # the waiting save went out

    # Saved elsewhere meanwhile (another device with the edit link): the next save is a conflict.
    token = page.evaluate(f"JSON.parse(localStorage.getItem('listbuilder.saved'))['{list_id}'].token")
    body = server_version(page, list_id)["list"]
    answer = page.request.put(
        f"{page.base}/api/v1/lists/{list_id}",
        data=json.dumps({**body, "name": "From the phone"}),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}", "If-Match": '"v2"'},
    )
    assert answer.status == 200, answer.text()
    page.fill("#list-name", "Bar, changed again")
    page.locator("#bar-save").click()
    expect(state(page)).to_have_text("Conflict: saved elsewhere")
    expect(page.locator("#load-theirs")).to_be_visible()

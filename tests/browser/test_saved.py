"""End-to-end: saving lists on the server, sharing them, copying them, editing on two devices."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_builder import add, entries, open_builder

pytestmark = pytest.mark.browser

BOOK = "gf-cinder-covenant"


def new_page(browser, live_server, viewport=DESKTOP):
    """A page in a context of its own: another device, with nothing in its storage."""
    context = browser.new_context(viewport=viewport)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(10000)
    page.base = live_server  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def build_and_save(page: Page, name: str) -> str:
    open_builder(page, BOOK)
    page.fill("#list-name", name)
    add(page, "Ash Wardens")
    add(page, "Ember Priest")
    expect(entries(page)).to_have_count(2)
    page.locator("#save-list").click()
    expect(page.locator("#saved-state")).to_have_text("All changes saved (version 1).")
    expect(page).to_have_url(re.compile(r"\?list=[A-Za-z0-9_-]{16}$"))
    return page.url.rsplit("=", 1)[1]


def test_save_then_reload_keeps_the_saved_list_and_a_change_saves_version_2(page: Page):
    list_id = build_and_save(page, "Saved Host")
    page.reload()
    expect(entries(page)).to_have_count(2)
    expect(page.locator("#list-name")).to_have_value("Saved Host")
    expect(page.locator("#saved-state")).to_have_text("All changes saved (version 1).")
    page.fill("#list-name", "Saved Host, again")
    expect(page.locator("#saved-state")).to_have_text("Unsaved changes since version 1.")
    page.locator("#save-list").click()
    expect(page.locator("#saved-message")).to_have_text("Saved as version 2.")
    response = page.request.get(f"{page.base}/api/v1/lists/{list_id}")
    assert response.json()["version"] == 2 and response.json()["list"]["name"] == "Saved Host, again"


def test_the_share_link_opens_the_read_only_page_in_a_fresh_browser(page: Page, browser, live_server):
    list_id = build_and_save(page, "Shared Host")
    page.locator("#share-list").click()
    link = page.locator("#share-link").input_value()
    assert link == f"{live_server}/l/{list_id}"
    assert page.evaluate("navigator.clipboard.readText()") == link

    other = new_page(browser, live_server)
    try:
        other.goto(link)
        expect(other.get_by_role("heading", name="Shared Host")).to_be_visible()
        expect(other.locator(".saved-units")).to_contain_text("Ash Wardens")
        expect(other.locator(".saved-units")).to_contain_text("Ember Priest")
        code = other.request.get(f"{live_server}/api/v1/lists/{list_id}").json()["verification_code"]
        expect(other.locator("#verification-code")).to_have_text(code)
        expect(other.locator("#pdf-a4")).to_have_attribute("href", re.compile(rf"/api/v1/lists/{list_id}/roster\.pdf"))
        expect(other.locator("#edit-list")).to_be_hidden()  # no edit token on this device
        with other.expect_download() as download:
            other.locator("#pdf-a4").click()
        assert download.value.suggested_filename == "Shared Host.pdf"
        assert other.errors == []
    finally:
        other.context.close()


def test_a_reader_makes_a_copy_to_edit_and_saves_it_as_their_own(page: Page, browser, live_server):
    list_id = build_and_save(page, "Original")
    reader = new_page(browser, live_server)
    try:
        reader.goto(f"{live_server}/l/{list_id}")
        reader.get_by_role("button", name="Make a copy to edit").click()
        expect(reader).to_have_url(re.compile(rf"/build/{BOOK}\?list=(?!{list_id})[A-Za-z0-9_-]{{16}}$"))
        expect(entries(reader)).to_have_count(2)
        expect(reader.locator("#saved-state")).to_have_text("All changes saved (version 1).")
        reader.fill("#list-name", "My copy")
        reader.locator("#save-list").click()
        expect(reader.locator("#saved-message")).to_have_text("Saved as version 2.")
        copy_id = reader.url.rsplit("=", 1)[1]
        assert reader.request.get(f"{live_server}/api/v1/lists/{copy_id}").json()["list"]["name"] == "My copy"
        assert reader.request.get(f"{live_server}/api/v1/lists/{list_id}").json()["list"]["name"] == "Original"
        reader.goto(f"{live_server}/lists")
        expect(reader.locator(".saved-row")).to_have_count(1)
        expect(reader.locator(".saved-row")).to_contain_text("My copy")
        assert reader.errors == []
    finally:
        reader.context.close()


def test_a_stale_edit_is_refused_in_words_and_the_player_chooses(page: Page):
    list_id = build_and_save(page, "Two Tabs")
    second = page.context.new_page()  # same browser, same edit token: another tab
    second.set_default_timeout(10000)
    second.goto(f"{page.base}/build/{BOOK}?list={list_id}")
    expect(second.locator("#saved-state")).to_have_text("All changes saved (version 1).")
    second.fill("#list-name", "Changed in tab two")
    second.locator("#save-list").click()
    expect(second.locator("#saved-message")).to_have_text("Saved as version 2.")

    page.fill("#list-name", "Changed in tab one")
    page.locator("#save-list").click()
    conflict = page.locator("#saved-message .conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("Not saved: this list was changed somewhere else")
    expect(conflict).to_contain_text("Version 2 is saved on the server; you were editing version 1.")
    expect(page.locator("#list-name")).to_have_value("Changed in tab one")  # nothing lost
    page.get_by_role("button", name="Load version 2 (drop my changes)").click()
    expect(page.locator("#list-name")).to_have_value("Changed in tab two")
    expect(page.locator("#saved-state")).to_have_text("All changes saved (version 2).")

    page.fill("#list-name", "Tab one wins after all")
    page.locator("#save-list").click()
    expect(page.locator("#saved-message")).to_have_text("Saved as version 3.")
    second.close()


def test_a_save_past_the_versions_a_list_keeps_is_refused_in_words(page: Page, live_database_url):
    from listbuilder.store import Database
    from listbuilder.store.limits import MAX_VERSIONS_PER_LIST
    from tests.store.test_lists import fill_versions

    list_id = build_and_save(page, "Saved Too Often")
    db = Database(live_database_url)
    try:
        fill_versions(db, list_id, MAX_VERSIONS_PER_LIST)
    finally:
        db.dispose()
    page.fill("#list-name", "One Save Too Many")
    page.locator("#save-list").click()
    expect(page.locator("#saved-message")).to_contain_text(
        "Not saved: this list already has 1000 versions, the most one list keeps. Your changes are still here."
    )
    page.get_by_role("button", name="Save mine as a new list").click()
    expect(page.locator("#saved-state")).to_have_text("All changes saved (version 1).")
    expect(page).not_to_have_url(re.compile(list_id))
    expect(page.locator("#list-name")).to_have_value("One Save Too Many")


def test_the_edit_link_opens_the_list_for_editing_on_another_device(page: Page, browser, live_server):
    list_id = build_and_save(page, "Carried Over")
    page.locator("#copy-edit-link").click()
    edit_link = page.locator("#edit-link").input_value()
    assert edit_link.startswith(f"{live_server}/l/{list_id}#edit=")

    phone = new_page(browser, live_server, viewport=PHONE)
    try:
        phone.goto(edit_link)
        expect(phone.locator("#saved-status")).to_contain_text("You can now edit this list")
        expect(phone).to_have_url(f"{live_server}/l/{list_id}")  # the token left the address bar
        phone.locator("#edit-list").click()
        expect(entries(phone)).to_have_count(2)
        phone.fill("#list-name", "Edited on the phone")
        phone.locator("#save-list").click()
        expect(phone.locator("#saved-message")).to_have_text("Saved as version 2.")
        assert phone.errors == []
    finally:
        phone.context.close()


def test_my_lists_opens_duplicates_and_deletes(page: Page):
    list_id = build_and_save(page, "Listed")
    page.goto(f"{page.base}/lists")
    row = page.locator(f'.saved-row[data-id="{list_id}"]')
    expect(row).to_contain_text("Listed")
    expect(row.locator(".badge.ok")).to_have_text("Legal")
    row.get_by_role("button", name="Duplicate").click()
    expect(page.locator(".saved-row")).to_have_count(2)
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Delete").click()
    expect(page.locator("#lists-status")).to_have_text("Deleted “Listed”.")
    expect(page.locator(f'.saved-row[data-id="{list_id}"]')).to_have_count(0)
    assert page.request.get(f"{page.base}/api/v1/lists/{list_id}").status == 410
    page.locator(".saved-row").get_by_role("link", name="Open").click()
    expect(entries(page)).to_have_count(2)


LOCKED = {
    "system": "grimdark-future",
    "book": BOOK,
    "name": "Cup Host",
    "points_limit": 1000,
    "units": [{"key": "a", "unit": "cc-ash-wardens"}],
}


def submitted_elsewhere(page: Page, names: tuple[str, ...]) -> tuple[str, str, list[dict]]:
    """A list saved and submitted to events named *names* over the API, as another browser would
    (nothing of it in this page's storage): its id, edit token and the events (with tokens)."""
    json_headers = {"Content-Type": "application/json"}
    made = page.request.post(f"{page.base}/api/v1/lists", data=json.dumps(LOCKED), headers=json_headers).json()
    events = []
    for name in names:
        event = page.request.post(
            f"{page.base}/api/v1/events",
            data=json.dumps(
                {
                    "name": name,
                    "system": "grimdark-future",
                    "points_limit": 1000,
                    "books": [{"book": BOOK}],
                    "deadline": "2099-01-01T18:00:00+00:00",
                }
            ),
            headers=json_headers,
        ).json()
        answer = page.request.post(
            f"{page.base}/api/v1/events/{event['id']}/submissions",
            data=json.dumps({"list_id": made["id"], "player": "Ann"}),
            headers={**json_headers, "Authorization": f"Bearer {made['edit_token']}"},
        )
        assert answer.status == 201, answer.text()
        events.append(event)
    return made["id"], made["edit_token"], events


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_my_lists_names_the_event_of_a_list_submitted_from_another_browser(browser, live_server, viewport):
    """The list was submitted elsewhere (the API here): this browser took only its edit link, and
    My lists still names the event, with a link to its page; a deleted event says so."""
    page = new_page(browser, live_server, viewport)
    list_id, token, (cup, gone) = submitted_elsewhere(page, ("Ember Cup <i>2026</i>", "Old Cup"))
    page.goto(f"{page.base}/l/{list_id}#edit={token}")  # the edit link: this browser now keeps the list
    expect(page.locator("body")).to_contain_text("Cup Host")
    deleted = page.request.delete(
        f"{page.base}/api/v1/events/{gone['id']}", headers={"Authorization": f"Bearer {gone['organiser_token']}"}
    )
    assert deleted.status == 204
    page.goto(f"{page.base}/lists")
    row = page.locator(f'.saved-row[data-id="{list_id}"]')
    expect(row.locator(".badge.locked")).to_have_text("Locked")
    held = row.locator(".locked-by")
    expect(held).to_contain_text("Submitted to Ember Cup <i>2026</i> and an event since deleted by its organiser")
    expect(held).not_to_contain_text("Old Cup")
    link = held.get_by_role("link", name="Ember Cup <i>2026</i>")
    expect(link).to_have_attribute("href", re.compile(rf"^/events/{cup['id']}$"))
    assert held.locator("i").count() == 0  # the name is text, never markup
    box = link.bounding_box()
    assert box and box["x"] + box["width"] <= viewport["width"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    link.click()
    expect(page.locator("h1")).to_have_text("Ember Cup <i>2026</i>")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_locked_lists_save_names_its_event_in_a_browser_that_did_not_submit_it(browser, live_server):
    page = new_page(browser, live_server, PHONE)
    list_id, token, _ = submitted_elsewhere(page, ("Spring Cup",))
    page.goto(f"{page.base}/l/{list_id}#edit={token}")
    expect(page.locator("body")).to_contain_text("Cup Host")
    page.goto(f"{page.base}/build/{BOOK}?list={list_id}")
    expect(entries(page)).to_have_count(1)
    page.fill("#list-name", "Cup Host, changed")
    page.locator("#bar-save").click()
    question = page.locator("#locked-question")
    expect(question).to_contain_text("(it was submitted to “Spring Cup”)")
    expect(question.get_by_role("link", name="Spring Cup")).to_have_attribute("href", re.compile(r"/events/"))
    page.context.close()

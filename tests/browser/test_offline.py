"""Installable and offline: the manifest, the icon, and the builder with the network off.

The service worker keeps the pages, static files, the army books and the saved lists a player
opened; saves made offline are queued in the browser and reach the saved-list API when the
network is back. Offline the list is not checked (the server is the validator): the points are
counted in the browser and the check runs again when the browser is back online
(docs/saved-lists.md, "Offline").
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP

pytestmark = pytest.mark.browser

BOOK = "gf-cinder-covenant"


@pytest.fixture()
def fresh(browser, live_server):
    """A page in a context of its own (its own service worker and caches), no JS errors allowed."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.base = live_server  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
        assert errors == []
    finally:
        context.close()


def kept_paths(page) -> set[str]:
    return set(
        page.evaluate(
            "caches.open('listbuilder-v1').then((c) => c.keys()).then((keys) => keys.map((r) => new URL(r.url).pathname))"
        )
    )


def wait_kept(page, needed: set[str], seconds: float = 30) -> None:
    """Wait for the service worker to keep these paths (it fetches them itself on a first visit)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if needed <= kept_paths(page):
            return
        page.wait_for_timeout(100)
    assert needed <= kept_paths(page)


def test_manifest_icon_and_worker_are_served(page):
    page.goto(page.base + "/")
    manifest = page.request.get(page.base + page.locator('link[rel="manifest"]').get_attribute("href"))
    assert manifest.ok and manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["name"] == "listbuilder" and body["start_url"] == "/" and body["display"] == "standalone"
    for icon in body["icons"]:
        assert page.request.get(page.base + icon["src"]).ok
    assert page.request.get(page.base + "/favicon.ico").ok  # no 404 in the console
    worker = page.request.get(page.base + "/sw.js")
    assert worker.ok and "javascript" in worker.headers["content-type"]


def test_the_builder_works_offline_and_an_offline_save_reaches_the_server(fresh, live_server):
    page, context = fresh, fresh.context
    page.goto(f"{live_server}/build/{BOOK}")
    expect(page.locator("#validity")).to_be_visible()
    # The worker keeps this first visit's page, scripts and book.
    needed = {f"/build/{BOOK}", f"/api/v1/books/{BOOK}", "/api/v1/systems/grimdark-future"}
    needed |= set(
        page.evaluate(
            "performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname).filter((p) => p.startsWith('/static/'))"
        )
    )
    wait_kept(page, needed)

    context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_contain_text("Cinder Covenant")
    page.get_by_role("button", name="Add Ash Wardens", exact=True).click()
    expect(page.locator("#entries > li")).to_have_count(1)
    expect(page.locator("#offline-note")).to_contain_text("Offline")
    page.locator("#toast-edit").click()  # nothing to choose: added at once, and Edit opens it
    page.locator("#ed-cc-squad-drill--ember-drill").check()  # the editor works from the kept book
    draft = page.evaluate(f"JSON.parse(localStorage.getItem('listbuilder.draft.{BOOK}')).list.units")
    assert [u["unit"] for u in draft] == ["cc-ash-wardens"]
    page.keyboard.press("Escape")
    page.locator("#save-list").click()
    expect(page.locator("#save-queued")).to_contain_text("goes to the server when the connection is back")

    context.set_offline(False)
    expect(page.locator("#save-synced")).to_contain_text("is on the server (version 1)")
    expect(page.locator("#validity")).to_have_text("Legal")
    expect(page).to_have_url(re.compile(r"\?list=[A-Za-z0-9_-]{16}$"))
    list_id = page.url.rsplit("=", 1)[1]
    saved = page.request.get(f"{live_server}/api/v1/lists/{list_id}").json()
    assert [u["unit"] for u in saved["list"]["units"]] == ["cc-ash-wardens"]
    assert saved["list"]["units"][0]["upgrades"][0]["option"] == "ember-drill"


def test_a_saved_list_opened_by_its_link_opens_offline_from_the_last_copy(fresh, live_server):
    page, context = fresh, fresh.context
    army = {
        "system": "grimdark-future",
        "book": BOOK,
        "name": "Club night",
        "points_limit": 2000,
        "units": [
            {
                "key": "a",
                "unit": "cc-ash-wardens",
                "upgrades": [{"section": "cc-squad-drill", "option": "ember-drill"}],
            },
            {"key": "b", "unit": "cc-forge-crawler"},
        ],
    }
    made = page.request.post(f"{live_server}/api/v1/lists", data=army).json()
    list_id = made["id"]
    page.goto(f"{live_server}/l/{list_id}")
    code = page.locator("#verification-code").inner_text()
    wait_kept(page, {f"/l/{list_id}"})
    page.goto(f"{live_server}/build/{BOOK}?list={list_id}")
    expect(page.locator("#entries > li")).to_have_count(2)
    expect(page.locator("#validity")).to_have_text("Legal")
    points = str(made["report"]["totals"]["pts"])  # the server's count, read when it saved
    expect(page.locator('#totals .chip[data-currency="pts"] strong')).to_have_text(points)
    wait_kept(page, {f"/l/{list_id}", f"/api/v1/lists/{list_id}", f"/build/{BOOK}"})
    # A different draft in this browser: the link must open the saved list, not the draft.
    page.evaluate(
        f"localStorage.setItem('listbuilder.draft.{BOOK}', JSON.stringify({{list: {{system: 'grimdark-future', book: '{BOOK}', name: 'Draft', units: []}}, savedAt: 1}}))"
    )

    context.set_offline(True)
    page.goto(f"{live_server}/l/{list_id}")
    expect(page.locator("h1")).to_have_text("Club night")
    expect(page.locator("#verification-code")).to_have_text(code)
    expect(page.locator("#kept-copy")).to_contain_text("Offline: this is the copy of the list kept in this browser")
    page.goto(f"{live_server}/build/{BOOK}?list={list_id}")
    expect(page.locator("#saved-opened")).to_contain_text("Offline: this is the copy kept in this browser")
    expect(page.locator("#entries > li")).to_have_count(2)
    expect(page.locator("#list-name")).to_have_value("Club night")
    # Not checked, but the points are counted here, the same as the server counted them.
    expect(page.locator("#validity")).to_have_text("Not checked — offline")
    expect(page.locator('#totals .chip[data-currency="pts"] strong')).to_have_text(points)
    expect(page.locator('#totals .chip[data-total="units"]')).to_have_text("2 units")
    expect(page.locator("#issues")).not_to_contain_text("null")  # a legal list: the note alone


def test_offline_the_points_are_counted_here_the_last_report_is_marked_and_checking_resumes_online(fresh, live_server):
    page, context = fresh, fresh.context
    page.goto(f"{live_server}/build/{BOOK}")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.get_by_role("button", name="Add Ash Wardens", exact=True).click()
    page.locator("#toast-edit").click()
    page.locator("#ed-cc-rifle-specials--flamer").fill("3")  # the section allows two: one error
    page.locator("#ed-cc-rifle-specials--flamer").dispatch_event("change")
    expect(page.locator("#validity")).to_have_text("1 error")

    context.set_offline(True)
    page.locator("#ed-cc-squad-drill--ember-drill").check()
    expect(page.locator("#validity")).to_have_text("Not checked — offline")
    # 125 + 3 × 5 + 25, counted in the browser, and the row's cost with it.
    expect(page.locator('#totals .chip[data-currency="pts"]')).to_contain_text("165 / 2000 pts")
    expect(page.locator("#entries > li").nth(0).locator(".cost")).to_have_text("165 pts")
    expect(page.locator("#offline-note")).to_contain_text("not checked since your last change")
    expect(page.locator("#stale-issues")).to_contain_text("allows 2 models, asked for 3")

    context.set_offline(False)  # the browser says it is back: the list is checked again at once
    expect(page.locator("#validity")).to_have_text("1 error")
    expect(page.locator('#totals .chip[data-currency="pts"]')).to_contain_text("165 / 2000 pts")
    expect(page.locator("#stale-issues")).to_have_count(0)


def test_a_deleted_list_leaves_no_copy_for_offline(fresh, live_server):
    page = fresh
    page.goto(f"{live_server}/build/{BOOK}")
    page.get_by_role("button", name="Add Forge Crawler", exact=True).click()
    page.locator("#list-name").fill("Gone soon")
    page.locator("#save-list").click()
    expect(page).to_have_url(re.compile(r"\?list=[A-Za-z0-9_-]{16}$"))
    list_id = page.url.rsplit("=", 1)[1]
    page.goto(f"{live_server}/l/{list_id}")
    wait_kept(page, {f"/l/{list_id}"})
    page.goto(f"{live_server}/build/{BOOK}?list={list_id}")
    wait_kept(page, {f"/api/v1/lists/{list_id}"})
    page.goto(f"{live_server}/lists")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f'.saved-row[data-id="{list_id}"]').get_by_role("button", name="Delete").click()
    expect(page.locator("#lists-status")).to_have_text("Deleted “Gone soon”.")
    assert not {f"/l/{list_id}", f"/api/v1/lists/{list_id}"} & kept_paths(page)


def test_a_server_out_of_reach_while_the_browser_is_online_is_asked_again_soon(fresh, live_server):
    page = fresh
    page.goto(f"{live_server}/build/{BOOK}")
    expect(page.locator("#validity")).to_be_visible()
    page.route("**/api/v1/lists/validate*", lambda route: route.abort())  # no "online" event will come
    page.get_by_role("button", name="Add Forge Crawler", exact=True).click()
    expect(page.locator("#validity")).to_have_text("Not checked — offline")
    page.unroute("**/api/v1/lists/validate*")
    expect(page.locator("#validity")).to_have_text("Legal", timeout=45000)  # the 30 s retry


def test_a_page_never_opened_shows_our_offline_page_not_the_browsers(fresh, live_server):
    page, context = fresh, fresh.context
    page.goto(f"{live_server}/build/{BOOK}")
    expect(page.locator("#validity")).to_be_visible()
    wait_kept(page, {"/static/app/offline.html", "/static/js/offline_page.js", f"/build/{BOOK}"})
    page.reload()  # now under the worker's control
    context.set_offline(True)
    for path in ("/build/aof-ember-marches", "/events/new", "/import"):
        page.goto(f"{live_server}{path}")
        expect(page.locator("#offline-title")).to_have_text("You are offline")
    expect(page.locator("#kept-pages")).to_contain_text(f"Builder: {BOOK}")
    page.get_by_role("link", name=f"Builder: {BOOK}").click()
    expect(page.locator("h1")).to_contain_text("Cinder Covenant")

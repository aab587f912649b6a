"""Fixed tables and table names from the organiser's round page (issue 39): a table named and a
player fixed to it on a phone, the round paired seating her there, the name on the board, on
her own page and on the standings' find-your-table (as text: markup in a name stays text); at 390 px (light) and 1280 px (dark), axe
clean, 44 px targets on the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.event_day_pages import checked, enter, make_event, opened
from tests.browser.test_rounds import SHOTS

pytestmark = pytest.mark.browser

NAME = "Forest <b>board</b>"


def test_the_organiser_names_a_table_and_fixes_a_player_to_it(browser, live_server):
    made = make_event(live_server)
    tokens = {name: enter(live_server, made, name) for name in ("Ann", "Bob", "Cid", "Dee")}
    SHOTS.mkdir(parents=True, exist_ok=True)
    with opened(browser, PHONE, "light") as page:
        page.goto(f"{live_server}/events/{made['id']}/day#organiser={made['organiser_token']}")
        expect(page.locator("#day-tables-room")).to_be_visible()
        page.get_by_role("button", name="Add a table name").click()
        row = page.locator("#room-names .room-row").last
        row.get_by_label("Table", exact=True).fill("2")
        row.get_by_label("Name", exact=True).fill(NAME)
        page.get_by_role("button", name="Add a fixed player").click()
        row = page.locator("#room-fixed .room-row").last
        row.locator(".room-player").select_option("Dee")
        row.get_by_label("Table", exact=True).fill("2")
        page.get_by_role("button", name="Save the tables").click()
        expect(page.locator("#day-status")).to_contain_text("Tables saved")
        checked(page, "organiser, phone, tables set")
        page.get_by_role("button", name="Start the next round").click()
        page.get_by_role("button", name="Start round 1").click()
        card = page.locator("#day-tables .table-card", has_text="Dee")
        expect(card.locator(".table-no")).to_have_text(f"Table 2 · {NAME}")
        assert page.locator("#day-tables b").count() == 0  # the name is text
        page.reload()  # the settings read back into the form
        expect(page.locator("#room-fixed .room-player")).to_have_value("Dee")
        expect(page.locator("#room-names .room-name")).to_have_value(NAME)
        # during round 1 a second player is fixed: the round as paired stands, and says so
        other = page.locator("#day-tables .table-card").filter(has_not_text="Dee")  # the unnamed table
        player = other.locator(".players").inner_text().split(" v ")[0].strip()
        number = other.get_attribute("data-table")
        page.get_by_role("button", name="Add a fixed player").click()
        row = page.locator("#room-fixed .room-row").last
        row.locator(".room-player").select_option(player)
        row.get_by_label("Table", exact=True).fill("7")
        page.get_by_role("button", name="Save the tables").click()
        expect(page.locator("#round-notes li")).to_have_text(
            f"{player} is fixed to table 7 but plays at table {number}."
        )
        checked(page, "organiser, phone, round 1 with a named table")
        page.screenshot(path=str(SHOTS / "organiser-tables-phone.png"), full_page=True)
    with opened(browser, PHONE, "light") as page:
        page.goto(f"{live_server}/events/{made['id']}/me#player={tokens['Dee']}")
        expect(page.locator("#me-table .players strong")).to_have_text(f"Round 1, table 2 · {NAME}: ")
        checked(page, "Dee's day, phone")
        page.goto(f"{live_server}/events/{made['id']}/standings")  # find your table, on the wall's phone
        expect(page.locator("#current-tables .table-no", has_text=NAME)).to_have_text(f"Table 2 · {NAME}")
        checked(page, "standings, phone, a named table")
        page.screenshot(path=str(SHOTS / "standings-tables-phone.png"), full_page=True)
    with opened(browser, DESKTOP, "dark") as page:
        page.goto(f"{live_server}/events/{made['id']}/day#organiser={made['organiser_token']}")
        expect(page.locator("#day-tables .table-no", has_text=NAME)).to_have_count(1)
        checked(page, "organiser, desktop, dark, tables")
        page.screenshot(path=str(SHOTS / "organiser-tables-desktop-dark.png"), full_page=True)

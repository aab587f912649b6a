"""End-to-end: a player builds, checks, previews, prints and saves lists in a real Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def open_builder(page: Page, book: str) -> None:
    page.goto(f"{page.base}/build/{book}")
    expect(page.locator("#validity")).to_be_visible()


def add(page: Page, name: str) -> None:
    """Add a unit and open it in the editor (a unit with nothing to choose is added with a toast,
    whose Edit opens it: these tests go on to edit what they add)."""
    page.get_by_role("button", name=f"Add {name}", exact=True).click()
    edit = page.locator("#toast-edit")
    if not page.locator("#editor").is_visible():
        edit.click()
    expect(page.locator("#editor")).to_be_visible()


def add_only(page: Page, name: str) -> None:
    """Add a unit in one tap, the editor left closed."""
    page.get_by_role("button", name=f"Add {name}", exact=True).click()


def issue(page: Page, code: str):
    return page.locator(f'#issues li[data-code="{code}"]')


def expect_legal(page: Page) -> None:
    expect(page.locator("#validity")).to_have_text(re.compile(r"^Legal"))
    expect(page.locator("#no-issues")).to_be_visible()


def entries(page: Page):
    return page.locator("#entries > li")


# -- home and system pages -------------------------------------------------------------------


def test_pick_a_system_then_a_book(page: Page):
    page.goto(page.base + "/")
    expect(page.get_by_role("heading", name="Grimdark Future")).to_be_visible()
    page.get_by_role("link", name="Choose Grimdark Future").click()
    expect(page.get_by_role("heading", name="Cinder Covenant")).to_be_visible()
    expect(page.locator(".card", has_text="Cinder Covenant")).to_contain_text("Colonists")  # the book's description
    page.get_by_role("link", name="Build a list: Cinder Covenant").click()
    expect(page).to_have_url(re.compile(r"/build/gf-cinder-covenant$"))
    expect(page.locator("#validity")).to_have_text("Empty")


def test_unknown_book_is_a_page_in_words(page: Page):
    response = page.goto(page.base + "/build/no-such-book")
    assert response.status == 404
    expect(page.locator(".notice.error")).to_contain_text("no army book called “no-such-book”")


# -- OPR: Grimdark Future ---------------------------------------------------------------------


def test_opr_legal_list_then_issues_appear_and_clear(page: Page):
    open_builder(page, "gf-cinder-covenant")
    page.fill("#list-name", "Furnace Choir")
    page.fill("#points-limit", "1000")
    page.locator("#points-limit").dispatch_event("change")

    # A High Cantor must choose a liturgy: the free one is chosen at once, and the editor says so.
    add(page, "High Cantor")
    expect(page.locator("#preselected")).to_contain_text("the free “Liturgy of Ash")
    expect(page.get_by_label(re.compile("^Liturgy of Ash"))).to_be_checked()
    expect_legal(page)
    page.keyboard.press("Escape")
    expect(page.locator("#editor")).to_be_hidden()

    # Ash Wardens: an option that needs another takes it along, and says so first.
    add(page, "Ash Wardens")
    beacon = page.locator("#ed-cc-squad-leader--flare-beacon")
    expect(page.locator("#ed-cc-squad-leader--flare-beacon--why")).to_contain_text("also takes Veteran")
    beacon.check()
    expect(page.locator("#ed-cc-squad-leader--veteran")).to_be_checked()
    expect(beacon).to_be_focused()  # the redraw keeps the focus where it was
    page.locator("#ed-cc-rifle-specials--flamer").fill("2")
    page.locator("#ed-cc-rifle-specials--flamer").dispatch_event("change")
    expect(page.locator("#ed-cc-rifle-specials--grenade-launcher")).to_be_disabled()  # up to two models in all
    page.fill("#ed-name", "Smoke Squad")
    expect(entries(page).nth(1)).to_contain_text("Smoke Squad")
    # Dropping the Veteran drops the beacon that needs it.
    page.locator("#ed-cc-squad-leader--veteran").uncheck()
    expect(beacon).not_to_be_checked()
    page.keyboard.press("Control+z")
    expect(beacon).to_be_checked()

    # The hero joins the squad through a select of eligible units, named as the player reads them.
    page.keyboard.press("Escape")
    entries(page).nth(0).get_by_role("button", name=re.compile("^Edit")).click()
    expect(page.locator("#ed-join option")).to_have_text(["— on its own —", "Smoke Squad"])
    page.select_option("#ed-join", label="Smoke Squad")
    expect(entries(page)).to_have_count(1)  # one unit on the table: the squad with its hero
    expect(entries(page).nth(0)).to_contain_text("Smoke Squad with High Cantor")
    expect_legal(page)
    # Totals come from the API: 120 + 125 + 2x flamer + veteran + beacon.
    report = page.evaluate("""async () => (await (await fetch('/api/v1/lists/validate', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify(JSON.parse(localStorage.getItem('listbuilder.draft.gf-cinder-covenant')).list)})).json())""")
    expect(page.locator('.chip.currency[data-currency="pts"]')).to_contain_text(f"{report['totals']['pts']} / 1000 pts")
    expect(page.locator('#totals .chip[data-total="units"]')).to_contain_text("2 units")

    # Illegal: a third hero at 1000 points breaks force organisation; removing it clears it.
    page.keyboard.press("Escape")
    add(page, "Ember Priest")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Duplicate Ember Priest").click()
    expect(issue(page, "force_org.heroes")).to_be_visible()
    expect(page.locator("#entries li.has-errors")).not_to_have_count(0)
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Show each of 2× Ember Priest").click()  # identical copies are one row
    page.get_by_role("button", name="Remove Ember Priest #1").click()
    expect_legal(page)

    # Combine with a copy in one press; split it again.
    page.get_by_role("button", name="Edit Smoke Squad with High Cantor").click()
    page.click("#ed-combine-copy")
    expect(entries(page).nth(0)).to_contain_text("combined pair")
    expect(page.locator("#editor .member:not(.shared) h4")).to_have_text(
        [re.compile("half 1"), re.compile("half 2"), re.compile("High Cantor")]
    )
    expect_legal(page)
    page.click("#ed-split")
    expect(entries(page).nth(0)).not_to_contain_text("combined pair")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Remove Ash Wardens").click()
    expect(entries(page)).to_have_count(2)
    expect_legal(page)

    # Illegal: too few points; the issue links to the settings.
    page.fill("#points-limit", "300")
    expect(issue(page, "points.over_limit")).to_be_visible()
    expect(page.locator(".chip.currency")).to_contain_text("over")
    issue(page, "points.over_limit").get_by_role("button", name="Go to the list settings").click()
    expect(page.locator("#points-limit")).to_be_focused()
    page.fill("#points-limit", "1000")
    expect_legal(page)

    # The list in progress survives a reload.
    page.reload()
    expect_legal(page)
    expect(entries(page)).to_have_count(2)
    expect(page.locator("#list-name")).to_have_value("Furnace Choir")
    expect(page.locator("#points-limit")).to_have_value("1000")
    # ...and the home page offers to continue it.
    page.goto(page.base + "/")
    expect(page.locator("#drafts")).to_contain_text("Furnace Choir")
    page.get_by_role("link", name="Furnace Choir").click()
    expect(entries(page)).to_have_count(2)


def test_points_limit_is_checked_in_the_form(page: Page):
    open_builder(page, "gf-cinder-covenant")
    expect(page.locator("#validity")).to_have_text("Empty")  # nothing to call legal yet
    expect(page.locator("#no-issues")).to_contain_text("empty")
    for bad in ("200000", "0", ""):
        page.fill("#points-limit", bad)
        expect(page.locator("#points-limit-error")).to_contain_text("whole number from 1 to 100000")
        expect(page.locator("#points-limit")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#validity")).to_have_text("Not checked: fix the points limit")
    page.fill("#points-limit", "2000")
    expect(page.locator("#points-limit-error")).to_be_hidden()
    expect(page.locator("#validity")).to_have_text("Empty")
    add(page, "Ember Priest")
    expect(page.locator("#validity")).to_have_text("Legal")


def test_rules_read_on_hover_and_focus(page: Page):
    open_builder(page, "gf-cinder-covenant")
    page.locator("#book-cc-ember-priest .unit-details > summary").click()  # the compact card opens on demand
    rule = page.locator("#book-cc-ember-priest .rule", has_text="Tough(3)").first
    rule.hover()
    expect(page.locator("#rule-tip")).to_be_visible()
    expect(page.locator("#rule-tip")).to_contain_text("Tough")
    page.keyboard.press("Escape")
    expect(page.locator("#rule-tip")).to_be_hidden()
    page.locator("#book-cc-ember-priest .rule", has_text="Pyre Oath").focus()
    expect(page.locator("#rule-tip")).to_contain_text("Furious")  # the book's own rule text


# -- ancients-hex -----------------------------------------------------------------------------


def build_fjordhold(page: Page) -> None:
    open_builder(page, "ahx-fjordhold")
    add(page, "Skin-Witch")
    expect(issue(page, "keyword.minimum")).to_be_visible()
    # Spells: limited ones and a full hand are disabled with the reason.
    expect(page.locator("#ed-spell--fireball")).to_be_disabled()
    expect(page.locator("#ed-spell--fireball--why")).to_contain_text("only for fire-caster")
    for spell in ("fog", "hasten", "heal"):
        page.locator(f"#ed-spell--{spell}").check()
    expect(page.locator("#ed-spell--barrier")).to_be_disabled()
    expect(page.locator("#ed-spell--barrier--why")).to_contain_text("3 spells already chosen")
    page.select_option("#book-huscarls-count", "3")  # three copies in one press
    add(page, "Huscarls")
    page.select_option("#book-skerry-bows-count", "2")
    add(page, "Skerry Bowmen")
    add(page, "Horn-Bearers")
    page.select_option("#ed-join", label="Huscarls #1")


def test_hex_legal_list_then_issues_appear_and_clear(page: Page):
    build_fjordhold(page)
    expect_legal(page)
    expect(page.locator('.chip.currency[data-currency="vp"]')).to_contain_text("/ 400 VP")
    expect(page.locator('#totals .chip[data-total="models"]')).to_be_visible()

    # More than 5 over 400 is an error; back under clears it.
    page.select_option("#book-mountain-giant-count", "3")
    add(page, "Mountain Giant")
    expect(issue(page, "points.over_limit")).to_be_visible()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Remove Mountain Giant #1").click()
    page.get_by_role("button", name="Remove Mountain Giant #1").click()
    expect_legal(page)

    # The attachment is shown and edited inside the unit it joined; removing it keeps the unit.
    group = entries(page).filter(has_text="Horn-Bearers")
    expect(group).to_have_count(1)
    expect(group).to_contain_text("Huscarls #1 with Horn-Bearers")
    group.get_by_role("button", name=re.compile("^Edit")).click()
    expect(page.locator("#editor .member h4")).to_have_count(2)
    page.get_by_role("button", name="Remove Horn-Bearers", exact=True).click()
    expect(entries(page).filter(has_text="Horn-Bearers")).to_have_count(0)
    expect_legal(page)


def test_hex_preview_draws_a_chart_and_explains_errors(page: Page):
    build_fjordhold(page)
    page.keyboard.press("Escape")
    page.select_option("#pv-attacker", label="Huscarls #1 with Horn-Bearers")  # the unit as it stands
    page.select_option("#pv-book", label="Thalassan League")
    page.select_option("#pv-defender", index=0)
    page.select_option("#pv-s-attack", "melee")
    page.click("#pv-run")
    expect(page.locator("#preview-chart rect.bar").first).to_be_visible()
    assert page.locator("#preview-chart rect.bar").count() >= 2
    expect(page.locator("#pv-destroyed")).to_have_text(re.compile(r"^\d+\.\d%$"))
    expect(page.locator("table.expected")).to_contain_text("Hits")
    expect(page.locator("#preview-result")).to_contain_text("Retreat")
    page.locator('label[for="pv-dist-damage"]').click()
    expect(page.locator("#preview-chart title").first).to_contain_text("Damage")
    # Huscarls have no missile dice: the server's answer is shown in words.
    page.select_option("#pv-s-attack", "shooting")
    page.click("#pv-run")
    expect(page.locator("#preview-result .notice.error")).to_contain_text("no missile dice")


# -- OPR preview, PDF, text, JSON ---------------------------------------------------------------


def test_opr_preview(page: Page):
    open_builder(page, "gf-cinder-covenant")
    add(page, "Ash Wardens")
    page.keyboard.press("Escape")
    page.select_option("#pv-book", label="Verdant Spore Choir")
    page.select_option("#pv-defender", index=0)
    page.select_option("#pv-s-attack", "shooting")
    page.fill("#pv-s-range", "18")
    page.click("#pv-run")
    expect(page.locator("#preview-chart rect.bar").first).to_be_visible()
    expect(page.locator("#pv-destroyed")).to_have_text(re.compile(r"^\d+\.\d%$"))


def test_pdf_text_and_json(page: Page, tmp_path: Path):
    open_builder(page, "gf-cinder-covenant")
    page.fill("#list-name", "Print me")
    add(page, "Ash Wardens")
    add(page, "Ember Priest")
    expect_legal(page)
    page.keyboard.press("Escape")

    for paper in ("a4", "letter"):
        page.select_option("#paper", paper)
        with page.expect_download() as info:
            page.click("#download-pdf")
        pdf = Path(info.value.path()).read_bytes()
        assert pdf.startswith(b"%PDF"), pdf[:40]
        assert info.value.suggested_filename == f"print-me-{paper}.pdf"

    page.click("#copy-text")
    expect(page.locator("#export-status")).to_contain_text("copied")
    text = page.locator("#text-export").input_value()
    assert "Ash Wardens" in text
    assert page.evaluate("navigator.clipboard.readText()") == text

    with page.expect_download() as info:
        page.click("#save-json")
    saved = json.loads(Path(info.value.path()).read_text())
    assert saved["book"] == "gf-cinder-covenant" and saved["name"] == "Print me"
    assert [u["unit"] for u in saved["units"]] == ["cc-ash-wardens", "cc-ember-priest"]

    # Loading a list of another book opens that book's builder with the list.
    golden = GOLDEN / "grimdark-future" / "legal-1000-spore-choir.json"
    page.set_input_files("#load-json", str(golden))
    expect(page).to_have_url(re.compile(r"/build/gf-spore-choir$"))
    expect_legal(page)
    activations = page.locator('#totals .chip[data-total="activations"] strong')
    expect(activations).to_have_text(re.compile(r"^\d+$"))
    expect(entries(page)).to_have_count(int(activations.inner_text()))  # one row per unit on the table
    # And loading back our own file restores it here.
    page.goto(f"{page.base}/build/gf-cinder-covenant")
    page.set_input_files("#load-json", info.value.path())
    expect(page.locator("#list-name")).to_have_value("Print me")
    expect(entries(page)).to_have_count(2)


# -- phone width and keyboard ---------------------------------------------------------------------


def test_phone_width_no_sideways_scroll(browser, live_server):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        for path in ("/", "/systems/ancients-hex", "/build/ahx-fjordhold"):
            page.goto(live_server + path)
            if path.startswith("/build"):
                expect(page.locator("#validity")).to_be_visible()
                page.get_by_role("button", name="Add Skin-Witch").tap()
                if not page.locator("#editor").is_visible():  # nothing to choose: added with a toast
                    page.locator("#toast-edit").tap()
                expect(page.locator("#editor")).to_be_visible()
                page.locator("#editor .rule").first.tap()  # the unit's rules, in its profile beside the controls
                expect(page.locator("#rule-tip")).to_be_visible()
                page.get_by_role("button", name="Done: close the unit editor (Escape)").tap()
                expect(page.locator("#editor")).to_be_hidden()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{path} is {width}px wide at phone width"
    finally:
        context.close()


def test_keyboard_only(page: Page):
    open_builder(page, "gf-cinder-covenant")
    page.locator("#unit-filter").focus()
    page.keyboard.type("cantor")
    expect(page.locator("#book-cc-ash-wardens")).to_be_hidden()
    page.keyboard.press("Tab")  # the details switch, how many to add, then the High Cantor's Add button
    expect(page.locator("#book-detailed")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_label("How many High Cantor to add")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Add High Cantor")).to_be_focused()
    page.keyboard.press("Enter")
    expect(entries(page)).to_have_count(1)
    expect(page.locator("#editor")).to_be_focused()
    page.locator("#ed-cc-cantor-liturgy--liturgy-of-sparks").focus()
    page.keyboard.press("Space")
    expect_legal(page)
    expect(page.locator("#ed-cc-cantor-liturgy--liturgy-of-sparks")).to_be_focused()
    page.keyboard.press("Escape")  # closes the editor, back on the unit's Edit button
    expect(page.locator("#editor")).to_be_hidden()
    expect(page.get_by_role("button", name="Edit High Cantor")).to_be_focused()


# -- armour-hex budgets ----------------------------------------------------------------------------


def test_armour_hex_game_modes_and_custom_budget(page: Page):
    open_builder(page, "ah-hammerdeep-holds")
    add(page, "Hold Guard")
    add(page, "Anvil Battle Tank")
    expect_legal(page)
    for currency in ("ip", "mp", "cp", "xp"):
        expect(page.locator(f'.chip.currency[data-currency="{currency}"]')).to_contain_text("/ 24")
    # A tank game has no manpower: the soldiers are now over budget.
    page.select_option("#game-mode", "tank")
    expect(page.locator("#issues li.issue.error").first).to_be_visible()
    expect(page.locator('.chip.currency[data-currency="mp"]')).to_contain_text("over")
    # A custom budget with room for both is legal again.
    page.select_option("#game-mode", "")
    for currency, amount in (("ip", "10"), ("mp", "5"), ("cp", "5"), ("xp", "0")):
        page.fill(f"#budget-{currency}", amount)
        page.locator(f"#budget-{currency}").dispatch_event("change")
    expect_legal(page)
    expect(page.locator('.chip.currency[data-currency="ip"]')).to_contain_text("4 / 10 IP")


# -- every book ---------------------------------------------------------------------------------------


def test_every_unit_of_every_book_can_be_added_and_edited(page: Page, registry):
    """No book breaks the page: each unit is added, its editor opens with one control group per
    upgrade section, and totals come back from the API (the fixture fails on any JS error)."""
    for book in registry.books.values():
        open_builder(page, book.id)
        for unit in book.units:
            page.locator(f"#book-{unit.id} button.add").click()
            if not page.locator("#editor").is_visible():  # nothing to choose: added with a toast
                page.locator("#toast-edit").click()
            expect(page.locator("#editor-title")).to_contain_text(unit.name)
            expect(page.locator("#editor fieldset.section:not(.spells)")).to_have_count(len(unit.upgrades))
        expect(entries(page)).to_have_count(len(book.units))
        expect(page.locator('#totals .chip[data-total="units"]')).to_contain_text(f"{len(book.units)} units")
        page.evaluate("localStorage.clear()")

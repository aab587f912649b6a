"""Speed of building: the golden 2000-point Grimdark Future lists built by clicking, clicks counted.

Every interaction counts as one click: a button press, a checkbox or radio, a choice in a
select, and a number typed into a field (one click to put the cursor there). The built list
must equal the golden list up to entry keys and order, and validate legal.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "grimdark-future"


class Clicks:
    """The page, with every interaction counted."""

    def __init__(self, page: Page):
        self.page, self.count = page, 0

    def click(self, target: Locator | str) -> None:
        self.count += 1
        self._loc(target).click()

    def select(self, target: Locator | str, value: str) -> None:
        self.count += 1
        self._loc(target).select_option(value)

    def number(self, target: Locator | str, value: int) -> None:
        self.count += 1
        loc = self._loc(target)
        loc.fill(str(value))
        loc.dispatch_event("change")

    def _loc(self, target: Locator | str) -> Locator:
        return self.page.locator(target) if isinstance(target, str) else target

    # -- the builder's controls, found the way a player reads them
    def add(self, name: str) -> None:
        self.click(self.page.get_by_role("button", name=f"Add {name}", exact=True))

    def add_and_edit(self, name: str) -> None:
        """Add, then open the new unit in the editor (a unit with nothing to choose is added with
        a toast, and its Edit is one more click)."""
        self.add(name)
        if not self.page.locator("#editor").is_visible():
            self.click("#toast-edit")

    def add_pair(self, name: str) -> None:
        self.click(self.page.get_by_role("button", name=f"Add pair: a combined pair of {name}", exact=True))

    def add_with(self, name: str, choice: str) -> None:
        """One choice in the book card's "Add with…": "pair+<hero>", "one+<hero>" or "opt:<section>/<option>"."""
        self.select(
            self.page.get_by_role("combobox", name=re.compile(rf"^Add {re.escape(name)} with (a hero|an upgrade)")),
            choice,
        )

    def add_joined(self, unit_id: str) -> None:
        self.select("#ed-add-joined", unit_id)
        expect(self.page.locator("#ed-add-joined")).to_be_focused()

    def option(self, member: str, control: str) -> Locator:
        """The control ending in *control* (section--option) in the editor block titled *member*."""
        block = self.page.locator("#editor .member").filter(has=self.page.locator("h4", has_text=member))
        return block.locator(f'[id$="ed-{control}"]')


def signature(units: list[dict]) -> Counter:
    """A list's content without its keys or order: each entry's unit, upgrades, pairing and host."""
    by_key = {u["key"]: u for u in units}

    def own(u: dict) -> tuple:
        rows = tuple(sorted((r["section"], r["option"], r.get("count", 1)) for r in u.get("upgrades", [])))
        return (u["unit"], rows, tuple(sorted(u.get("spells", []))))

    out: Counter = Counter()
    for u in units:
        partner = by_key.get(u.get("combined_with") or "")
        partner = partner or next((x for x in units if x.get("combined_with") == u["key"]), None)
        host = by_key.get(u.get("joined_to") or "")
        out[(own(u), own(partner) if partner else None, own(host) if host else None)] += 1
    return out


def built(page: Page, book: str) -> list[dict]:
    return page.evaluate(f"JSON.parse(localStorage.getItem('listbuilder.draft.{book}')).list.units")


def open_fresh(page: Page, book: str) -> Clicks:
    page.goto(f"{page.base}/build/{book}")
    page.evaluate("localStorage.clear()")
    page.reload()
    expect(page.locator("#validity")).to_be_visible()
    return Clicks(page)


def finish(page: Page, clicks: Clicks, golden_file: str) -> int:
    golden = json.loads((GOLDEN / golden_file).read_text())["list"]
    expect(page.locator("#validity")).to_have_text(re.compile("^Legal"))
    units = built(page, golden["book"])
    assert signature(units) == signature(golden["units"])
    total = sum(1 for _ in golden["units"])
    expect(page.locator('#totals .chip[data-total="units"]')).to_contain_text(f"{total} units")
    return clicks.count


def test_golden_spore_choir_2000_in_at_most_20_clicks(page: Page):
    """10 entries, 2 joined heroes, 1 pair: 14 clicks (13 when "Add with…" opened the editor,
    18 before "Add with…", 37 at first)."""
    c = open_fresh(page, "gf-spore-choir")
    c.add_with("World-Root Colossus", "opt:sc-colossus-growths/overgrowth-bloom")  # takes the Psychic Crown it needs
    c.click("#toast-edit")  # added at once; the editor, once open, follows each unit added
    c.add_with("Spore Drones", "pair+sc-bloom-herald")
    c.click(c.option("Both halves", "sc-brood-adaptation--chameleon-skin"))
    c.click(c.option("half 2", "sc-drone-node--pheromone-gland"))
    c.click(c.option("Bloom Herald", "sc-mutations--hardened-bark"))
    c.click(c.option("Bloom Herald", "sc-mutations--spore-sacs"))
    c.add_with("Thorn Warriors", "one+sc-thorn-tyrant")
    c.number(c.option("Thorn Warriors", "sc-spine-arms--acid-spitter"), 10)
    c.click(c.option("Thorn Tyrant", "sc-mutations--toxic-spines"))
    c.add_with("Gas Gliders", "opt:sc-brood-adaptation/adrenal-sacs")
    c.add_with("Burrow Pod", "opt:sc-beast-growths/guard-tendrils")
    c.add("Spitter Bloom")
    c.add("Seed Swarm")
    clicks = finish(page, c, "legal-2000-spore-choir-colossus.json")
    print(f"spore choir 2000: {clicks} clicks")
    assert clicks <= 20


def test_golden_cinder_covenant_2000_in_at_most_20_clicks(page: Page):
    """14 entries, 20 upgrade rows, 4 pairs, 4 joined heroes: 20 clicks (26 before "Add with…", 42 at first)."""
    c = open_fresh(page, "gf-cinder-covenant")
    # The High Cantor must choose a liturgy: the editor opens to show it, and then follows each
    # unit added (one with nothing to choose, added first, would need its toast's Edit: 21).
    c.add_with("Cinder Zealots", "pair+cc-high-cantor")
    c.click(c.option("Both halves", "cc-zealot-blades--chain-blades"))
    c.click(c.option("half 2", "cc-squad-leader--ember-standard"))
    c.click(c.option("High Cantor", "cc-cantor-liturgy--liturgy-of-sparks"))
    c.add_with("Ash Wardens", "pair+cc-pyre-marshal")
    c.number(c.option("half 1", "cc-rifle-specials--flamer"), 2)
    c.click(c.option("half 1", "cc-squad-leader--flare-beacon"))  # takes the Veteran it needs
    c.click(c.option("Both halves", "cc-squad-drill--ember-drill"))
    c.number(c.option("half 2", "cc-rifle-specials--grenade-launcher"), 1)
    c.number(c.option("half 2", "cc-rifle-specials--fusion-rifle"), 1)
    c.click(c.option("Pyre Marshal", "cc-marshal-mount--scorch-steed"))
    c.click(c.option("Pyre Marshal", "cc-hero-sidearm--plasma-pistol"))
    c.add_with("Flame Sisters", "pair+cc-ember-priest")
    c.number(c.option("half 1", "cc-sister-flamers--heavy-flamer"), 2)
    c.click(c.option("Both halves", "cc-squad-drill--smoke-grenades"))
    c.click(c.option("Ember Priest", "cc-hero-relics--ashen-mantle"))
    c.add_with("Ashwalk Pathfinders", "pair+cc-ember-priest")
    c.add_with("Iron Sentinels", "opt:cc-sentinel-arms/inferno-projector")
    c.add_with("Forge Crawler", "opt:cc-vehicle-kit/dozer-blade")
    c.click(c.option("Forge Crawler", "cc-vehicle-kit--pintle-flamer"))
    clicks = finish(page, c, "legal-2000-cinder-covenant.json")
    print(f"cinder covenant 2000: {clicks} clicks")
    assert clicks <= 20


def test_add_with_is_one_undoable_step_and_waits_for_enter_from_the_keyboard(page: Page):
    c = open_fresh(page, "gf-cinder-covenant")
    with_ = page.get_by_role("combobox", name="Add Ash Wardens with a hero or an upgrade", exact=True)
    # Browsing the choices with the arrow keys adds nothing; Enter adds the one shown.
    with_.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(entries(page)).to_have_count(0)
    page.keyboard.press("Enter")
    expect(entries(page)).to_have_count(1)
    expect(entries(page).nth(0)).to_contain_text(
        "2× Ash Wardens with High Cantor"
    )  # the second choice: pair + High Cantor
    expect(with_).to_be_focused()
    expect(with_).to_have_value("")
    expect(page.locator("#editor-title")).to_have_text("2× Ash Wardens with High Cantor")
    page.locator("#undo").click()
    expect(entries(page)).to_have_count(0)  # pair and hero went in one step
    # Its name says what it offers: a vehicle takes no hero.
    expect(page.get_by_role("combobox", name="Add Forge Crawler with an upgrade", exact=True)).to_have_count(1)
    # Nothing left to choose: into the list at once, with an Undo toast (the editor on demand).
    c.add_with("Iron Sentinels", "opt:cc-sentinel-arms/inferno-projector")
    expect(page.locator("#toast")).to_contain_text("Added Iron Sentinels with Inferno Projector.")
    expect(page.locator("#editor")).to_be_hidden()
    expect(entries(page).nth(0).locator(".entry-upgrades")).to_have_text("Inferno Projector")


def entries(page: Page) -> Locator:
    return page.locator("#entries > li")


def test_undo_redo_by_buttons_and_keys_keep_the_focus(page: Page):
    c = open_fresh(page, "gf-cinder-covenant")
    expect(page.locator("#undo")).to_be_disabled()
    c.add_and_edit("Ash Wardens")  # nothing to choose: added with a toast, whose Edit opens it
    c.click(page.locator("#ed-cc-squad-drill--ember-drill"))
    expect(page.locator("#ed-cc-squad-drill--ember-drill")).to_be_focused()
    page.select_option("#book-cc-forge-crawler-count", "3")
    c.add("Forge Crawler")
    expect(entries(page)).to_have_count(2)  # three identical copies are one row
    expect(entries(page).nth(1)).to_contain_text("3× Forge Crawler")
    page.locator("#undo").click()
    expect(entries(page)).to_have_count(1)
    expect(page.locator("#undo")).to_be_focused()  # the button pressed keeps the focus
    expect(page.locator("#export-status")).to_contain_text("Undone: Add 3× Forge Crawler")
    page.locator("#redo").click()
    expect(entries(page)).to_have_count(2)
    # Ctrl+Z / Ctrl+Shift+Z away from text fields.
    page.locator("#redo").focus()
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    expect(entries(page)).to_have_count(1)
    expect(entries(page).nth(0)).not_to_contain_text("Ember Drill")
    page.keyboard.press("Control+Shift+z")
    expect(entries(page).nth(0)).to_contain_text("Ember Drill")
    # Typing a name is one step, and Ctrl+Z inside the field is the field's own.
    page.get_by_role("button", name="Edit Ash Wardens").click()
    page.locator("#ed-name").type("Ash Guard")
    expect(entries(page).nth(0)).to_contain_text("Ash Guard")
    page.locator("#undo").click()
    expect(entries(page).nth(0)).not_to_contain_text("Ash Guard")


def test_duplicate_and_reorder_whole_units_keeping_the_focus(page: Page):
    c = open_fresh(page, "gf-cinder-covenant")
    c.add_pair("Cinder Zealots")
    c.click("#toast-edit")  # added at once; its hero is joined in the editor
    c.add_joined("cc-high-cantor")
    c.add("Forge Crawler")
    expect(entries(page)).to_have_count(2)
    page.get_by_role("button", name="Duplicate 2× Cinder Zealots with High Cantor").click()
    expect(entries(page)).to_have_count(3)
    expect(entries(page).nth(1)).to_contain_text(
        "2× Cinder Zealots with High Cantor"
    )  # the copy keeps its pair and hero
    expect(page.locator('#totals .chip[data-total="units"]')).to_contain_text("7 units")
    expect(page.locator('#totals .chip[data-total="activations"]')).to_contain_text("3 activations")
    down = page.get_by_role("button", name="Move 2× Cinder Zealots with High Cantor down").first
    down.click()
    expect(entries(page).nth(1)).to_contain_text("Zealots")
    up = page.get_by_role("button", name="Move Forge Crawler up")
    up.click()
    expect(entries(page).nth(1)).to_contain_text("Forge Crawler")
    expect(up).to_be_focused()
    up.click()
    expect(entries(page).nth(0)).to_contain_text("Forge Crawler")
    expect(page.get_by_role("button", name="Move Forge Crawler up")).to_be_disabled()
    expect(
        page.get_by_role("button", name="Move Forge Crawler down")
    ).to_be_focused()  # first row: focus moves to the button that still works
    page.keyboard.press("Enter")
    expect(entries(page).nth(1)).to_contain_text("Forge Crawler")
    expect(page.get_by_role("button", name="Move Forge Crawler down")).to_be_focused()


def test_the_editor_shows_the_profile_after_upgrades_beside_the_controls(page: Page):
    c = open_fresh(page, "gf-cinder-covenant")
    scroll = page.evaluate("window.scrollY")
    c.add_and_edit("Ash Wardens")
    assert page.evaluate("window.scrollY") == scroll  # opening the editor does not move the page
    profile = page.locator("#editor-profile")
    expect(profile).to_contain_text("10× Ash Rifle")
    c.number("#ed-cc-rifle-specials--flamer", 2)
    expect(profile).to_contain_text("8× Ash Rifle")
    expect(profile).to_contain_text("2× Flamer")
    c.click("#ed-cc-squad-leader--flare-beacon")
    expect(profile.locator(".items")).to_contain_text("Flare Beacon")
    # Beside, not below: the profile column starts level with the controls.
    page.locator("#editor").evaluate("e => { e.scrollTop = 0; }")
    controls = page.locator("#editor .editor-controls").bounding_box()
    box = profile.bounding_box()
    assert box["x"] > controls["x"] + controls["width"] - 1 and abs(box["y"] - controls["y"]) < 5
    expect(page.locator("#editor")).not_to_contain_text("null")
    expect(page.locator("#editor")).not_to_contain_text("undefined")


def test_counts_read_the_same_in_the_bar_the_list_and_the_pdf(page: Page, tmp_path: Path):
    from pypdf import PdfReader

    golden = json.loads((GOLDEN / "legal-2000-cinder-covenant.json").read_text())["list"]
    page.goto(f"{page.base}/build/gf-cinder-covenant")
    page.evaluate(
        "(l) => localStorage.setItem('listbuilder.draft.gf-cinder-covenant', JSON.stringify({list: l, savedAt: 1}))",
        golden,
    )
    page.reload()
    expect(page.locator("#validity")).to_have_text("Legal")
    bar = {k: page.locator(f'#totals .chip[data-total="{k}"]') for k in ("units", "activations", "models")}
    listed = {k: page.locator(f'#list-counts .chip[data-total="{k}"]') for k in ("units", "activations", "models")}
    expect(bar["units"]).to_have_text("14 units")
    expect(bar["activations"]).to_have_text("6 activations")  # four pairs with their heroes, two single units
    for k in bar:
        expect(listed[k]).to_have_text(bar[k].inner_text())
    expect(entries(page)).to_have_count(6)  # one row per activation
    with page.expect_download(timeout=30000) as info:  # a first render on a loaded machine can take seconds
        page.click("#download-pdf")
    pdf = tmp_path / "roster.pdf"
    pdf.write_bytes(Path(info.value.path()).read_bytes())
    text = "\n".join(sheet.extract_text() for sheet in PdfReader(pdf).pages)
    for k in ("units", "activations", "models"):
        printed = re.search(rf"\b{k}\s+(\d+)", text, re.IGNORECASE)  # the sheet's heading: "Units 14"
        assert printed and printed.group(1) == bar[k].locator("strong").inner_text(), (k, text[:400])


def test_keyword_troops_and_elites_are_marked(page: Page):
    c = open_fresh(page, "ahx-fjordhold")
    expect(page.locator("#book-huscarls .mark.keyword")).to_have_text("Keyword troops")
    expect(page.locator("#book-skin-witch .mark")).to_have_count(0)
    c.add("Huscarls")
    expect(entries(page).nth(0).locator(".mark.keyword")).to_be_visible()
    chip = page.locator('#totals .chip[data-total="keyword"]')
    expect(chip).to_contain_text("Keyword troops")
    expect(chip).to_contain_text("minimum")
    c = open_fresh(page, "ah-hammerdeep-holds")
    expect(page.locator("#book-hold-guard .mark.elite")).to_have_text("Elites available")
    c.add_and_edit("Hold Guard")
    c.number(page.locator('[id$="ed-hold-guard-veterans--veteran"]'), 2)
    expect(entries(page).nth(0).locator(".mark.elite")).to_have_text("2 elites")


def test_an_illegal_count_keeps_its_points_and_shows_the_error(page: Page):
    c = open_fresh(page, "gf-cinder-covenant")
    c.add_and_edit("Ash Wardens")
    c.number("#ed-cc-rifle-specials--flamer", 3)  # the section allows two
    expect(page.locator("#editor-issues")).to_contain_text("allows 2 models, asked for 3")
    expect(entries(page).nth(0).locator(".cost")).to_have_text("140 pts")  # 125 + 3 × 5, not 125
    expect(page.locator("#validity")).to_have_text("1 error")


def test_melee_preview_reads_as_sentences_for_both_sides(page: Page):
    c = open_fresh(page, "gf-cinder-covenant")
    c.add("Cinder Zealots")
    page.keyboard.press("Escape")
    page.select_option("#pv-book", label="Verdant Spore Choir")
    page.select_option("#pv-defender", index=0)
    page.select_option("#pv-s-attack", "melee")
    page.click("#pv-run")
    summary = page.locator("#pv-summary")
    expect(summary).to_contain_text(re.compile("strikes? back"))  # the verb agrees: "Bloom Herald strikes back"
    expect(summary).to_contain_text("Melee result: Cinder Zealots win")
    expect(summary).to_contain_text("take a morale test")
    expect(page.locator("#preview-result")).not_to_contain_text("[object Object]")
    expect(page.locator('label[for="pv-dist-back-wounds"]')).to_have_text("Strike back: wounds")
    # "At least N" is printed under the chart, not only on hover.
    expect(page.locator("#preview-result table.at-least")).to_contain_text("At least")
    page.locator('label[for="pv-dist-back-wounds"]').click()
    expect(page.locator("#preview-result table.at-least caption")).to_contain_text("Strike back: wounds")
    assert page.locator("#preview-result tr").count() < 25  # no wall of raw rows

"""Accessibility: axe-core (npm, pinned in tests/browser/a11y) on every page at desktop and
phone width, touch targets on a phone, the rule chips out of the tab order (their texts in one
"Rules explained" disclosure per unit), and chips that stay inside their cards and lines.

axe is injected as an init script (through the browser's debugging protocol, so the page's
own Content-Security-Policy stays on and untouched).
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"desktop": DESKTOP, "phone": PHONE}
BOOK = "gf-cinder-covenant"


@pytest.fixture(scope="module")
def saved_list(live_server) -> str:
    army = {
        "system": "grimdark-future",
        "book": BOOK,
        "name": "Axe check",
        "units": [{"key": "a", "unit": "cc-ash-wardens"}],
    }
    request = urllib.request.Request(
        f"{live_server}/api/v1/lists", data=json.dumps(army).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["id"]


@pytest.fixture(
    params=[(size, scheme) for size in SIZES for scheme in ("light", "dark")], ids=lambda p: f"{p[0]}-{p[1]}"
)
def sized(request, browser, live_server):
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make browser` (npm ci in tests/browser/a11y)")
    size, scheme = request.param
    context = browser.new_context(
        viewport=SIZES[size], is_mobile=size == "phone", has_touch=size == "phone", color_scheme=scheme
    )
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.set_default_timeout(10000)
    page.base = live_server  # type: ignore[attr-defined]
    page.size = f"{size}, {scheme} scheme"  # type: ignore[attr-defined]
    yield page
    context.close()


def serious(page: Page) -> list[str]:
    """axe's serious and critical violations, one line each (rule, where, why)."""
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    out = []
    for v in result["violations"]:
        if v["impact"] in ("serious", "critical"):
            for node in v["nodes"][:5]:
                out.append(f"{v['id']} ({v['impact']}): {node['target']} {node.get('failureSummary', '')[:160]}")
    return out


def builder_states(page: Page):
    """The builder as a player sees it: a list, the editor open, a preview answered."""
    page.goto(f"{page.base}/build/{BOOK}")
    expect(page.locator("#validity")).to_be_visible()
    yield "empty builder"
    page.get_by_role("button", name="Add pair: a combined pair of Ash Wardens").click()
    page.locator("#toast-edit").click()  # added at once, the editor on demand
    page.locator("#ed-add-joined").select_option("cc-pyre-marshal")
    expect(page.locator("#editor-profile .profile-card")).to_have_count(3)
    yield "editor open"
    page.keyboard.press("Escape")
    page.select_option("#pv-book", label="Verdant Spore Choir")
    page.select_option("#pv-defender", index=0)
    page.select_option("#pv-s-attack", "melee")
    page.click("#pv-run")
    expect(page.locator("#pv-summary")).to_be_visible()
    yield "preview answered"


def pages(saved_list: str) -> tuple[str, ...]:
    """Every kind of page a visitor reaches by a link (the builder is walked through apart)."""
    return ("/", "/systems/grimdark-future", f"/books/{BOOK}", "/lists", f"/l/{saved_list}", "/import", "/events/new")


def test_axe_finds_nothing_serious_on_any_page(sized: Page, saved_list):
    page = sized
    problems = []
    for path in (*pages(saved_list), "/no-such-page"):
        page.goto(page.base + path)
        page.wait_for_load_state("networkidle")
        problems += [f"{path}: {p}" for p in serious(page)]
    for state in builder_states(page):
        problems += [f"builder, {state}: {p}" for p in serious(page)]
    assert not problems, f"{page.size}:\n" + "\n".join(problems)


TARGETS = """() => {
  const small = [];
  const seen = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && el.closest('[hidden]') === null; };
  for (const el of document.querySelectorAll('button, select, input, textarea, summary, a.button, nav a, .jump a')) {
    if (!seen(el)) continue;
    // A checkbox or radio is pressed through its label too: the row they share is the target.
    const box = (el.type === 'checkbox' || el.type === 'radio') ? (el.closest('.option, .field, .seg, label') || el) : (el.type === 'file' ? el.closest('label') : el);
    if (el.classList.contains('sr-only') || el.closest('.sr-only') && box === el) continue;
    const r = box.getBoundingClientRect();
    if (r.height < 44 || r.width < 44) small.push(`${el.tagName.toLowerCase()}#${el.id || ''}.${el.className || ''} "${(el.innerText || el.value || '').slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return small;
}"""


def test_touch_targets_are_at_least_44px_on_a_phone(browser, live_server, saved_list):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.base = live_server  # type: ignore[attr-defined]
    try:
        small = []
        for path in pages(saved_list):
            page.goto(live_server + path)
            small += [f"{path}: {s}" for s in page.evaluate(TARGETS)]
        for state in builder_states(page):
            small += [f"builder, {state}: {s}" for s in page.evaluate(TARGETS)]
        assert not small, "\n".join(small[:40]) + f"\n({len(small)} in all)"
    finally:
        context.close()


def test_rule_chips_are_not_tab_stops_but_still_read_on_tap(page: Page):
    page.goto(f"{page.base}/build/{BOOK}")
    expect(page.locator("#validity")).to_be_visible()
    page.check("#book-detailed")  # every unit's details open, its rule chips among them
    chips = page.locator("#book-units button.rule")
    expect(chips.nth(10)).to_be_attached()  # details are drawn as they open (a toggle event each)
    assert page.evaluate("[...document.querySelectorAll('button.rule')].every((b) => b.tabIndex === -1)")
    chips.first.click()
    expect(page.locator("#rule-tip")).to_be_visible()
    # Tabbing from the details switch goes straight to the first unit's controls, past its rules.
    page.locator("#book-detailed").focus()
    page.keyboard.press("Tab")
    expect(page.locator("#book-units .add-count").first).to_be_focused()


def test_the_legal_badge_has_aa_contrast(page: Page):
    page.goto(f"{page.base}/build/{BOOK}")
    page.get_by_role("button", name="Add Ember Priest", exact=True).click()
    expect(page.locator("#validity")).to_have_text("Legal")
    ratio = page.evaluate("""() => {
      const rgb = (c) => c.match(/\\d+/g).slice(0, 3).map(Number).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      const lum = (c) => { const [r, g, b] = rgb(c); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const s = getComputedStyle(document.getElementById('validity'));
      const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    }""")
    assert ratio >= 4.5, ratio


def test_keyboard_users_read_rule_texts_from_one_disclosure_per_unit(page: Page):
    page.goto(f"{page.base}/build/{BOOK}")
    expect(page.locator("#validity")).to_be_visible()
    card = page.locator("#book-cc-iron-sentinels")
    # From the card's last add control, Tab lands on "Details"; opened, the next Tab lands on its
    # one "Rules explained" (the chips are skipped).
    card.locator(".add-with").focus()
    page.keyboard.press("Tab")
    expect(card.locator(".unit-details > summary")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    summary = card.locator(".rule-texts summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("Rules explained")
    page.keyboard.press("Enter")
    texts = card.locator(".rule-texts dl")
    expect(texts).to_be_visible()
    for label in ("Tough(3)", "Relentless", "AP(1)"):  # the unit's rules and its weapons'
        expect(texts.locator("dt", has_text=label)).to_have_count(1)
    expect(texts).not_to_contain_text("No description")
    expect(card.locator(".rule-texts summary")).to_have_count(1)  # one per unit, not one per rule
    # In the editor: the live profile's rules, and the rules the upgrades would give; the
    # disclosure stays open, with the focus, when the profile is redrawn after a check.
    page.get_by_role("button", name="Add Ash Wardens", exact=True).click()
    page.locator("#toast-edit").click()  # nothing to choose: added at once, and Edit opens it
    upgrades = page.locator("#ed-upgrade-rules")
    upgrades.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#editor .rule-texts[open] dt", has_text="Relentless")).to_be_visible()  # Ember Drill gives it
    page.locator("#ed-cc-squad-drill--ember-drill").check()
    profile_rules = page.locator("#editor-profile .rule-texts summary").first
    profile_rules.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#editor-profile .rule-texts[open] dt", has_text="Relentless")).to_be_visible()
    page.locator("#ed-cc-squad-drill--smoke-grenades").check()  # another check redraws the profile
    expect(page.locator("#editor-profile .rule-texts[open] dt", has_text="Stealth")).to_be_visible()


CHIPS_OUT_OF_PLACE = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth) out.push(`page ${document.documentElement.scrollWidth} px wide`);
  for (const b of document.querySelectorAll('button.rule')) {
    const r = b.getBoundingClientRect();
    if (!r.width) continue;
    const box = b.closest('.unit-card, .profile-card, .option');
    if (box && r.right > box.getBoundingClientRect().right + 0.5) out.push(`${b.dataset.rule} past the edge of ${box.className}`);
    // In a gains line the brackets sit level with the chip: the line is at least as tall as it.
    const line = b.closest('.gain');
    if (line) {
      const l = line.getBoundingClientRect();
      if (r.top < l.top - 0.5 || r.bottom > l.bottom + 0.5) out.push(`${b.dataset.rule} sticks out of its gains line`);
    }
  }
  return out;
}"""


def test_rule_chips_stay_inside_their_cards_and_gains_lines(sized: Page):
    page = sized
    page.goto(f"{page.base}/build/{BOOK}")
    expect(page.locator("#validity")).to_be_visible()
    # The editor open: on a desktop the book's column is at its narrowest.
    page.get_by_role("button", name="Add pair: a combined pair of Ash Wardens").click()
    page.locator("#toast-edit").click()  # added at once, the editor on demand
    expect(page.locator("#editor .gain .rule").first).to_be_visible()
    assert page.evaluate(CHIPS_OUT_OF_PLACE) == []

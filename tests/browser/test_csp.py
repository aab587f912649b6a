"""Every page works under its Content-Security-Policy: Chromium reports no violation.

A listener installed before any page script records ``securitypolicyviolation`` events, and
the console is watched for "Refused to ..." messages, while each page loads and is used (the
builder adds a unit, previews a fight and opens the editor; Swagger UI renders the document).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
});
"""


@pytest.fixture()
def watched(page: Page):
    console: list[str] = []
    page.on(
        "console",
        lambda msg: (
            console.append(msg.text) if "Content Security Policy" in msg.text or "Refused to" in msg.text else None
        ),
    )
    page.add_init_script(RECORD_VIOLATIONS)
    yield page
    violations = page.evaluate("window.__violations || []")
    assert not violations and not console, f"CSP violations: {violations} {console}"


def test_home_and_system_pages(watched: Page):
    watched.goto(watched.base + "/")
    expect(watched.get_by_role("heading", name="Grimdark Future")).to_be_visible()
    watched.goto(watched.base + "/systems/grimdark-future")
    expect(watched.get_by_role("heading", name="Cinder Covenant")).to_be_visible()
    watched.goto(watched.base + "/no-such-page")
    expect(watched.locator("body")).to_contain_text("/no-such-page")


def test_builder_used_end_to_end(watched: Page):
    watched.goto(watched.base + "/build/gf-cinder-covenant")
    expect(watched.locator("#validity")).to_be_visible()
    watched.get_by_role("button", name="Add Ash Wardens", exact=True).click()
    watched.keyboard.press("Enter")  # the settings form must not submit (no inline handler)
    watched.select_option("#pv-book", label="Verdant Spore Choir")
    watched.select_option("#pv-defender", index=0)
    watched.select_option("#pv-s-attack", "shooting")
    watched.fill("#pv-s-range", "18")
    watched.click("#pv-run")
    expect(watched.locator("#preview-chart rect.bar").first).to_be_visible()
    watched.locator("#list-name").press("Enter")
    assert watched.url.endswith("/build/gf-cinder-covenant"), "Enter submitted the form"


@pytest.mark.parametrize("book", ["ah-iron-consulate", "arh-spartan-mechanised"])
def test_hex_builders_load(watched: Page, registry, book):
    book = (
        book
        if book in registry.books
        else next(
            b.id
            for b in registry.books.values()
            if b.system == ("ancients-hex" if book.startswith("ah-") else "armour-hex")
        )
    )
    watched.goto(f"{watched.base}/build/{book}")
    expect(watched.locator("#validity")).to_be_visible()


def test_swagger_ui_renders_the_api(watched: Page):
    watched.goto(watched.base + "/api/v1/docs")
    expect(watched.locator('.opblock-summary-path[data-path="/api/v1/lists/validate"]')).to_be_visible()
    watched.locator('.opblock-summary:has(.opblock-summary-path[data-path="/api/v1/lists/validate"])').click()
    expect(watched.locator(".opblock-body").first).to_be_visible()


def test_saved_list_pages(watched: Page):
    import json
    import urllib.request

    army = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "name": "CSP check",
        "units": [{"key": "a", "unit": "cc-ash-wardens"}],
    }
    request = urllib.request.Request(
        f"{watched.base}/api/v1/lists", data=json.dumps(army).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created = json.loads(response.read())
    watched.goto(f"{watched.base}/l/{created['id']}")
    expect(watched.locator("body")).to_contain_text("CSP check")
    watched.goto(f"{watched.base}/lists")
    expect(watched.locator("body")).to_be_visible()

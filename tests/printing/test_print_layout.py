"""The printed sheet and cards as a player reads them at the table: no heading is left at the
foot of a column without what it introduces, and copies of one unit are told apart."""

from __future__ import annotations

import json

import pytest

from listbuilder.lists.documents import parse_list
from listbuilder.printing.html import render_html
from listbuilder.printing.pdf import PRINT_STYLE, LocalFetcher, html_document, render_pdf
from listbuilder.printing.rosters import build_roster, roster_text
from tests.conftest import GOLDEN
from tests.printing.test_pdf import pdf_pages, squash

LEGAL = sorted(GOLDEN.glob("*/legal-*.json"))

# Twelve armour-hex units whose A4 sheet used to end its left column with the quick
# reference's heading and lead, the rules starting the right column (issue 37).
QUICK_REFERENCE_AT_THE_FOOT = {
    "system": "armour-hex",
    "book": "ah-hammerdeep-holds",
    "name": "Trial list",
    "units": [
        {"key": f"u{i}", "unit": unit}
        for i, unit in enumerate(
            [
                "anvil-tank",
                "gyro-scout",
                "bellows-crawler",
                "ram-riders",
                "ram-riders",
                "runesmith",
                "anvil-tank",
                "runesmith",
                "runesmith",
                "quarry-mortar",
                "anvil-tank",
                "mountain-fortress",
            ]
        )
    ],
}


def column_endings(roster, paper: str) -> list[tuple[str, str]]:
    """The innermost last element (tag, class) of every laid-out column but the last.

    The sheet is laid out one column to a page (listbuilder.printing.pdf.spread_css), so each
    page of WeasyPrint's document is one column of the paper."""
    html = render_html(roster, paper=paper, layout="sheet", asset_url=None)
    fonts, stylesheets = PRINT_STYLE.stylesheets(paper)
    with PRINT_STYLE.lock:
        columns = html_document(html, LocalFetcher()).render(
            stylesheets=stylesheets, font_config=fonts, counter_style=PRINT_STYLE.counters
        )
    endings = []
    for page in columns.pages[:-1]:
        box = next(c for c in page._page_box.children if getattr(c, "element_tag", None) == "html")
        last = ("html", "")
        while getattr(box, "children", None):
            box = box.children[-1]
            if box.element is not None and box.element_tag:
                last = (box.element_tag, box.element.get("class") or "")
        endings.append(last)
    return endings


def assert_no_heading_at_the_foot(roster, paper: str) -> None:
    for number, (tag, classes) in enumerate(column_endings(roster, paper), start=1):
        assert tag not in ("h1", "h2", "h3") and "lead" not in classes.split(), (
            f"column {number} on {paper} ends with <{tag} class={classes!r}>: its text is in the next column"
        )


def test_the_quick_reference_heading_stays_with_its_rules_on_a4(registry):
    assert_no_heading_at_the_foot(build_roster(registry, parse_list(QUICK_REFERENCE_AT_THE_FOOT)), "a4")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("path", LEGAL, ids=[f"{p.parent.name}/{p.stem}" for p in LEGAL])
def test_no_golden_sheet_ends_a_column_with_a_heading(registry, path, paper):
    army = parse_list(json.loads(path.read_text(encoding="utf-8"))["list"])
    assert_no_heading_at_the_foot(build_roster(registry, army), paper)


def three_hold_guards():
    """A list whose sixth unit on the table is three identical Hold Guard teams, with a fourth
    Hold Guard (renamed) between them, as the builder would number them #1 to #4."""
    units = [
        {"key": "tank", "unit": "anvil-tank"},
        {"key": "scout", "unit": "gyro-scout"},
        {"key": "crawler", "unit": "bellows-crawler"},
        {"key": "ram", "unit": "ram-riders"},
        {"key": "mortar", "unit": "quarry-mortar"},
        {"key": "g1", "unit": "hold-guard"},
        {"key": "g2", "unit": "hold-guard"},
        {"key": "g4", "unit": "hold-guard", "name": "Gate Wardens"},
        {"key": "g3", "unit": "hold-guard"},
    ]
    return {"system": "armour-hex", "book": "ah-hammerdeep-holds", "name": "Copies", "units": units}


def test_copies_of_one_unit_get_their_own_numbers_and_builder_marks(registry):
    roster = build_roster(registry, parse_list(three_hold_guards()))
    guards = next(b for b in roster.blocks if b.profile.name == "Hold Guard")
    assert (guards.number, guards.copies) == (6, 3)
    assert guards.numbers == ("6a", "6b", "6c") and guards.number_text == "6a–6c"
    # The builder names entries of one name "#1", "#2" ... in list order: g1, g2, g3
    assert guards.copy_marks == ("#1", "#2", "#3")
    alone = next(b for b in roster.blocks if b.profile.name == "Gate Wardens")
    assert alone.numbers == ("7",) and alone.copy_marks == ()


def test_each_printed_card_of_a_copy_has_its_own_number(registry):
    roster = build_roster(registry, parse_list(three_hold_guards()))
    text = squash("\n".join(pdf_pages(render_pdf(roster, layout="cards"))))
    for number, mark in (("6a", "#1"), ("6b", "#2"), ("6c", "#3")):
        assert squash(f"{number} · Hold Guard {mark}") in text
    assert squash("6 · Hold Guard") not in text
    sheet = squash("\n".join(pdf_pages(render_pdf(roster))))
    assert squash("6a–6c · 3× Hold Guard") in sheet


def test_the_text_roster_numbers_copies_as_the_sheet_does(registry):
    lines = roster_text(build_roster(registry, parse_list(three_hold_guards()))).splitlines()
    assert any(line.startswith("6a–6c. 3× Hold Guard [") for line in lines)
    assert any(line.startswith("7. Gate Wardens (Hold Guard) [") for line in lines)
    assert not any(line.startswith("6. ") for line in lines)


def test_the_illegal_banner_counts_in_words(registry):
    case = json.loads((GOLDEN / "age-of-fantasy" / "illegal-combined-different-unit.json").read_text(encoding="utf-8"))
    roster = build_roster(registry, parse_list(case["list"]))
    assert [i.severity for i in roster.issues] == ["error"]
    text = squash("\n".join(pdf_pages(render_pdf(roster))))
    assert squash("This army breaks 1 army-building rule.") in text and "(s)" not in text


def test_a_system_whose_name_holds_its_edition_is_not_named_twice(registry):
    path = next((GOLDEN / "age-of-fantasy-regiments").glob("legal-*.json"))
    roster = build_roster(registry, parse_list(json.loads(path.read_text(encoding="utf-8"))["list"]))
    assert roster.system_label == "Age of Fantasy Regiments"
    assert "Regiments regiments" not in roster_text(roster)
    assert "Regimentsregiments" not in squash("\n".join(pdf_pages(render_pdf(roster))))


def test_the_roster_names_the_rules_as_players_are_told_them_not_the_maintainers_label(registry):
    """issue 37 (11): the armour-hex header read "Armour Hex draft (rulebook 004)", a file number."""
    path = next((GOLDEN / "armour-hex").glob("legal-*.json"))
    roster = build_roster(registry, parse_list(json.loads(path.read_text(encoding="utf-8"))["list"]))
    assert roster.system_label == "Armour Hex, draft rules"
    assert "rulebook 004" not in roster_text(roster)
    assert "rulebook004" not in squash("\n".join(pdf_pages(render_pdf(roster))))

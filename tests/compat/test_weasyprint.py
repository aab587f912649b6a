"""WeasyPrint still calls (or reads) every hook of ``listbuilder.compat.weasyprint``.

Each test goes through WeasyPrint's public entry points (``HTML.render``, ``Document.copy``,
``write_pdf``) and watches the hook being used: after an upgrade that renames or drops the
internal, these fail instead of rosters silently losing their speed or their layout.
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ElementTree

import pytest
from pypdf import PdfReader
from weasyprint import CSS, HTML

from listbuilder.compat import weasyprint as compat
from listbuilder.lists.documents import parse_list
from listbuilder.printing.pdf import PRINT_STYLE, LocalFetcher
from listbuilder.printing.rosters import build_roster
from tests.conftest import GOLDEN

PAGE = "<html><body><p>Hold the line</p><p>Second page</p></body></html>"
SMALL_PAGES = "@page { size: 200px 300px; margin: 0 } p { break-after: page }"


def text_of(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


class Watched(compat.OwnUserAgentHTML):
    """A document counting the calls WeasyPrint makes for its user-agent stylesheets."""

    calls = 0

    def user_agent_stylesheets(self) -> list[CSS]:
        Watched.calls += 1
        return [CSS(string="@page { size: 123px 456px }")]


def test_render_takes_the_user_agent_stylesheets_from_our_hook():
    Watched.calls = 0
    document = Watched(string=PAGE).render()
    assert Watched.calls >= 1
    # the page size is set only by the user-agent sheet: WeasyPrint styled the document with it
    assert (document.pages[0].width, document.pages[0].height) == (123, 456)


def test_a_document_from_our_parsed_tree_sets_what_html_init_sets():
    parsed = HTML(string=PAGE)
    ours = compat.html_from_tree(HTML, ElementTree.fromstring(PAGE), "file:///nowhere/", parsed.url_fetcher)
    # a new attribute of HTML.__init__ is one html_from_tree does not set yet
    assert set(vars(ours)) == set(vars(parsed))
    pdf = ours.render(stylesheets=[CSS(string=SMALL_PAGES)]).write_pdf()
    assert [text.strip() for text in text_of(pdf)] == ["Hold the line", "Second page"]


def test_write_pdf_paints_each_spread_and_reads_only_what_it_copies_from_a_page():
    document = HTML(string=PAGE).render(stylesheets=[CSS(string=SMALL_PAGES)])
    left, right = document.pages
    painted = []

    class WatchedSpread(compat.Spread):
        def paint(self, stream, scale=1):
            painted.append(self)
            super().paint(stream, scale)

    sheet = WatchedSpread(left, right, shift=100)
    # every public attribute of a Page is one a Spread carries (write_pdf may read any of them)
    assert {name for name in vars(left) if not name.startswith("_")} <= set(vars(sheet))
    pdf = document.copy([sheet]).write_pdf()
    assert painted == [sheet]
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) == 1 and "Hold the line" in pages[0].extract_text() and "Second page" in pages[0].extract_text()


def test_counter_style_rules_land_in_our_store_and_number_the_pages():
    counters = compat.new_counter_style()
    rules = CSS(
        string='@counter-style twice { system: fixed; symbols: "A" "B"; } @page { @top-left { content: "sheet " counter(page, twice) } }'
        + SMALL_PAGES
        + "@page { margin-top: 40px }",
        counter_style=counters,
    )
    assert "twice" in counters
    pdf = HTML(string=PAGE).render(stylesheets=[rules], counter_style=counters).write_pdf()
    assert [re.search(r"sheet (\S+)", text)[1] for text in text_of(pdf)] == ["A", "B"]


def test_font_subsetting_asks_our_open_arrays_for_sized_glyph_arrays(registry, monkeypatch):
    from weasyprint.pdf import fonts

    compat.install_open_arrays()
    assert isinstance(fonts.ffi, compat.OpenArrays)
    asked = []
    new = compat.OpenArrays.new
    monkeypatch.setattr(
        compat.OpenArrays, "new", lambda self, cdecl, init=None: asked.append(cdecl) or new(self, cdecl, init)
    )
    roster = build_roster(
        registry,
        parse_list(json.loads((GOLDEN / "grimdark-future" / "legal-2000-cinder-covenant.json").read_text())["list"]),
    )
    from listbuilder.printing.pdf import render_pdf

    render_pdf(roster)
    assert any(compat.SIZED_ARRAY.fullmatch(cdecl) and cdecl.startswith("hb_codepoint_t[") for cdecl in asked), asked


def test_open_arrays_are_sized_and_filled_as_cffi_would():
    from weasyprint.pdf import fonts

    compat.install_open_arrays()
    assert list(fonts.ffi.new("hb_codepoint_t[5]", [7, 8])) == [7, 8, 0, 0, 0]  # the rest zero, as for T[5]
    assert fonts.ffi.sizeof(fonts.ffi.new("char[4]")) == 4 and fonts.ffi.new("unsigned int *", 100)[0] == 100


# What WeasyPrint's user-agent stylesheet decides for the elements of a roster (and what our
# stylesheet does not set everywhere); inherited ones come along through the cascade.
UA_PROPERTIES = (
    "display",
    "margin_top",
    "margin_bottom",
    "margin_left",
    "margin_right",
    "padding_top",
    "padding_bottom",
    "padding_left",
    "padding_right",
    "font_weight",
    "font_size",
    "font_style",
    "list_style_type",
    "border_spacing",
    "border_collapse",
    "vertical_align",
    "direction",
    "break_after",
    "break_inside",
    "white_space",
    "text_indent",
    "hyphens",
    "overflow",
    "text_decoration_line",
    "box_sizing",
    "counter_reset",
)


@pytest.mark.parametrize(
    "case, layout",
    [
        ("grimdark-future/legal-2000-cinder-covenant.json", "sheet"),
        ("grimdark-future/legal-2000-cinder-covenant.json", "cards"),
        ("age-of-fantasy/illegal-points-over-limit.json", "sheet"),
        ("ancients-hex/fjordhold-attachment-errors.json", "sheet"),
        *[(str(path.relative_to(GOLDEN)), "sheet") for path in sorted(GOLDEN.glob("armour-hex/*.json"))[:1]],
    ],
)
def test_our_user_agent_stylesheet_styles_a_roster_as_weasyprints_does(registry, case, layout):
    """static/roster/ua.css replaces WeasyPrint's HTML5 stylesheet (its hundreds of rules cost
    style time on every render): every element of a roster computes the same either way, but
    for headings' PDF bookmarks, which a roster does without. (WeasyPrint's cascade,
    ``weasyprint.css.get_all_computed_styles``, is an internal: so this test lives here.)"""
    from weasyprint import UA_STYLESHEET
    from weasyprint.css import get_all_computed_styles

    from listbuilder.printing.html import render_html
    from listbuilder.printing.pdf import RosterHTML, html_document

    roster = build_roster(registry, parse_list(json.loads((GOLDEN / case).read_text(encoding="utf-8"))["list"]))
    fonts, stylesheets = PRINT_STYLE.stylesheets("a4")
    html = render_html(roster, layout=layout, asset_url=None, share_url="https://example.org/l/x")
    document = html_document(html, LocalFetcher())
    assert isinstance(document, RosterHTML) and UA_STYLESHEET not in document.user_agent_stylesheets()

    class WeasyPrints(RosterHTML):
        def user_agent_stylesheets(self) -> list[CSS]:
            return [UA_STYLESHEET]

    def computed(styled):
        style_for = get_all_computed_styles(
            styled, user_stylesheets=stylesheets, font_config=fonts, counter_style=PRINT_STYLE.counters
        )
        return [
            (element.tag, {name: style_for(element)[name] for name in UA_PROPERTIES})
            for element in styled.etree_element.iter()
        ]

    theirs = compat.html_from_tree(WeasyPrints, ElementTree.fromstring(html), document.base_url, document.url_fetcher)
    ours, weasyprints = computed(document), computed(theirs)
    assert len(ours) > 50
    for (tag, mine), (_, other) in zip(ours, weasyprints, strict=True):
        assert mine == other, tag

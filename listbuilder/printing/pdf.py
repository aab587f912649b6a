"""Roster -> HTML (Jinja, ``templates/roster/``) -> PDF (WeasyPrint), with a content-hash cache
(``listbuilder.printing.pdf_cache``: in-process, or Redis when ``REDIS_URL`` is set).

Two columns without CSS columns: WeasyPrint lays a multi-column box out three or four times
(a trial per column, a look-ahead at everything left, then the real pass), which was most of a
roster's render time. So the sheet is laid out once as a single column on pages whose right
margin covers the second column (:func:`spread_css`), and each pair of those pages is painted
onto one sheet of paper, the second shifted right by a column
(:class:`~listbuilder.compat.weasyprint.Spread`). WeasyPrint's
own pagination still decides every break (a unit is never split if it fits in a column).
The rest of a render is WeasyPrint's work per element, line and run of text: rosters are styled
by our own user-agent stylesheet (:class:`RosterHTML`), and the garbage collector is paused
while the box tree is alive.

The renderer is a leaf: it reads a :class:`~listbuilder.printing.rosters.Roster` and never computes a
rule. Two things keep untrusted list text harmless: Jinja autoescapes every value, so a name
such as ``<img src=file:///etc/passwd>`` prints as text; and :class:`LocalFetcher`, the only
way WeasyPrint can load anything, serves files from our own roster templates, stylesheet and
fonts and refuses every other URL (network, ``data:``, other files on disk).

Errors::

    ValueError   an unknown paper size (``PAPERS`` lists the known ones)
"""

from __future__ import annotations

import dataclasses
import mimetypes
import threading
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint import CSS, HTML
from weasyprint.document import Page
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from listbuilder.books.registry import BookRegistry
from listbuilder.compat.weasyprint import (
    OwnUserAgentHTML,
    Spread,
    html_from_tree,
    install_open_arrays,
    new_counter_style,
)
from listbuilder.lists.documents import parse_list
from listbuilder.model import ArmyList
from listbuilder.printing.assets import ASSET_FOLDERS, STATIC
from listbuilder.printing.budget import check_entries, check_roster
from listbuilder.printing.html import (
    LAYOUTS,
    PAPERS,
    asset_file_url,
    check_layout,
    check_paper,
    render_html,
)
from listbuilder.printing.pdf_cache import PdfCache, RedisCache, RenderCache, cache_from_env, cache_key
from listbuilder.printing.rosters import Roster, build_roster
from listbuilder.util.gc_pause import paused_gc

install_open_arrays()  # no C type parsed per glyph count when fonts are subset

__all__ = [
    "ASSET_FOLDERS",
    "LAYOUTS",
    "PAPERS",
    "PDF_CACHE",
    "RedisCache",
    "RenderCache",
    "cache_key",
    "check_paper",
    "render_html",
    "render_pdf",
    "roster_pdf",
    "warm_up",
]


class LocalFetcher(URLFetcher):
    """WeasyPrint's URL fetcher, reduced to files under :data:`ASSET_FOLDERS`.

    Every URL asked for is recorded in ``requested`` (tests assert on it); anything outside
    our folders, including symlinks and ``..`` that lead out of them, is refused.
    """

    def __init__(self, folders: Iterable[Path] = ASSET_FOLDERS):
        super().__init__(allowed_protocols=("file",), allow_redirects=False)
        self.folders = tuple(f.resolve() for f in folders)
        self.requested: list[str] = []
        self.refused: list[str] = []

    def local_path(self, url: str) -> Path | None:
        """The file *url* names if it is one of ours, else None."""
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            return None
        path = Path(url2pathname(unquote(parts.path))).resolve()
        if not path.is_file() or not any(path.is_relative_to(folder) for folder in self.folders):
            return None
        return path

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        self.requested.append(url)
        path = self.local_path(url)
        if path is None:
            self.refused.append(url)
            raise ValueError(f"the roster renderer loads only its own files, not {url[:200]!r}")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".ttf":
            mime = "font/ttf"
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": mime})


# The sheet's geometry in millimetres: outer page margins and the gap between the two columns.
MARGIN_TOP, MARGIN_SIDE, MARGIN_BOTTOM, COLUMN_GAP = 11.0, 9.0, 10.0, 4.0
MM_PER_POINT = 25.4 / 72
PX_PER_MM = 96 / 25.4  # WeasyPrint lays out in CSS pixels
# Units of the roster printed at warm-up, before gunicorn forks.
WARM_UP_UNITS = 12
# Physical page numbers go up to this many; the bounded roster (roster_budget) prints far fewer.
MAX_SHEETS = 40


def column_width(paper: str) -> float:
    """Width of one of the two columns on *paper*, in millimetres."""
    return (PAPERS[check_paper(paper)][0] * MM_PER_POINT - 2 * MARGIN_SIDE - COLUMN_GAP) / 2


def spread_css(paper: str) -> str:
    """The page rules of the two-column sheet on *paper*, for WeasyPrint.

    Each laid-out page is one column: its right margin covers the other column, and pages
    alternate left column (odd) and right column (even). Only the odd page of a pair prints
    the running header and footer, its corner boxes reaching over the right column; page
    numbers count sheets of paper, so a counter style maps the column page n to ceil(n / 2).
    """
    column = column_width(paper)
    right = MARGIN_SIDE + COLUMN_GAP + column
    sheets = " ".join(f'"{(n + 1) // 2}"' for n in range(1, 2 * MAX_SHEETS + 1))
    size = "letter" if paper == "letter" else "A4"
    # Side boxes get a set width, so WeasyPrint need not measure their text to share the side.
    left = f"width: {column:.2f}mm"
    corner = f"padding-right: {MARGIN_SIDE}mm; text-align: right"
    return f"""
@counter-style sheet {{ system: fixed; symbols: {sheets}; fallback: decimal; }}
@page {{ size: {size}; margin: {MARGIN_TOP}mm {right:.2f}mm {MARGIN_BOTTOM}mm {MARGIN_SIDE}mm; }}
@page :nth(2n+1) {{
  @top-left {{ {left}; }}
  @top-right {{ content: none; }}
  @top-right-corner {{ content: string(budget-code); font: bold 7.5pt "Roster Sans"; vertical-align: bottom; padding-bottom: 1.5mm; {corner}; }}
  @bottom-left {{ {left}; }}
  @bottom-right {{ content: none; }}
  @bottom-right-corner {{ content: "page " counter(page, sheet) " of " counter(pages, sheet); font: 7pt "Roster Sans"; vertical-align: top; padding-top: 1.5mm; {corner}; }}
}}
@page :nth(2n) {{
  @top-left {{ content: none; }} @top-right {{ content: none; }}
  @bottom-left {{ content: none; }} @bottom-right {{ content: none; }}
}}
.flow, .cards {{ columns: auto; }}
"""


def spreads(pages: list[Page], paper: str) -> list[Spread]:
    shift = (column_width(paper) + COLUMN_GAP) * PX_PER_MM
    return [Spread(pages[i], pages[i + 1] if i + 1 < len(pages) else None, shift) for i in range(0, len(pages), 2)]


class _PrintStyle:
    """The stylesheets and their fonts, parsed once per process and reused by every render.

    Parsing the CSS and registering the two bundled fonts costs more than laying out a short
    roster, so they are loaded on first use (through a :class:`LocalFetcher`, kept in
    ``fetcher`` for inspection), the page rules once per paper. WeasyPrint's font
    configuration is not meant to be shared between threads, so renders that use it take ``lock``.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._loaded: tuple[FontConfiguration, CSS] | None = None
        self._user_agent: list[CSS] | None = None
        self._pages: dict[str, CSS] = {}
        self.counters = new_counter_style()  # the page rules' @counter-style, handed to every render
        self.fetcher: LocalFetcher | None = None

    def get(self) -> tuple[FontConfiguration, CSS]:
        if self._loaded is None:
            self.fetcher = LocalFetcher()
            fonts = FontConfiguration()
            css = CSS(url=asset_file_url("roster/roster.css"), url_fetcher=self.fetcher, font_config=fonts)
            self._loaded = (fonts, css)
        return self._loaded

    def user_agent(self) -> list[CSS]:
        """``static/roster/ua.css``, WeasyPrint's default styles for the elements rosters use."""
        if self._user_agent is None:
            self.get()
            self._user_agent = [CSS(url=asset_file_url("roster/ua.css"), url_fetcher=self.fetcher)]
        return self._user_agent

    def stylesheets(self, paper: str) -> tuple[FontConfiguration, list[CSS]]:
        fonts, css = self.get()
        if paper not in self._pages:
            self._pages[paper] = CSS(
                string=spread_css(paper), url_fetcher=self.fetcher, font_config=fonts, counter_style=self.counters
            )
        return fonts, [css, self._pages[paper]]


PRINT_STYLE = _PrintStyle()


class RosterHTML(OwnUserAgentHTML):
    """A WeasyPrint document styled by our user-agent stylesheet (``static/roster/ua.css``)
    instead of WeasyPrint's HTML5 one: the same defaults for the elements a roster uses, without
    the hundreds of rules for every other element that WeasyPrint would match each time."""

    def user_agent_stylesheets(self) -> list[CSS]:
        return PRINT_STYLE.user_agent()


def html_document(html: str, url_fetcher: URLFetcher) -> HTML:
    """*html* as a WeasyPrint document: through the XML parser, or the HTML5 one when user text
    holds a character XML forbids (a control character in a name).

    Our templates write well-formed markup (XHTML syntax), so the C XML parser reads a roster
    in well under a millisecond, many times faster than WeasyPrint's pure-Python HTML5 parser.
    """
    base_url = STATIC.as_uri() + "/"
    try:
        return html_from_tree(RosterHTML, ElementTree.fromstring(html), base_url, url_fetcher)
    except ElementTree.ParseError:
        return RosterHTML(string=html, base_url=base_url, url_fetcher=url_fetcher)


def render_pdf(
    roster: Roster,
    *,
    paper: str = "a4",
    layout: str = "sheet",
    share_url: str | None = None,
    fetcher: LocalFetcher | None = None,
) -> bytes:
    """The roster as PDF bytes; pass a *fetcher* to inspect what the document asked for."""
    html = render_html(roster, paper=paper, layout=layout, share_url=share_url, asset_url=None)
    document = html_document(html, fetcher or LocalFetcher())
    with PRINT_STYLE.lock, paused_gc():  # the box tree lives until the PDF is written
        fonts, stylesheets = PRINT_STYLE.stylesheets(paper)
        columns = document.render(stylesheets=stylesheets, font_config=fonts, counter_style=PRINT_STYLE.counters)
        return columns.copy(spreads(columns.pages, paper)).write_pdf()


PDF_CACHE = cache_from_env()


def roster_pdf(
    registry: BookRegistry,
    army: ArmyList,
    *,
    paper: str = "a4",
    layout: str = "sheet",
    share_url: str | None = None,
    heading: str | None = None,
    cache: PdfCache | None = PDF_CACHE,
) -> bytes:
    """The PDF roster of *army* in *layout*, from *cache* when the same list was printed before.

    *heading* (an event's roster pack passes the player's name) leads the roster's title, so
    it is printed in the title and in the header of every page.
    Raises ListError (unknown system or book), ValueError (unknown paper or layout) and
    RosterTooLarge (over a work budget of ``listbuilder.printing.budget``), each before layout.
    """
    check_paper(paper), check_layout(layout)
    check_entries(army)
    key = cache_key(registry, army, paper, layout, share_url, heading) if cache is not None else ""
    if cache is not None and (hit := cache.get(key)) is not None:
        return hit
    roster = build_roster(registry, army)
    check_roster(roster)
    if heading:
        roster = dataclasses.replace(roster, name=f"{heading} — {roster.title}")
    pdf = render_pdf(roster, paper=paper, layout=layout, share_url=share_url)
    if cache is not None:
        cache.put(key, pdf)
    return pdf


def warm_up(registry: BookRegistry) -> None:
    """Pay before serving what the first PDF of a worker would: import WeasyPrint, parse the
    stylesheets (the page rules of every paper), register the fonts, compile both layouts'
    templates and lay out one small roster (Pango and fontconfig load lazily).
    ``listbuilder.web.warm_up`` calls it in gunicorn's master, before the fork."""
    PRINT_STYLE.user_agent()
    for paper in PAPERS:
        PRINT_STYLE.stylesheets(paper)
    book = next((b for b in registry.books.values() if b.units), None)
    if book is None:
        return
    # A dozen units: Pango's shaping and glyph caches then hold most of what a real list prints.
    units = [{"key": f"w{i}", "unit": unit.id} for i, unit in enumerate(book.units[:WARM_UP_UNITS])]
    roster = build_roster(registry, parse_list({"system": book.system, "book": book.id, "units": units}))
    render_html(roster, layout="cards", asset_url=None)
    render_pdf(roster)

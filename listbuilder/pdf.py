"""Roster -> HTML (Jinja, ``templates/roster/``) -> PDF (WeasyPrint), with a content-hash cache
(``listbuilder.pdf_cache``: in-process, or Redis when ``REDIS_URL`` is set).

The renderer is a leaf: it reads a :class:`~listbuilder.rosters.Roster` and never computes a
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
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from listbuilder.books import BookRegistry
from listbuilder.lists import parse_list
from listbuilder.model import ArmyList
from listbuilder.pdf_cache import PdfCache, RedisCache, RenderCache, cache_from_env, cache_key
from listbuilder.roster_budget import check_entries, check_roster
from listbuilder.rosters import Roster, build_roster

from listbuilder.roster_html import ASSET_FOLDERS, LAYOUTS, PAPERS, STATIC, asset_file_url, check_layout, check_paper, render_html

__all__ = ["ASSET_FOLDERS", "LAYOUTS", "PAPERS", "PDF_CACHE", "RedisCache", "RenderCache", "cache_key", "check_paper", "render_html", "render_pdf", "roster_pdf", "warm_up"]


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


class _PrintStyle:
    """The stylesheet and its fonts, parsed once per process and reused by every render.

    Parsing the CSS and registering the two bundled fonts costs more than laying out a short
    roster, so they are loaded on first use (through a :class:`LocalFetcher`, kept in
    ``fetcher`` for inspection). WeasyPrint's font configuration is not meant to be shared
    between threads, so renders that use it take ``lock``.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._loaded: tuple[FontConfiguration, CSS] | None = None
        self.fetcher: LocalFetcher | None = None

    def get(self) -> tuple[FontConfiguration, CSS]:
        if self._loaded is None:
            self.fetcher = LocalFetcher()
            fonts = FontConfiguration()
            css = CSS(url=asset_file_url("roster/roster.css"), url_fetcher=self.fetcher, font_config=fonts)
            self._loaded = (fonts, css)
        return self._loaded


PRINT_STYLE = _PrintStyle()


def render_pdf(
    roster: Roster, *, paper: str = "a4", layout: str = "sheet", share_url: str | None = None, fetcher: LocalFetcher | None = None
) -> bytes:
    """The roster as PDF bytes; pass a *fetcher* to inspect what the document asked for."""
    html = render_html(roster, paper=paper, layout=layout, share_url=share_url, asset_url=None)
    document = HTML(string=html, base_url=STATIC.as_uri() + "/", url_fetcher=fetcher or LocalFetcher())
    with PRINT_STYLE.lock:
        fonts, css = PRINT_STYLE.get()
        return document.write_pdf(stylesheets=[css], font_config=fonts)


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
    RosterTooLarge (over a work budget of ``listbuilder.roster_budget``), each before layout.
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
    stylesheet, register the fonts and lay out one small roster (Pango and fontconfig load
    lazily). ``listbuilder.web.warm_up`` calls it in gunicorn's master, before the fork."""
    book = next((b for b in registry.books.values() if b.units), None)
    if book is None:
        PRINT_STYLE.get()
        return
    army = parse_list({"system": book.system, "book": book.id, "units": [{"key": "w", "unit": book.units[0].id}]})
    render_pdf(build_roster(registry, army))

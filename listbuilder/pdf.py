"""Roster -> HTML (Jinja, ``templates/roster/``) -> PDF (WeasyPrint), with a content-hash cache.

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
import hashlib
import json
import mimetypes
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from listbuilder.books import BookRegistry
from listbuilder.model import ArmyList
from listbuilder.rosters import Roster, build_roster

from listbuilder.roster_html import ASSET_FOLDERS, LAYOUTS, PAPERS, STATIC, _file_url, check_layout, check_paper, render_html

__all__ = ["ASSET_FOLDERS", "LAYOUTS", "PAPERS", "check_paper", "render_html", "render_pdf", "roster_pdf"]


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
            css = CSS(url=_file_url("roster/roster.css"), url_fetcher=self.fetcher, font_config=fonts)
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


# --------------------------------------------------------------------------------------------
# Content-hash cache


def canonical_list(army: ArmyList) -> str:
    """The list as canonical JSON: same army, same text, however the request was spelled."""
    return json.dumps(dataclasses.asdict(army), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if hasattr(value, "items"):
        return dict(value.items())
    return str(value)


_BOOK_DIGESTS: dict[int, tuple[Any, str]] = {}


def books_version(registry: BookRegistry, army: ArmyList) -> str:
    """A digest of the book and system the list uses, so edited books never hit stale PDFs.

    Frozen model objects print the same ``repr`` for the same data; the digest is computed
    once per loaded book (the registry is built once per process).
    """
    book, system = registry.books.get(army.book), registry.systems.get(army.system)
    key = id(book) ^ (id(system) << 1)
    cached = _BOOK_DIGESTS.get(key)
    if cached is None or cached[0] is not book:
        digest = hashlib.sha256(repr((book, system)).encode()).hexdigest()
        cached = _BOOK_DIGESTS[key] = (book, digest)
    return cached[1]


def cache_key(registry: BookRegistry, army: ArmyList, paper: str, layout: str = "sheet", share_url: str | None = None) -> str:
    text = "\n".join(("roster-pdf/2", check_paper(paper), check_layout(layout), share_url or "", books_version(registry, army), canonical_list(army)))
    return hashlib.sha256(text.encode()).hexdigest()


class RenderCache:
    """A thread-safe LRU of rendered PDFs keyed by content hash (one per worker process)."""

    def __init__(self, max_entries: int = 64):
        self.max_entries = max_entries
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: str, value: bytes) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.max_entries:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)


PDF_CACHE = RenderCache()


def roster_pdf(
    registry: BookRegistry,
    army: ArmyList,
    *,
    paper: str = "a4",
    layout: str = "sheet",
    share_url: str | None = None,
    cache: RenderCache | None = PDF_CACHE,
) -> bytes:
    """The PDF roster of *army* in *layout*, from *cache* when the same list was printed before.

    Raises ListError (unknown system or book) and ValueError (unknown paper or layout).
    """
    key = cache_key(registry, army, paper, layout, share_url) if cache is not None else ""
    if cache is not None and (hit := cache.get(key)) is not None:
        return hit
    pdf = render_pdf(build_roster(registry, army), paper=paper, layout=layout, share_url=share_url)
    if cache is not None:
        cache.put(key, pdf)
    return pdf

"""WeasyPrint internals the roster renderer relies on (written against WeasyPrint 70).

- :class:`OwnUserAgentHTML` styles a document with our user-agent stylesheet: WeasyPrint reads
  a document's user-agent sheets from its private ``HTML._ua_stylesheets`` and has no option
  for them, and its HTML5 sheet's hundreds of rules are matched against every element.
- :func:`html_from_tree` makes a document from an element tree we parsed (the C XML parser)
  without ``HTML.__init__``, which always parses text itself with its pure-Python HTML5 parser;
  it sets the attributes ``__init__`` sets after parsing.
- :class:`Spread` is what ``Document.copy`` gets instead of WeasyPrint's ``Page`` objects: a
  sheet of paper painting two laid-out pages side by side. ``write_pdf`` reads a page's
  size, bleed, bookmarks, links, anchors and forms, and calls its ``paint`` with WeasyPrint's
  own PDF stream (whose ``stacked`` and ``transform`` we use).
- :func:`new_counter_style` makes the store of ``@counter-style`` rules that ``CSS`` and
  ``HTML.render`` share (its class lives in the internal ``weasyprint.css.counters``).
- :func:`install_open_arrays` swaps the cffi ``ffi`` of ``weasyprint.pdf.fonts`` for
  :class:`OpenArrays`: font subsetting asks it for ``hb_codepoint_t[n]`` arrays, n a glyph
  count, and cffi parses every new spelling of a C type with pycparser (milliseconds each, so
  a worker's first roster paid for each glyph count it had not printed yet). OpenArrays makes
  the same array from the open type ``hb_codepoint_t[]``, parsed once per process.

``tests/compat/test_weasyprint.py`` renders through ``HTML.render`` and ``write_pdf`` and checks
WeasyPrint still calls or reads each of these.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from typing import Any, TypeVar

import cssselect2
from weasyprint import CSS, HTML
from weasyprint.css.counters import CounterStyle
from weasyprint.document import Page
from weasyprint.pdf import fonts
from weasyprint.urls import URLFetcher

__all__ = [
    "CounterStyle",
    "OpenArrays",
    "OwnUserAgentHTML",
    "Spread",
    "html_from_tree",
    "install_open_arrays",
    "new_counter_style",
]

Document = TypeVar("Document", bound=HTML)


class OwnUserAgentHTML(HTML):
    """An HTML document whose user-agent stylesheets are :meth:`user_agent_stylesheets`,
    in place of WeasyPrint's HTML5 ones (a subclass says which)."""

    def user_agent_stylesheets(self) -> list[CSS]:
        raise NotImplementedError

    def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
        return self.user_agent_stylesheets()


def html_from_tree(cls: type[Document], root: ElementTree.Element, base_url: str, url_fetcher: URLFetcher) -> Document:
    """A *cls* document (an ``HTML`` subclass) of the parsed tree *root*, printed on paper
    (media type ``print``), its relative URLs resolved against *base_url*."""
    document = cls.__new__(cls)
    document.base_url = base_url
    document.url_fetcher = url_fetcher
    document.media_type = "print"
    document.wrapper_element = cssselect2.ElementWrapper.from_html_root(root, content_language=None)
    document.etree_element = document.wrapper_element.etree_element
    return document


class Spread:
    """One sheet of paper: a left-column page with the next page painted *shift* CSS pixels to
    its right. Links and anchors are the left page's (a roster has none)."""

    def __init__(self, left: Page, right: Page | None, shift: float):
        self.left, self.right, self.shift = left, right, shift
        self.width, self.height, self.bleed = left.width, left.height, left.bleed
        self.bookmarks, self.links, self.anchors, self.forms = left.bookmarks, left.links, left.anchors, left.forms

    def paint(self, stream: Any, scale: float = 1) -> None:
        self.left.paint(stream, scale)
        if self.right is not None:
            with stream.stacked():
                stream.transform(e=self.shift * scale)
                self.right.paint(stream, scale)


def new_counter_style() -> CounterStyle:
    """An empty store of ``@counter-style`` rules, to hand to ``CSS`` and ``HTML.render``."""
    return CounterStyle()


SIZED_ARRAY = re.compile(r"(\w+)\[(\d+)\]")


class OpenArrays:
    """A cffi ``FFI`` whose ``new("T[n]", items)`` is ``new("T[]", n)`` filled with *items*:
    the same array, with one C type for every *n*. Anything else goes to the wrapped ffi."""

    def __init__(self, ffi: Any):
        self.ffi = ffi

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ffi, name)

    def new(self, cdecl: str, init: Any = None) -> Any:
        sized = SIZED_ARRAY.fullmatch(cdecl)
        if sized is None:
            return self.ffi.new(cdecl, init)
        array = self.ffi.new(f"{sized[1]}[]", int(sized[2]))
        if init is not None:
            array[0 : len(init)] = init  # like T[n]'s initialiser: the rest stays zero
        return array


def install_open_arrays() -> None:
    """Route ``weasyprint.pdf.fonts``'s arrays through :class:`OpenArrays` (once). A WeasyPrint
    whose fonts module has no ``ffi`` of its own is left as it is: slower, never broken."""
    ffi = getattr(fonts, "ffi", None)
    if ffi is not None and not isinstance(ffi, OpenArrays):
        fonts.ffi = OpenArrays(ffi)

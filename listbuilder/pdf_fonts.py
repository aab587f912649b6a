"""WeasyPrint's font subsetting without a C declaration parsed for every new glyph count.

To embed only the glyphs a PDF prints, WeasyPrint 70 hands HarfBuzz two glyph lists per font
as ``ffi.new(f"hb_codepoint_t[{n}]", glyphs)``: *n* is how many glyphs the font prints, then
its highest glyph id plus one. cffi keeps C types by their spelling and parses each new
spelling with pycparser, re-reading WeasyPrint's declarations: 1.5-2 ms each, four for a sheet
(two fonts). A worker paid that for every roster whose glyph counts it had not printed yet, so
always for its first (measured on the Grimdark Future 2000-point sheet after the warm-up: 741 M
instructions against 658 M for the same sheet again, 79 M of the 83 M gap in those parses).

:func:`install` gives ``weasyprint.pdf.fonts`` the same ffi, but whose ``new`` makes a sized
array from the open array type (``hb_codepoint_t[]``), which is parsed once per process.
"""

from __future__ import annotations

import re
from typing import Any

from weasyprint.pdf import fonts

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


def install() -> None:
    """Route ``weasyprint.pdf.fonts``'s arrays through :class:`OpenArrays` (once). A WeasyPrint
    whose fonts module has no ``ffi`` of its own is left as it is: slower, never broken."""
    ffi = getattr(fonts, "ffi", None)
    if ffi is not None and not isinstance(ffi, OpenArrays):
        fonts.ffi = OpenArrays(ffi)

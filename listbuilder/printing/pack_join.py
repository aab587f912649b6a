"""Join rendered rosters into one PDF with a bookmark per roster, in a child process.

Why a child process: qpdf (through pikepdf) writes the joined document in C++ without letting
go of Python's lock, and freeing a joined document of hundreds of rosters holds it too. In a
gunicorn worker that lock is shared by the worker's threads, so a large pack held a ``/health``
asked of the same worker for that long (the figures are in docs/performance.md). In a child
the join has a lock of its own; the worker only streams bytes through pipes, which releases it.

The parent side is :func:`join`. The child is this file run as a script in isolated mode
(``python -I pack_join.py``): it imports only the standard library and pikepdf, never the
app, so it starts in a fraction of a roster's time, and lowers its own priority first
(``NICENESS``), so that on a busy machine the workers' requests get the CPU before the join.
Its input on stdin is, per roster, the bookmark's title and the PDF, each as a 4-byte
big-endian length and the bytes; its output on stdout is the joined PDF.
"""

from __future__ import annotations

import io
import struct
import subprocess
import sys
from collections.abc import Iterable, Iterator

_LENGTH = struct.Struct(">I")
TIMEOUT = 120  # seconds a join may take before the child is killed: far beyond any pack's join
# The child yields the CPU to the workers when the machine is busy: a pack's first download may
# wait a little longer, a light request should not wait behind it.
NICENESS = 10


class JoinFailed(RuntimeError):
    """The child could not join the rosters (its error output is the message)."""


def join(rosters: Iterable[tuple[str, bytes]], *, timeout: float = TIMEOUT) -> bytes:
    """The rosters' pages one after another, each roster's first page bookmarked with its
    title. Raises JoinFailed when the child fails or outlives *timeout* seconds."""
    framed = b"".join(_frames(rosters))
    child = subprocess.Popen(
        [sys.executable, "-I", __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        out, err = child.communicate(framed, timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise JoinFailed(f"joining the rosters took over {timeout} s") from None
    if child.returncode != 0:
        raise JoinFailed(
            err.decode("utf-8", "replace").strip()[-2000:] or f"the joining process ended with {child.returncode}"
        )
    return out


def _frames(rosters: Iterable[tuple[str, bytes]]) -> Iterator[bytes]:
    for title, pdf in rosters:
        encoded = title.encode("utf-8")
        yield from (_LENGTH.pack(len(encoded)), encoded, _LENGTH.pack(len(pdf)), pdf)


def _read_rosters(data: bytes) -> Iterator[tuple[str, bytes]]:
    at = 0
    while at < len(data):
        items = []
        for _ in range(2):
            (size,) = _LENGTH.unpack_from(data, at)
            items.append(data[at + _LENGTH.size : at + _LENGTH.size + size])
            at += _LENGTH.size + size
        yield items[0].decode("utf-8"), items[1]


def _join_here(rosters: Iterable[tuple[str, bytes]]) -> bytes:
    import pikepdf

    pack, opened = (
        pikepdf.new(),
        [],
    )  # qpdf reads the rosters' streams when the pack is written: keep them open till then
    with pack.open_outline() as outline:
        for title, pdf in rosters:
            opened.append(roster := pikepdf.open(io.BytesIO(pdf)))
            first = len(pack.pages)
            pack.pages.extend(roster.pages)
            outline.root.append(pikepdf.OutlineItem(title, first))
    out = io.BytesIO()
    pack.save(out)
    return out.getvalue()


if __name__ == "__main__":
    import os

    os.nice(NICENESS)
    sys.stdout.buffer.write(_join_here(_read_rosters(sys.stdin.buffer.read())))

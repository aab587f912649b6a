"""The roster pack's join runs in a child process (issue 25): qpdf holds Python's lock while it
writes a pack, which held up the other requests of the same gunicorn worker."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from listbuilder.printing import pack_join

ROOT = Path(__file__).resolve().parent.parent.parent


def blank_pdf(pages: int) -> bytes:
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page(page_size=(595, 842))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_rosters_are_joined_page_by_page_with_a_bookmark_each():
    joined = PdfReader(io.BytesIO(pack_join.join([("Ann Arbor", blank_pdf(2)), ("Zoë «Z» Ng", blank_pdf(1))])))
    assert len(joined.pages) == 3
    assert [(item.title, joined.get_destination_page_number(item)) for item in joined.outline] == [
        ("Ann Arbor", 0),
        ("Zoë «Z» Ng", 2),
    ]


def test_the_join_leaves_pikepdf_out_of_the_calling_process(tmp_path):
    """The calling process only pipes bytes: qpdf never runs under its lock."""
    script = (
        "import sys; from listbuilder.printing import pack_join; "
        "out = pack_join.join([('A', open(sys.argv[1], 'rb').read())]); "
        "print(out[:5].decode(), 'pikepdf' in sys.modules)"
    )
    roster = tmp_path / "roster.pdf"
    roster.write_bytes(blank_pdf(1))
    answer = subprocess.run(
        [sys.executable, "-c", script, str(roster)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.split() == ["%PDF-", "False"]


def test_a_roster_that_is_not_a_pdf_fails_the_join_with_the_childs_reason():
    with pytest.raises(pack_join.JoinFailed, match="(?i)pdf"):
        pack_join.join([("Ann", blank_pdf(1)), ("Bo", b"not a pdf at all")])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's niceness from /proc")
def test_the_joining_process_lowers_its_priority_below_the_workers():
    """On a busy machine the workers' requests get the CPU before a pack's join."""
    import os
    import threading

    seen: set[int] = set()
    done = threading.Event()

    def watch() -> None:
        mine = str(os.getpid())
        while not done.is_set():
            for stat in Path("/proc").glob("[0-9]*/stat"):
                try:
                    fields = stat.read_text().rsplit(")", 1)[1].split()
                    if fields[1] == mine and "pack_join" in (stat.parent / "cmdline").read_text():
                        seen.add(int(fields[16]))  # field 19 of stat: the nice value
                except (OSError, IndexError):
                    continue

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        pack_join.join([(f"P{n}", blank_pdf(1)) for n in range(300)])
    finally:
        done.set()
        watcher.join()
    assert pack_join.NICENESS > 0 and os.nice(0) + pack_join.NICENESS in seen, seen

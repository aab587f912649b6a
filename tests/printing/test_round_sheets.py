"""Printed pairings and standings sheets (listbuilder/printing/round_sheets.py): 40 rows to a page on A4 and Letter, names escaped, nothing fetched."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from listbuilder.printing.round_sheets import pairings_pdf, standings_csv, standings_pdf


def tables(n, bye=False):
    return {
        "number": 2,
        "pairings": [
            {"table": i, "players": [f"P{2 * i}", None if bye and i == n else f"P{2 * i + 1}"]} for i in range(1, n + 1)
        ],
    }


def standings(n):
    rows = [
        {
            "rank": i,
            "player": f"P{i}",
            "faction": "Cinder Covenant",
            "score": 3.0,
            "played": 1,
            "wins": 1,
            "draws": 0,
            "losses": 0,
            "byes": 0,
            "withdrawn": False,
            "tiebreakers": {"buchholz": 3},
        }
        for i in range(1, n + 1)
    ]
    return {"event": {"name": "Open"}, "rounds": 2, "tiebreakers": ["buchholz"], "standings": rows}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("count", "pages"), [(40, 1), (41, 2), (80, 2), (81, 3)])
def test_forty_tables_or_standings_rows_to_a_page(paper, count, pages):
    assert len(PdfReader(io.BytesIO(pairings_pdf("Open", tables(count), paper=paper))).pages) == pages
    assert len(PdfReader(io.BytesIO(standings_pdf(standings(count), paper=paper))).pages) == pages


def test_the_paper_is_the_one_asked_for_and_a_bye_prints_as_bye():
    reader = PdfReader(io.BytesIO(pairings_pdf("Open", tables(3, bye=True), paper="letter")))
    assert [round(float(x)) for x in reader.pages[0].mediabox[2:]] == [612, 792]
    text = reader.pages[0].extract_text()
    assert "Round 2 pairings" in text and "P6 bye" in text.replace("\n", " ")


def test_names_print_as_text_and_the_csv_defuses_formulas():
    body = standings(1)
    body["standings"][0]["player"] = "=cmd|<img src=file:///etc/passwd>"
    text = PdfReader(io.BytesIO(standings_pdf(body))).pages[0].extract_text()
    assert "<img src=file:///etc/passwd>" in text
    assert standings_csv(body).splitlines()[1].split(",")[1] == "'=cmd|<img src=file:///etc/passwd>"

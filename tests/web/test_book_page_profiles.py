"""The book page shows each unit's stats as the printed roster does (the family's sheet):
an armour-hex unit's speeds, facings and damage tables in words and tables, never the book
file's raw values (Python reprs of nested data), and an OPR unit's stat line as "Quality 4+"."""

from __future__ import annotations

import re
from html import unescape

import pytest

from listbuilder.printing.book_profiles import book_profiles


def _units(html: str) -> dict[str, str]:
    found = re.findall(r'<article class="book-unit searchable" id="unit-([^"]+)".*?</article>', html, re.S)
    bodies = re.findall(r'<article class="book-unit searchable" id="unit-[^"]+".*?</article>', html, re.S)
    return dict(zip(found, bodies, strict=True))


@pytest.mark.parametrize("book_id", ["ah-hammerdeep-holds", "ahx-fjordhold", "aof-ember-marches", "gf-spore-choir"])
def test_every_unit_shows_its_printed_stat_line_and_tables(client, registry, book_id):
    html = client.get(f"/books/{book_id}").get_data(as_text=True)
    units = _units(html)
    profiles = book_profiles(registry, registry.books[book_id])
    assert set(units) == set(profiles)
    for unit_id, body in units.items():
        text = unescape(body)
        assert "{'" not in text and "('" not in text, f"{unit_id}: raw book values on the page"
        profile = profiles[unit_id]
        for stat in profile.stats:
            assert f'<span class="stat-name">{stat.label}</span> {stat.value}' in text, (unit_id, stat)
        for panel in profile.panels:
            assert f"<caption>{panel.caption}</caption>" in text, (unit_id, panel.caption)
            cells = [unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", body)]
            for row in panel.rows:
                assert all(cell in cells for cell in row), (unit_id, row)


def test_an_armour_hex_unit_reads_as_on_its_printed_sheet(client):
    html = client.get("/books/ah-hammerdeep-holds").get_data(as_text=True)
    tank = unescape(_units(html)["anvil-tank"])
    assert "Speeds and orders" in tank and "By facing" in tank
    assert "Speeds ({'speed'" not in tank
    aof = unescape(_units(client.get("/books/aof-ember-marches").get_data(as_text=True))["crossbowmen"])
    assert '<span class="stat-name">Quality</span> 4+' in aof or '<span class="stat-name">Quality</span> 5+' in aof

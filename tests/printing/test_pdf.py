"""PDF rosters: every golden list prints, its text holds what the sheet promises, paper sizes,
the illegal-list banner, hostile names, the local-only URL fetcher and the render cache."""

from __future__ import annotations

import gc
import io
import json
import os
import re
import subprocess
import sys
import time

import pytest
from pypdf import PdfReader
from weasyprint import HTML

from listbuilder.lists.documents import parse_list
from listbuilder.printing.pdf import (
    ASSET_FOLDERS,
    PAPERS,
    PRINT_STYLE,
    STATIC,
    LocalFetcher,
    RedisCache,
    RenderCache,
    cache_key,
    render_pdf,
    roster_pdf,
)
from listbuilder.printing.quick_reference import Definitions
from listbuilder.printing.rosters import build_roster, sheet_for
from tests.conftest import GOLDEN
from tests.printing.test_rosters import ember, every_unit_list

CASES = sorted(GOLDEN.glob("*/*.json"))


def squash(text: str) -> str:
    """Text without any whitespace, so line wrapping in the PDF does not matter."""
    return re.sub(r"\s+", "", text)


def pdf_pages(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


def check_sheet(registry, army_data):
    """Render *army_data* and check the PDF text against its roster; returns (roster, pages)."""
    army = parse_list(army_data)
    roster = build_roster(registry, army)
    fetcher = LocalFetcher()
    pdf = render_pdf(roster, fetcher=fetcher)
    assert fetcher.refused == []
    pages = pdf_pages(pdf)
    text = squash("\n".join(pages))
    for block in roster.blocks:
        assert squash(block.title) in text, block.title  # merged copies print as "2× Name"
        for profile in (block.profile, *block.heroes):
            assert squash(profile.name) in text, profile.name
    # The page header of every page: the verification code and "page x of y".
    for number, page in enumerate(pages, start=1):
        assert f"code {roster.code}" in page and f"page {number} of {len(pages)}" in page
    # The quick reference: every rule used (label and our text), and no other rule's text.
    start = next(i for i, page in enumerate(pages) if "Quick reference" in page)
    reference = squash("\n".join(pages[start:]))
    book = registry.books[army.book]
    system = registry.systems[army.system]
    definitions = Definitions(book, system, sheet_for(system).glossary_keys)
    used = set(roster.rule_names)
    for name, rule in definitions.rules.items():
        label = definitions.label(name)
        if label in used:
            assert squash(label) in reference and squash(rule.text) in reference, label
        elif not any(
            squash(rule.text) == squash(definitions.rules[n].text)
            for n in definitions.rules
            if definitions.label(n) in used
        ):
            assert squash(rule.text) not in reference, f"{label} is printed but the list does not use it"
    return roster, pages


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_every_golden_list_prints(path, registry):
    case = json.loads(path.read_text(encoding="utf-8"))
    roster, pages = check_sheet(registry, case["list"])
    assert len(pages) <= 3  # A4; Letter in test_every_golden_list_prints_on_at_most_three_letter_pages
    if case["valid"]:
        assert all("Legal list" in page and "NOT A LEGAL LIST" not in page.upper() for page in pages)
    else:
        # The banner in full on page one, and the mark in the header of every page.
        assert "NOT A LEGAL LIST" in pages[0].upper()
        assert all("NOT A LEGAL LIST" in page for page in pages)


GOLDEN_GF_2000 = GOLDEN / "grimdark-future" / "legal-2000-cinder-covenant.json"


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_grimdark_future_2000_points_prints_on_two_pages(registry, paper):
    army = parse_list(json.loads(GOLDEN_GF_2000.read_text(encoding="utf-8"))["list"])
    pages = pdf_pages(roster_pdf(registry, army, paper=paper, cache=None))
    assert len(pages) == 2
    assert "Quick reference" in "".join(pages)  # the reference flows on; it does not add a page


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_every_golden_list_prints_on_at_most_three_letter_pages(registry, path):
    # A4 is checked with the text in test_every_golden_list_prints; Letter is shorter.
    army = parse_list(json.loads(path.read_text(encoding="utf-8"))["list"])
    assert len(PdfReader(io.BytesIO(roster_pdf(registry, army, paper="letter", cache=None))).pages) <= 3


def test_merged_and_grouped_units_print_as_one_block(registry):
    army = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "name": "Merged",
        "points_limit": 2000,
        "units": [
            {"key": "a", "unit": "cc-ash-wardens", "combined_with": "b"},
            {"key": "b", "unit": "cc-ash-wardens"},
            {"key": "h", "unit": "cc-pyre-marshal", "joined_to": "a"},
            {"key": "c", "unit": "cc-ash-wardens"},
            {"key": "d", "unit": "cc-ash-wardens"},
        ],
    }
    roster, pages = check_sheet(registry, army)
    text = squash("\n".join(pages))
    assert squash("2× Ash Wardens") in text
    assert "combined×2" in text and squash("+ joined: Pyre Marshal") in text
    assert [b.title for b in roster.blocks] == ["Ash Wardens", "2× Ash Wardens"]
    # the sheet's counts read as the builder's: entries, activations, models
    assert "UNITS5" in text.upper() and "ACTIVATIONS3" in text.upper()


@pytest.mark.parametrize(
    "book_id",
    ["aof-ember-marches", "ah-hammerdeep-holds", "ahx-fjordhold", "gf-cinder-covenant", "aofr-thornmarch-freeholds"],
)
def test_every_unit_of_a_book_prints(registry, book_id):
    if book_id not in registry.books:
        pytest.skip(f"no book {book_id} yet")
    check_sheet(registry, every_unit_list(registry.books[book_id]))


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_paper_size(registry, paper):
    army = parse_list(every_unit_list(registry.books["aof-ember-marches"]))
    reader = PdfReader(io.BytesIO(roster_pdf(registry, army, paper=paper, cache=None)))
    width, height = PAPERS[paper]
    assert len(reader.pages) > 1
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(width, abs=0.5)
        assert float(page.mediabox.height) == pytest.approx(height, abs=0.5)
    assert "page 1 of" in reader.pages[0].extract_text()


def test_illegal_list_banner_and_issues(registry):
    army = ember({"key": "k", "unit": "ember-knights"}, points_limit=100, name="Too big")
    roster = build_roster(registry, parse_list(army))
    first = pdf_pages(render_pdf(roster))[0]
    assert "NOT A LEGAL LIST" in first.upper()
    assert squash(roster.issues[0].message) in squash(first)


HOSTILE_NAME = "<img src=file:///etc/passwd>"
LONG_NAME = "Ω" + "Z" * 199
HEBREW = "שומרי האש"
ARABIC = "حراس اللهب"


def test_hostile_names_print_as_text_and_fetch_nothing(registry):
    army = ember(
        {
            "key": "a",
            "unit": "crossbowmen",
            "name": LONG_NAME,
            "notes": '<link rel="stylesheet" href="http://127.0.0.1:9/x.css"> url(file:///etc/shadow)',
        },
        {"key": "b", "unit": "march-swordsmen", "name": HEBREW},
        {"key": "c", "unit": "ash-penitents", "name": ARABIC, "notes": "<script>alert(1)</script>"},
        name=HOSTILE_NAME,
    )
    roster = build_roster(registry, parse_list(army))
    fetcher = LocalFetcher()
    pages = pdf_pages(render_pdf(roster, fetcher=fetcher))
    text = squash("\n".join(pages))
    assert squash(HOSTILE_NAME) in text
    assert squash(LONG_NAME) in text
    assert "<script>alert(1)</script>" in text
    assert "http://127.0.0.1:9/x.css" in text
    for rtl in (HEBREW, ARABIC):  # extraction order of right-to-left runs varies; the letters are there
        assert set(squash(rtl)) <= set(text)
    # Nothing was asked for but our own files: not the document, not its stylesheet and fonts.
    assert fetcher.refused == []
    for url in [*fetcher.requested, *(PRINT_STYLE.fetcher.requested if PRINT_STYLE.fetcher else [])]:
        assert fetcher.local_path(url) is not None, url


def test_page_header_cuts_a_long_title_to_one_line(registry):
    # A margin box cannot wrap: the full title is in the heading, the header has its first 59
    # characters and an ellipsis, so it never runs under "Legal list".
    army = {**every_unit_list(registry.books["aof-ember-marches"]), "name": LONG_NAME}
    pages = pdf_pages(render_pdf(build_roster(registry, parse_list(army))))
    assert len(pages) > 1
    assert squash(LONG_NAME) in squash(pages[0])
    later = squash(pages[-1])
    assert squash(LONG_NAME) not in later
    assert squash(LONG_NAME[:59] + "…") in later


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://127.0.0.1:9/x.css",
        "https://example.com/font.ttf",
        "data:text/css,body{color:red}",
        "ftp://example.com/x",
        (STATIC / "roster" / ".." / ".." / "pyproject.toml").as_uri(),
        "file://evil.example/work/main/static/roster/roster.css",
    ],
)
def test_fetcher_refuses_everything_outside_our_folders(url):
    fetcher = LocalFetcher()
    with pytest.raises(ValueError):
        fetcher.fetch(url)
    assert fetcher.refused == [url]


def test_fetcher_serves_our_files():
    fetcher = LocalFetcher()
    response = fetcher.fetch((STATIC / "fonts" / "DejaVuSansCondensed.ttf").as_uri())
    try:
        assert response.read(4) == b"\x00\x01\x00\x00"
    finally:
        response.close()
    assert all(folder.is_dir() for folder in ASSET_FOLDERS)


def test_raw_html_cannot_reach_out_through_the_fetcher():
    fetcher = LocalFetcher()
    html = '<link rel="stylesheet" href="http://127.0.0.1:9/x.css"><p>x<img src="file:///etc/passwd"></p>'
    HTML(string=html, base_url=STATIC.as_uri() + "/", url_fetcher=fetcher).write_pdf()
    assert set(fetcher.refused) == {"http://127.0.0.1:9/x.css", "file:///etc/passwd"}


def test_cache_serves_identical_requests(registry):
    cache = RenderCache(max_entries=2)
    army = parse_list(ember({"key": "c", "unit": "crossbowmen"}))
    first = roster_pdf(registry, army, cache=cache)
    assert roster_pdf(registry, army, cache=cache) is first
    assert (cache.hits, cache.misses) == (1, 1)
    roster_pdf(registry, army, paper="letter", cache=cache)
    assert cache.misses == 2 and len(cache) == 2


def test_cache_key_is_the_content_not_the_spelling(registry):
    one = parse_list(
        {"system": "age-of-fantasy", "book": "aof-ember-marches", "units": [{"key": "c", "unit": "crossbowmen"}]}
    )
    two = parse_list(
        {
            "units": [{"unit": "crossbowmen", "upgrades": [], "key": "c"}],
            "book": "aof-ember-marches",
            "system": "age-of-fantasy",
            "name": "",
        }
    )
    other = parse_list(
        {
            "system": "age-of-fantasy",
            "book": "aof-ember-marches",
            "units": [{"key": "c", "unit": "crossbowmen", "name": "X"}],
        }
    )
    assert cache_key(registry, one, "a4") == cache_key(registry, two, "a4")
    assert cache_key(registry, one, "a4") != cache_key(registry, one, "letter")
    assert cache_key(registry, one, "a4") != cache_key(registry, other, "a4")
    assert cache_key(registry, one, "a4") != cache_key(registry, one, "a4", "cards")
    assert cache_key(registry, one, "a4") != cache_key(registry, one, "a4", "sheet", "http://x/l/A")


def test_cache_evicts_least_recently_used():
    cache = RenderCache(max_entries=2)
    cache.put("a", b"1")
    cache.put("b", b"2")
    assert cache.get("a") == b"1"
    cache.put("c", b"3")
    assert cache.get("b") is None and cache.get("a") == b"1" and cache.get("c") == b"3"


def test_roster_rasterises(registry):
    """A PDF viewer's renderer (PDFium) draws the first page, with ink on it but mostly paper."""
    pdfium = pytest.importorskip("pypdfium2")
    army = parse_list(every_unit_list(registry.books["aof-ember-marches"]))
    page = pdfium.PdfDocument(roster_pdf(registry, army, cache=None))[0]
    grey = page.render(scale=0.5).to_pil().convert("L")
    inked = sum(count for shade, count in enumerate(grey.histogram()) if shade < 128) / (grey.width * grey.height)
    assert 0.01 < inked < 0.5, inked


def _largest_legal_golden(system: str) -> dict:
    cases = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((GOLDEN / system).glob("*.json"))]
    return max((c["list"] for c in cases if c["valid"]), key=lambda army: len(army["units"]))


SYSTEMS = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())


@pytest.mark.parametrize("system", SYSTEMS)
def test_unit_cards_render_for_every_system(registry, system):
    army = parse_list(_largest_legal_golden(system))
    roster = build_roster(registry, army)
    pages = pdf_pages(roster_pdf(registry, army, layout="cards", cache=None))
    text = squash("\n".join(pages))
    for block in roster.blocks:
        # one card per unit on the table, none says "2×": copies of one unit get the same card,
        # each with a number of its own (6a, 6b) and the builder's mark (#1, #2)
        for number, mark in zip(block.numbers, block.copy_marks or ("",), strict=False):
            assert text.count(f"{number}·{squash(block.profile.name)}{mark}") == 1, (number, block.title)
        # each card explains the rules its unit carries, in our own words
        for rule in roster.rules_of(block):
            assert squash(rule.label) + squash(rule.text) in text, rule.label
    for number, page in enumerate(pages, start=1):
        assert f"code {roster.code}" in page and f"page {number} of {len(pages)}" in page
    assert "Quick reference" not in text  # the rules are on the cards


def test_identical_units_get_one_card_each(registry):
    army = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "name": "Cards",
        "points_limit": 2000,
        "units": [
            {"key": "a", "unit": "cc-ash-wardens"},
            {"key": "b", "unit": "cc-ash-wardens"},
            {"key": "c", "unit": "cc-ash-wardens"},
            {"key": "d", "unit": "cc-ash-wardens", "name": "Wardens of the Gate"},
        ],
    }
    roster = build_roster(registry, parse_list(army))
    assert [(b.title, b.copies) for b in roster.blocks] == [("3× Ash Wardens", 3), ("Wardens of the Gate", 1)]
    text = squash("\n".join(pdf_pages(roster_pdf(registry, parse_list(army), layout="cards", cache=None))))
    # the same card three times, each copy numbered apart: 1a, 1b, 1c, and the builder's #1-#3
    assert [text.count(f"1{letter}·AshWardens#{n}") for letter, n in zip("abc", "123", strict=True)] == [1, 1, 1]
    assert text.count("·AshWardens") == 3 and text.count("2·WardensoftheGate") == 1
    assert "3×" not in text and "modelseach" not in text  # a card is one unit: its own models and cost


def test_api_prints_cards_and_names_the_code(client, registry):
    army = _largest_legal_golden("grimdark-future")
    sheet = client.post("/api/v1/rosters/pdf", json=army)
    cards = client.post("/api/v1/rosters/pdf?layout=cards&paper=letter", json=army)
    assert sheet.status_code == cards.status_code == 200
    code = sheet.headers["X-Verification-Code"]
    assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}", code)
    assert cards.headers["X-Verification-Code"] == code == build_roster(registry, parse_list(army)).code
    for response in (sheet, cards):
        assert all(f"code {code}" in page for page in pdf_pages(response.data))
    assert "Quick reference" in "".join(pdf_pages(sheet.data)) and "Quick reference" not in "".join(
        pdf_pages(cards.data)
    )
    assert client.post("/api/v1/rosters/text", json=army).headers["X-Verification-Code"] == code
    wrong = client.post("/api/v1/rosters/pdf?layout=poster", json=army)
    assert wrong.status_code == 422 and "query.layout" in wrong.get_json()["errors"]


def test_cli_prints_cards(registry, tmp_path, capsys):
    from listbuilder.cli import main

    source = tmp_path / "list.json"
    source.write_text(json.dumps(_largest_legal_golden("ancients-hex")), encoding="utf-8")
    out = tmp_path / "cards.pdf"
    assert main(["pdf", str(source), "-o", str(out), "--layout", "cards"]) == 0
    text = "".join(pdf_pages(out.read_bytes()))
    assert "keyword troops" in text and "Quick reference" not in text


# .ci/run sets TEST_REDIS_URL when Redis answers on 127.0.0.1:6379 (database 15 is the tests').
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _redis_or_skip() -> RedisCache:
    import redis

    cache = RedisCache(REDIS_URL, prefix="listbuilder-test:roster-pdf:", timeout=1.0)
    try:
        cache.client.ping()
    except (redis.RedisError, OSError) as error:
        pytest.skip(
            f"no Redis answers at {REDIS_URL} ({error}); the shared cache is tested against a real one (set TEST_REDIS_URL)"
        )
    return cache


def test_redis_cache_is_shared_between_processes(registry):
    cache = _redis_or_skip()
    cache.clear()
    army = parse_list(ember({"key": "c", "unit": "crossbowmen"}))
    first = roster_pdf(registry, army, cache=cache)
    assert (cache.hits, cache.misses, len(cache)) == (0, 1, 1)
    # another worker (a new client, as after a fork or on another machine) finds it
    other = RedisCache(REDIS_URL, prefix=cache.prefix)
    assert roster_pdf(registry, army, cache=other) == first and other.hits == 1
    cache.clear()
    assert len(cache) == 0


def test_redis_outage_costs_a_render_not_an_error(registry):
    cache = RedisCache("redis://127.0.0.1:9/0", timeout=0.1)  # nothing listens on port 9
    army = parse_list(ember({"key": "c", "unit": "crossbowmen"}))
    assert roster_pdf(registry, army, cache=cache).startswith(b"%PDF")
    assert cache.errors == 1 and cache.misses == 1 and cache.paused  # the write after a failed read is not tried


class _CountingClient:
    """Stands in for a Redis client that fails (down, or hanging until its timeout) and counts the calls."""

    def __init__(self, error: Exception):
        self.calls, self.error = 0, error

    def get(self, key):
        self.calls += 1
        raise self.error

    set = get


@pytest.mark.parametrize("error", [ConnectionRefusedError("down"), TimeoutError("Timeout reading from socket")])
def test_after_a_redis_failure_the_worker_skips_redis_and_serves_its_own_cache(registry, monkeypatch, error):
    """Issue 25: with Redis down every PDF paid a refused connection and two warnings; hanging, 0.5 s each."""
    cache = RedisCache("redis://127.0.0.1:9/0", pause=30)
    cache.client = client = _CountingClient(error)
    army = parse_list(ember({"key": "c", "unit": "crossbowmen", "name": "Breaker"}))
    first = roster_pdf(registry, army, cache=cache)
    assert client.calls == 1 and cache.paused
    assert (
        roster_pdf(registry, army, cache=cache) == first and client.calls == 1 and cache.hits == 1
    )  # from the worker's LRU
    clock = time.monotonic() + 31
    monkeypatch.setattr("listbuilder.printing.pdf_cache.time.monotonic", lambda: clock)
    assert not cache.paused
    roster_pdf(registry, army, cache=cache)
    assert client.calls == 2  # tried again once the pause is over


def test_redis_back_after_an_outage_is_used_again(registry, monkeypatch):
    cache = _redis_or_skip()
    cache.clear()
    working = cache.client
    cache.client = _CountingClient(ConnectionRefusedError("down"))
    army = parse_list(ember({"key": "c", "unit": "crossbowmen", "name": "Back again"}))
    roster_pdf(registry, army, cache=cache)
    assert cache.paused and len(RedisCache(REDIS_URL, prefix=cache.prefix)) == 0
    cache.client = working
    monkeypatch.setattr("listbuilder.printing.pdf_cache.time.monotonic", lambda: 1e12)
    roster_pdf(registry, parse_list(ember({"key": "c", "unit": "crossbowmen", "name": "Back again 2"})), cache=cache)
    assert len(RedisCache(REDIS_URL, prefix=cache.prefix)) == 1
    cache.clear()


def test_layout_and_painting_run_with_the_collector_paused(registry, monkeypatch):
    import listbuilder.printing.pdf as pdf_module

    seen = []
    spreads = pdf_module.spreads
    monkeypatch.setattr(
        pdf_module, "spreads", lambda pages, paper: seen.append(gc.isenabled()) or spreads(pages, paper)
    )
    render_pdf(build_roster(registry, parse_list(ember({"key": "c", "unit": "crossbowmen"}))))
    assert seen == [False] and gc.isenabled()


def test_warm_up_loads_weasyprint_which_create_app_does_not(tmp_path):
    code = (
        "import sys; from listbuilder.web import create_app, warm_up; "
        "app = create_app({'DATABASE_URL': 'sqlite:///' + sys.argv[1]}); print('weasyprint' in sys.modules); "
        "warm_up(app); from listbuilder.printing.pdf import PRINT_STYLE; print('weasyprint' in sys.modules, PRINT_STYLE.fetcher is not None)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "warm.sqlite3")], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "True", "True"]


def test_a_fresh_worker_parses_no_c_type_for_glyph_counts_the_warm_up_did_not_print(tmp_path):
    """WeasyPrint asks cffi for ``hb_codepoint_t[n]``, n a font's glyph count; cffi parsed each
    new n with pycparser (1.5-2 ms, four per sheet), so a worker's first roster paid it."""
    code = (
        "import json, sys, cffi.cparser; from listbuilder.web import create_app, warm_up; from listbuilder.lists.documents import parse_list; "
        "app = warm_up(create_app({'DATABASE_URL': 'sqlite:///' + sys.argv[1]})); from listbuilder.printing.pdf import roster_pdf; "
        "parsed = []; parse = cffi.cparser.Parser.parse_type_and_quals; "
        "cffi.cparser.Parser.parse_type_and_quals = lambda self, cdecl: parsed.append(cdecl) or parse(self, cdecl); "
        "army = parse_list(json.loads(open(sys.argv[2], encoding='utf-8').read())['list']); "
        "roster_pdf(app.extensions['listbuilder.registry'], army, heading='Ωμέγα Ψυχή Ζέφυρος', cache=None); print(len(parsed))"
    )
    case = GOLDEN / "grimdark-future" / "legal-2000-cinder-covenant.json"
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "warm.sqlite3"), str(case)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["0"]


def test_roster_over_the_entry_budget_is_422_by_its_schema(client):
    from listbuilder.printing.budget import MAX_ENTRIES, RosterTooLarge, check_entries

    army = ember(*({"key": f"u{i}", "unit": "crossbowmen"} for i in range(MAX_ENTRIES + 1)))
    for kind in ("pdf", "html", "text"):
        response = client.post(f"/api/v1/rosters/{kind}", json=army)
        assert response.status_code == 422, kind
        assert "units" in response.get_json()["errors"]
    spec = client.get("/api/v1/openapi.json").get_json()
    assert spec["components"]["schemas"]["RosterList"]["properties"]["units"]["maxItems"] == MAX_ENTRIES
    # the CLI and the saved-list PDF (whose lists may hold 300) meet the same bound as 413
    with pytest.raises(RosterTooLarge):
        check_entries(parse_list(army))


def test_roster_over_the_printed_lines_budget_is_413(client, registry):
    from listbuilder.printing.budget import MAX_ENTRIES, MAX_PRINTED_LINES, printed_lines

    army = ember(*({"key": f"u{i}", "unit": "crossbowmen", "notes": f"{i} " + "n" * 1990} for i in range(MAX_ENTRIES)))
    assert printed_lines(build_roster(registry, parse_list(army))) > MAX_PRINTED_LINES
    response = client.post("/api/v1/rosters/pdf", json=army)
    assert response.status_code == 413 and "lines" in response.get_json()["errors"]["units"][0]


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_every_golden_list_is_far_under_the_roster_budget(registry, path):
    from listbuilder.printing.budget import MAX_PRINTED_LINES, printed_lines

    roster = build_roster(registry, parse_list(json.loads(path.read_text(encoding="utf-8"))["list"]))
    assert printed_lines(roster) * 4 < MAX_PRINTED_LINES


def test_saved_list_pdf_qr_code_decodes_to_its_share_link(saved_client):
    """A phone at the table reads the QR code: rasterise page one and decode it with a real reader."""
    pdfium = pytest.importorskip("pypdfium2")
    zxingcpp = pytest.importorskip("zxingcpp")
    body = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "name": "Scan me",
        "points_limit": 1000,
        "units": [{"key": "a", "unit": "cc-ash-wardens"}, {"key": "b", "unit": "cc-ash-wardens"}],
    }
    made = saved_client.post("/api/v1/lists", json=body).json
    for layout in ("sheet", "cards"):
        response = saved_client.get(f"/api/v1/lists/{made['id']}/roster.pdf?layout={layout}")
        assert response.status_code == 200
        page = pdfium.PdfDocument(response.data)[0]
        image = page.render(scale=150 / 72).to_pil()  # 150 dpi: about what a phone camera resolves
        found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
        assert [code.text for code in found] == [made["share_url"]], layout


def test_roster_markup_is_read_by_the_xml_parser_and_html5_takes_what_xml_forbids(registry, monkeypatch):
    import listbuilder.printing.pdf as pdf_module
    from listbuilder.printing.html import render_html

    from_tree = []
    made = pdf_module.html_from_tree
    monkeypatch.setattr(pdf_module, "html_from_tree", lambda *args: from_tree.append(args[0]) or made(*args))
    army = json.loads(GOLDEN_GF_2000.read_text(encoding="utf-8"))["list"]
    roster = build_roster(registry, parse_list(army))
    assert isinstance(
        pdf_module.html_document(
            render_html(roster, asset_url=None, share_url="https://example.org/l/x"), LocalFetcher()
        ),
        pdf_module.RosterHTML,
    )
    assert from_tree == [pdf_module.RosterHTML]
    # a control character is legal in a JSON string but not in XML: the HTML5 parser reads it
    roster = build_roster(registry, parse_list({**army, "name": "Ash\x01Host"}))
    assert isinstance(
        pdf_module.html_document(render_html(roster, asset_url=None), LocalFetcher()), pdf_module.RosterHTML
    )
    assert from_tree == [pdf_module.RosterHTML]
    # the control character prints as .notdef, after which pypdf reads the bold font's text with NULs
    first = pdf_pages(render_pdf(roster))[0].replace("\x00", "")
    assert "Ash" in first and "Host" in first and f"code {roster.code}" in first

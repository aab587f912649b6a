"""The rendered-PDF key follows the files a roster is made from: an edited template,
stylesheet or font makes a new key by itself, with no version to bump by hand."""

from __future__ import annotations

import json

from listbuilder.lists.documents import parse_list
from listbuilder.printing import assets, pdf_cache
from tests.conftest import GOLDEN


def make_assets(tmp_path):
    templates, styles = tmp_path / "templates" / "roster", tmp_path / "static" / "roster"
    templates.mkdir(parents=True)
    styles.mkdir(parents=True)
    (templates / "roster.html").write_text("<h1>{{ roster.title }}</h1>", encoding="utf-8")
    (styles / "roster.css").write_text("h1 { color: black }", encoding="utf-8")
    return templates, styles


def test_the_digest_changes_with_any_byte_of_a_template_or_stylesheet(tmp_path, monkeypatch):
    monkeypatch.setattr(assets, "ROOT", tmp_path)
    templates, styles = make_assets(tmp_path)
    folders = (templates, styles)
    first = assets.assets_digest.__wrapped__(folders)
    assert assets.assets_digest.__wrapped__(folders) == first  # the same files, the same digest
    (styles / "roster.css").write_text("h1 { color: navy }", encoding="utf-8")
    second = assets.assets_digest.__wrapped__(folders)
    (templates / "roster.html").write_text("<h2>{{ roster.title }}</h2>", encoding="utf-8")
    third = assets.assets_digest.__wrapped__(folders)
    (templates / "cards.html").write_text("", encoding="utf-8")  # a new file counts too
    assert len({first, second, third, assets.assets_digest.__wrapped__(folders)}) == 4


def test_the_digest_covers_the_roster_templates_stylesheets_and_fonts():
    covered = {p.relative_to(assets.ROOT).as_posix() for f in assets.ASSET_FOLDERS for p in f.rglob("*") if p.is_file()}
    assert {
        "templates/roster/roster.html",
        "static/roster/roster.css",
        "static/fonts/DejaVuSansCondensed.ttf",
    } <= covered


def test_a_pdf_key_changes_when_the_files_it_is_made_from_change(registry, monkeypatch):
    army = parse_list(json.loads((GOLDEN / "grimdark-future" / "legal-1000-spore-choir.json").read_text())["list"])
    before = pdf_cache.cache_key(registry, army, "a4")
    monkeypatch.setattr(pdf_cache, "assets_digest", lambda: "0" * 64)
    assert pdf_cache.cache_key(registry, army, "a4") != before
    assert pdf_cache.renderer().startswith(pdf_cache.RENDERER_VERSION + "/")

"""The page shells themselves (no browser needed): routes, 404 pages, no external assets."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_home_lists_every_system_with_its_description(client, registry):
    html = client.get("/").get_data(as_text=True)
    for system in registry.systems.values():
        assert f'href="/systems/{system.id}"' in html
        assert system.description[:40] in html


def test_system_page_lists_its_books(client, registry):
    for system in registry.systems.values():
        response = client.get(f"/systems/{system.id}")
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        for book in registry.books_of(system.id):
            assert f'href="/build/{book.id}"' in html


def test_builder_shell_names_its_book(client, registry):
    book = next(iter(registry.books.values()))
    html = client.get(f"/build/{book.id}").get_data(as_text=True)
    assert f'data-book="{book.id}"' in html and f'data-system="{book.system}"' in html
    # under the release's version: the boot script, which imports builder.js beside it (so under it too)
    assert re.search(r'src="/static/[0-9a-f]{16}/js/builder_boot\.js"', html)


def test_unknown_system_and_book_are_html_404_pages(client):
    for url in ("/systems/nope", "/build/nope"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.mimetype == "text/html"
        assert "nope" in response.get_data(as_text=True)


# What makes a browser load something from an address: an element's src, a stylesheet or icon
# link, CSS url() and @import, a module import, a fetch. An address shown as text for the reader
# (the import page names Army Forge's) loads nothing.
EXTERNAL_LOAD = re.compile(
    r"""(?:\bsrc(?:set)?\s*=\s*["']?|<link\b[^>]*\bhref\s*=\s*["']?|url\(\s*["']?|@import\s+(?:url\()?["']?"""
    r"""|\bfrom\s+["']|\bimport\(\s*["']|\bfetch\(\s*["'`])(https?:)?//"""
)


def test_no_external_assets():
    """Everything is served by the app: no CDN, no web fonts from elsewhere (offline clubs)."""
    for path in [*ROOT.glob("static/js/*.js"), *ROOT.glob("static/css/*.css"), *ROOT.glob("templates/*.html")]:
        loads = [m.group(0) for m in EXTERNAL_LOAD.finditer(path.read_text())]
        assert not loads, f"{path.name} loads {loads}"


def test_the_external_load_check_catches_each_way_to_load():
    for text in (
        '<script src="https://cdn.example/x.js">',
        "<link rel=stylesheet href='https://fonts.example/f.css'>",
        "@font-face { src: url(https://fonts.example/f.woff2) }",
        '@import "https://x.example/a.css";',
        'import { h } from "https://esm.example/h.js";',
        "fetch(`https://api.example/`)",
        '<img src="//cdn.example/i.png">',
    ):
        assert EXTERNAL_LOAD.search(text), text
    assert not EXTERNAL_LOAD.search("<code>https://army-forge.onepagerules.com/api/army-books/x</code>")


def test_static_modules_are_served(client):
    for name in ("util", "profile", "editor", "preview", "builder", "home"):
        response = client.get(f"/static/js/{name}.js")
        assert response.status_code == 200
        assert "javascript" in response.mimetype
        response.close()

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
    assert re.search(r'src="/static/[0-9a-f]{16}/js/builder\.js"', html)  # under the release's version


def test_unknown_system_and_book_are_html_404_pages(client):
    for url in ("/systems/nope", "/build/nope"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.mimetype == "text/html"
        assert "nope" in response.get_data(as_text=True)


def test_no_external_assets():
    """Everything is served by the app: no CDN, no web fonts from elsewhere (offline clubs)."""
    for path in [*ROOT.glob("static/js/*.js"), *ROOT.glob("static/css/*.css"), *ROOT.glob("templates/*.html")]:
        text = path.read_text()
        urls = [u for u in re.findall(r"https?://[^\s\"')]+", text) if not u.startswith("http://www.w3.org/")]
        assert not urls, f"{path.name} loads {urls}"


def test_static_modules_are_served(client):
    for name in ("util", "profile", "editor", "preview", "builder", "home"):
        response = client.get(f"/static/js/{name}.js")
        assert response.status_code == 200
        assert "javascript" in response.mimetype
        response.close()

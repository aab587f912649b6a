"""Every page, API answer, error and asset carries the security headers; pages have no inline code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from listbuilder.web.http.security import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parents[2]
LIST = {"system": "grimdark-future", "book": "gf-cinder-covenant", "units": [{"key": "a", "unit": "cc-ash-wardens"}]}


def requests(registry):
    book = registry.books_of("grimdark-future")[0].id
    yield "get", "/", None
    yield "get", "/systems/grimdark-future", None
    yield "get", f"/build/{book}", None
    yield "get", "/nothing-here", None
    yield "get", "/static/css/app.css", None
    yield "get", "/api/v1/systems", None
    yield "get", "/api/v1/books/nope", None
    yield "get", "/api/v1/openapi.json", None
    yield "post", "/api/v1/lists/validate", LIST
    yield "post", "/api/v1/rosters/html", LIST
    yield "post", "/api/v1/lists/validate", {"system": 1}
    yield "delete", "/api/v1/lists/validate", None


def test_every_response_has_the_security_headers(client, registry):
    for method, path, body in requests(registry):
        response = getattr(client, method)(path, json=body) if body is not None else getattr(client, method)(path)
        headers = response.headers
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, path
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["X-Frame-Options"] == "SAMEORIGIN", path
        assert headers["Referrer-Policy"] == "same-origin", path
        response.close()


def test_policy_allows_no_inline_script_or_style_and_no_other_origin():
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["base-uri"] == "'none'"
    assert directives["frame-ancestors"] == "'self'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY and "http" not in CONTENT_SECURITY_POLICY


def test_swagger_page_is_ours_under_the_same_policy(client):
    response = client.get("/api/v1/docs")
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    html = response.get_data(as_text=True)
    assert re.search(r'src="/static/[0-9a-f]{16}/js/api-docs\.js"', html)  # under the release's version
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script on the docs page"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "templates").rglob("*.html")), ids=lambda p: str(p.relative_to(ROOT / "templates"))
)
def test_templates_have_no_inline_script_or_style(path):
    html = path.read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline <script>"
    assert not re.search(r"<style\b", html), "<style> block"
    assert not re.search(r"\sstyle\s*=", html), "style attribute"
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"


def test_a_header_the_response_sets_itself_is_kept_and_not_repeated():
    from flask import Response

    from listbuilder.web.http.security import HEADERS, add_headers

    response = add_headers(Response("x", headers={"x-frame-options": "DENY"}))
    assert response.headers.getlist("X-Frame-Options") == ["DENY"]
    for name, value in HEADERS.items():
        if name != "X-Frame-Options":
            assert response.headers.getlist(name) == [value]

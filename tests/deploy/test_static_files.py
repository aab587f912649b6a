"""Static files under the release's version, from the app alone (issue 36): the pages name
``/static/<version>/...``, which is kept a year; plain names and other versions are asked again
after five minutes, as nginx answers them (tests/deploy/test_stack.py)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import urljoin

import pytest

from listbuilder.web import create_app
from listbuilder.web.http import static_files
from listbuilder.web.http.static_files import IMMUTABLE, REVALIDATE, current_version

ROOT = Path(__file__).resolve().parents[2]
STATIC = re.compile(r'(?:src|href)="(/static/[^"]+)"')
IMPORT = re.compile(r'^\s*(?:import|export)\b[^"\']*?\bfrom\s+"(\.[^"]+)"|^\s*import\s+"(\.[^"]+)"', re.MULTILINE)


@pytest.fixture()
def version(app):
    """The version read again for each test: others editing static/ meanwhile (a shared checkout)
    would otherwise make a file newer than its version, which is then rightly not immutable."""
    static_files._version.cache_clear()
    return current_version(app)


def get(client, url: str, **kwargs):
    """The answer to GET *url*, read whole and its file closed."""
    with client.get(url, **kwargs) as answer:
        answer.get_data()
        return answer


def on_disk(url: str) -> bytes:
    """The file of static/ that a versioned or plain /static/ URL names."""
    name = re.sub(r"^/static/(?:[0-9a-f]{16}/)?", "", url)
    return (ROOT / "static" / name).read_bytes()


@pytest.mark.parametrize("page", ["/", "/build/gf-cinder-covenant", "/books/gf-cinder-covenant", "/lists"])
def test_pages_name_every_static_file_under_the_current_version(client, version, page):
    html = get(client, page).get_data(as_text=True)
    urls = STATIC.findall(html)
    assert urls and all(url.startswith(f"/static/{version}/") for url in urls), urls
    assert re.fullmatch(r"[0-9a-f]{16}", version)


def test_the_current_version_is_kept_a_year_and_revalidates_the_same(client, version):
    url = f"/static/{version}/js/builder.js"
    first = get(client, url)
    assert (
        first.status_code == 200
        and first.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    )
    assert first.data == on_disk(url) and "Expires" not in first.headers
    again = get(client, url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == IMMUTABLE


def test_plain_names_and_other_versions_are_asked_again_after_five_minutes(client, version):
    other = "0123456789abcdef" if version != "0123456789abcdef" else "fedcba9876543210"
    for url in ("/static/js/builder.js", f"/static/{other}/js/builder.js", "/static/app/offline.html"):
        answer = get(client, url)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == REVALIDATE, url
        assert answer.data == on_disk(url)  # today's file, never kept for good under a version that named another
    assert REVALIDATE == "public, max-age=300, must-revalidate"


def test_a_file_that_is_not_there_is_404_under_a_version_as_without(client, version):
    for url in (f"/static/{version}/js/no_such_module.js", f"/static/{version}/../wsgi.py", "/static/js/nothing.js"):
        answer = get(client, url)
        assert answer.status_code == 404 and "Cache-Control" not in answer.headers, url


def test_modules_imported_by_relative_names_stay_under_the_version(client, version):
    """builder.js imports ``./util.js`` and the rest by relative names: resolved against the
    versioned URL they are versioned too, and every module the builder loads is kept a year."""
    seen, waiting = set(), [f"/static/{version}/js/builder.js"]
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        seen.add(url)
        answer = get(client, url)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == IMMUTABLE, url
        for names in IMPORT.findall(answer.get_data(as_text=True)):
            waiting.append(urljoin(url, next(name for name in names if name)))
    assert len(seen) > 10 and all(url.startswith(f"/static/{version}/js/") for url in seen)


def offline_files() -> list[str]:
    """What sw.js keeps at install (the offline page and the files it names), by their plain names."""
    worker = (ROOT / "static/app/sw.js").read_text()
    kept = re.search(r"const OFFLINE_FILES = \[(.*?)\];", worker)
    assert kept, "sw.js names no OFFLINE_FILES"
    names = re.findall(r'"(/[^"]+)"', kept.group(1)) + ["/static/app/offline.html"]
    names += STATIC.findall((ROOT / "static/app/offline.html").read_text())
    assert len(names) >= 5
    return names


def test_the_service_workers_own_files_load_by_their_plain_names(client):
    for name in offline_files():
        answer = get(client, name)
        assert answer.status_code == 200, name


def test_the_version_follows_the_files_bytes_not_their_dates(tmp_path):
    def digest(folder: str) -> str:  # read again, not once per process
        return static_files._version.__wrapped__(folder).digest

    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        (folder / "js").mkdir(parents=True)
        (folder / "js" / "a.js").write_text("export const a = 1;\n")
    assert digest(str(one)) == digest(str(two))
    (two / "js" / "a.js").write_text("export const a = 2;\n")
    assert digest(str(one)) != digest(str(two))
    (two / "js" / "a.js").write_text("export const a = 1;\n")
    (two / "js" / "b.js").write_text("")
    assert digest(str(one)) != digest(str(two))  # a new file is a new version too


def new_app(registry, tmp_path):
    return create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}"})


def test_create_app_leaves_the_digest_to_its_first_use(registry, tmp_path):
    """Cold start is measured: the static tree is read on the first URL built, once per process."""
    static_files._version.cache_clear()
    app = new_app(registry, tmp_path)
    assert static_files._version.cache_info().currsize == 0
    with app.test_request_context():
        from flask import url_for

        first, second = url_for("static", filename="js/a.js"), url_for("static", filename="css/app.css")
    assert static_files._version.cache_info().misses == 1 and first.split("/")[2] == second.split("/")[2]


def test_a_file_changed_after_the_version_was_read_is_not_kept_for_good(registry, tmp_path):
    """Edited while the server runs, a file is no longer what the version names: five minutes."""
    app = new_app(registry, tmp_path)
    app.static_folder = str(tmp_path / "static")
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "a.js").write_text("export const a = 1;\n")
    client = app.test_client()
    url = f"/static/{current_version(app)}/js/a.js"
    assert get(client, url).headers["Cache-Control"] == IMMUTABLE
    time.sleep(0.05)  # past the coarse clock the kernel dates files by
    (tmp_path / "static" / "js" / "a.js").write_text("export const a = 2;\n")
    changed = get(client, url)
    assert changed.headers["Cache-Control"] == REVALIDATE and changed.data == b"export const a = 2;\n"

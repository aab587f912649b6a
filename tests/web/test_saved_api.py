"""Saved lists over the API (/api/v1/lists), on SQLite and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import gc
import io
import json
import re
import shutil

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from listbuilder.books.loader import load_registry
from listbuilder.lists.canonical import rules_version, verification_code
from listbuilder.lists.documents import parse_list
from listbuilder.store.limits import MAX_VERSIONS_PER_LIST
from listbuilder.store.lists import list_versions, saved_lists
from tests.conftest import BOOKS, GOLDEN, round_trips
from tests.store.test_lists import fill_versions

ERROR_KEYS = {"code", "status", "message", "errors"}
BOOK = "gf-cinder-covenant"
LIST = {
    "system": "grimdark-future",
    "book": BOOK,
    "name": "Ember Host",
    "points_limit": 1000,
    "units": [
        {
            "key": "a",
            "unit": "cc-ash-wardens",
            "upgrades": [{"section": "cc-rifle-specials", "option": "flamer", "count": 2}],
        },
        {"key": "p", "unit": "cc-ember-priest", "joined_to": "a"},
    ],
}


def create(client, body=None):
    response = client.post("/api/v1/lists", json=body or LIST)
    assert response.status_code == 201, response.json
    return response.json


def auth(token, etag=None):
    headers = {"Authorization": f"Bearer {token}"}
    if etag is not None:
        headers["If-Match"] = etag
    return headers


def count_rows(db, table):
    with db.reading() as conn:
        return conn.scalar(select(func.count()).select_from(table))


def test_post_saves_version_1_and_shows_the_edit_token_only_then(saved_client):
    response = saved_client.post("/api/v1/lists", json=LIST)
    assert response.status_code == 201
    body = response.json
    assert set(body) == {"id", "edit_token", "version", "url", "share_url", "edit_url", "report"}
    assert body["version"] == 1 and response.headers["ETag"] == '"v1"'
    assert response.headers["Location"] == body["url"] and body["url"].endswith(f"/api/v1/lists/{body['id']}")
    assert (
        body["share_url"].endswith(f"/l/{body['id']}")
        and body["edit_url"] == f"{body['share_url']}#edit={body['edit_token']}"
    )
    assert body["report"]["valid"] is True
    read = saved_client.get(f"/api/v1/lists/{body['id']}")
    assert body["edit_token"] not in read.get_data(as_text=True)


def test_get_gives_the_list_report_version_times_lock_rules_and_verification_code(saved_client, registry):
    made = create(saved_client)
    response = saved_client.get(f"/api/v1/lists/{made['id']}")
    assert response.status_code == 200 and response.headers["ETag"] == '"v1"'
    body = response.json
    assert {
        "id",
        "version",
        "list",
        "report",
        "verification_code",
        "rules",
        "created_at",
        "updated_at",
        "locked",
        "locked_at",
        "url",
        "share_url",
    } <= set(body)
    assert (
        body["list"]["units"][1]["joined_to"] == "a" and body["list"]["units"][0]["spells"] == []
    )  # canonical: every field
    assert body["report"]["totals"]["pts"] == 125 + 10 + 65
    assert body["locked"] is False and body["created_at"] == body["updated_at"]
    book = registry.books[BOOK]
    version = rules_version(book, registry.systems[book.system])
    assert body["rules"] == {
        "system": "grimdark-future",
        "book": BOOK,
        "book_name": book.name,
        "book_version": book.version,
        "rules_version": version,
        "current_rules_version": version,
        "changed": False,
        "report_when_saved": None,
        "verification_code_when_saved": verification_code(parse_list(LIST), version),
    }
    assert body["verification_code"] == verification_code(parse_list(LIST), version)


def test_an_illegal_list_is_saved_with_its_issues(saved_client):
    illegal = {**LIST, "points_limit": 100}
    made = create(saved_client, illegal)
    assert made["report"]["valid"] is False
    body = saved_client.get(f"/api/v1/lists/{made['id']}").json
    assert body["report"]["valid"] is False and body["report"]["issues"]


def test_put_needs_the_token_and_the_current_etag(saved_client):
    made = create(saved_client)
    url, changed = f"/api/v1/lists/{made['id']}", {**LIST, "name": "Renamed"}
    missing = saved_client.put(url, json=changed)
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert set(missing.json) == ERROR_KEYS
    assert saved_client.put(url, json=changed, headers=auth("not-the-token", '"v1"')).status_code == 403
    other = create(saved_client)
    assert saved_client.put(url, json=changed, headers=auth(other["edit_token"], '"v1"')).status_code == 403
    no_etag = saved_client.put(url, json=changed, headers=auth(made["edit_token"]))
    assert no_etag.status_code == 428 and "If-Match" in no_etag.json["errors"]
    saved = saved_client.put(url, json=changed, headers=auth(made["edit_token"], '"v1"'))
    assert saved.status_code == 200 and saved.headers["ETag"] == '"v2"'
    assert saved.json["version"] == 2 and saved.json["list"]["name"] == "Renamed"
    stale = saved_client.put(url, json={**LIST, "name": "Lost?"}, headers=auth(made["edit_token"], '"v1"'))
    assert stale.status_code == 412 and stale.headers["ETag"] == '"v2"' and "version 2" in stale.json["message"]
    garbage = saved_client.put(url, json=changed, headers=auth(made["edit_token"], '"something-else"'))
    assert garbage.status_code == 412
    assert saved_client.get(url).json["list"]["name"] == "Renamed"


def test_of_two_puts_with_the_same_if_match_the_second_is_refused(saved_client):
    made = create(saved_client)
    url = f"/api/v1/lists/{made['id']}"
    first = saved_client.put(url, json={**LIST, "name": "first"}, headers=auth(made["edit_token"], '"v1"'))
    second = saved_client.put(url, json={**LIST, "name": "second"}, headers=auth(made["edit_token"], '"v1"'))
    assert (first.status_code, second.status_code) == (200, 412)


def test_if_match_star_saves_over_whatever_is_current(saved_client):
    made = create(saved_client)
    response = saved_client.put(f"/api/v1/lists/{made['id']}", json=LIST, headers=auth(made["edit_token"], "*"))
    assert response.status_code == 200 and response.json["version"] == 2


def test_versions_are_all_kept_and_each_is_readable(saved_client):
    made = create(saved_client)
    url, token = f"/api/v1/lists/{made['id']}", made["edit_token"]
    saved_client.put(url, json={**LIST, "name": "two"}, headers=auth(token, '"v1"'))
    saved_client.put(url, json={**LIST, "name": "three", "units": LIST["units"][:1]}, headers=auth(token, '"v2"'))
    versions = saved_client.get(f"{url}/versions").json
    assert versions["current"] == 3
    assert [(v["version"], v["name"], v["units"]) for v in versions["versions"]] == [
        (1, "Ember Host", 2),
        (2, "two", 2),
        (3, "three", 1),
    ]
    first = saved_client.get(f"{url}/versions/1").json
    assert first["version"] == 1 and first["list"]["name"] == "Ember Host" and first["report"]["valid"] is True
    assert saved_client.get(f"{url}/versions/4").status_code == 404


def test_diff_says_what_changed_in_words_and_data(saved_client):
    made = create(saved_client)
    url, token = f"/api/v1/lists/{made['id']}", made["edit_token"]
    units = [
        {
            "key": "a",
            "unit": "cc-ash-wardens",
            "upgrades": [{"section": "cc-rifle-specials", "option": "flamer", "count": 1}],
        },
        {"key": "z", "unit": "cc-cinder-zealots"},
    ]
    saved_client.put(url, json={**LIST, "units": units}, headers=auth(token, '"v1"'))
    diff = saved_client.get(f"{url}/diff?from=1&to=2").json
    assert (diff["from"], diff["to"]) == (1, 2)
    assert [e["key"] for e in diff["added"]] == ["z"] and [e["key"] for e in diff["removed"]] == ["p"]
    (changed,) = diff["changed"]
    assert changed["upgrades"] == [
        {"section": "cc-rifle-specials", "option": "flamer", "label": "Flamer", "from": 2, "to": 1}
    ]
    assert diff["totals"]["change"] == {"pts": 110 - 65 - 5}
    assert diff["summary"] == [
        "Added Cinder Zealots (110 pts)",
        "Removed Ember Priest (65 pts)",
        "Ash Wardens: Flamer ×2 → ×1; 135 pts → 130 pts (-5 pts)",
        "Total: 200 pts → 240 pts (+40 pts)",
    ]
    assert saved_client.get(f"{url}/diff").json["summary"] == diff["summary"]  # default: previous -> current
    assert saved_client.get(f"{url}/diff?from=1&to=9").status_code == 404
    assert saved_client.get(f"{url}/diff?from=0").status_code == 422


def test_a_locked_list_keeps_its_id_and_history_and_refuses_changes(saved_client):
    made = create(saved_client)
    url, token = f"/api/v1/lists/{made['id']}", made["edit_token"]
    saved_client.put(url, json={**LIST, "name": "final"}, headers=auth(token, '"v1"'))
    assert saved_client.post(f"{url}/lock").status_code == 401
    assert saved_client.post(f"{url}/lock", headers=auth(token, '"v1"')).status_code == 412
    locked = saved_client.post(f"{url}/lock", headers=auth(token))
    assert locked.status_code == 200 and locked.json["locked"] is True and locked.json["locked_at"]
    assert saved_client.put(url, json=LIST, headers=auth(token, '"v2"')).status_code == 423
    assert (
        saved_client.put(url, json=LIST, headers=auth(token)).status_code == 423
    )  # locked before If-Match is asked for
    assert saved_client.delete(url, headers=auth(token)).status_code == 423
    body = saved_client.get(url).json
    assert body["locked"] is True and body["version"] == 2 and body["list"]["name"] == "final"
    assert len(saved_client.get(f"{url}/versions").json["versions"]) == 2


def test_anyone_who_can_read_a_list_can_copy_it_into_a_new_one(saved_client):
    made = create(saved_client)
    url, token = f"/api/v1/lists/{made['id']}", made["edit_token"]
    saved_client.put(url, json={**LIST, "name": "two"}, headers=auth(token, '"v1"'))
    saved_client.post(f"{url}/lock", headers=auth(token))
    copy = saved_client.post(f"{url}/copy")
    assert copy.status_code == 201 and copy.headers["Location"] == copy.json["url"]
    assert copy.json["id"] != made["id"] and copy.json["edit_token"] != token and copy.json["version"] == 1
    copied = saved_client.get(copy.json["url"]).json
    assert copied["list"]["name"] == "two" and copied["locked"] is False
    edited = saved_client.put(
        copy.json["url"], json={**LIST, "name": "mine"}, headers=auth(copy.json["edit_token"], '"v1"')
    )
    assert edited.status_code == 200
    assert saved_client.get(url).json["list"]["name"] == "two"
    old = saved_client.post(f"{url}/copy?version=1").json
    assert saved_client.get(old["url"]).json["list"]["name"] == "Ember Host"
    assert saved_client.post(f"{url}/copy?version=7").status_code == 404


def test_delete_needs_the_token_and_then_the_list_is_gone(saved_client):
    made = create(saved_client)
    url = f"/api/v1/lists/{made['id']}"
    assert saved_client.delete(url).status_code == 401
    assert saved_client.delete(url, headers=auth("wrong")).status_code == 403
    response = saved_client.delete(url, headers=auth(made["edit_token"]))
    assert response.status_code == 204 and response.data == b""
    for path in (url, f"{url}/versions", f"{url}/versions/1", f"{url}/roster.txt"):
        gone = saved_client.get(path)
        assert gone.status_code == 410 and set(gone.json) == ERROR_KEYS
    assert saved_client.put(url, json=LIST, headers=auth(made["edit_token"], '"v1"')).status_code == 410


def test_unknown_ids_are_404_in_the_one_error_shape(saved_client):
    for path in (
        "/api/v1/lists/AAAAAAAAAAAAAAAA",
        "/api/v1/lists/AAAAAAAAAAAAAAAA/versions",
        "/api/v1/lists/x/roster.pdf",
    ):
        response = saved_client.get(path)
        assert response.status_code == 404 and set(response.json) == ERROR_KEYS


def test_rosters_of_the_current_or_an_earlier_version(saved_client):
    made = create(saved_client)
    url = f"/api/v1/lists/{made['id']}"
    saved_client.put(url, json={**LIST, "name": "Second Host"}, headers=auth(made["edit_token"], '"v1"'))
    text = saved_client.get(f"{url}/roster.txt")
    assert (
        text.status_code == 200
        and text.mimetype == "text/plain"
        and text.get_data(as_text=True).startswith("++ Second Host ++")
    )
    assert saved_client.get(f"{url}/roster.txt?version=1").get_data(as_text=True).startswith("++ Ember Host ++")
    a4 = saved_client.get(f"{url}/roster.pdf")
    assert a4.status_code == 200 and a4.mimetype == "application/pdf" and a4.data.startswith(b"%PDF")
    assert "Second Host.pdf" in a4.headers["Content-Disposition"]
    letter = saved_client.get(f"{url}/roster.pdf?paper=letter&version=1&layout=cards")
    assert letter.status_code == 200
    width = lambda data: round(float(PdfReader(io.BytesIO(data)).pages[0].mediabox.width))  # noqa: E731
    assert (width(a4.data), width(letter.data)) == (595, 612)
    assert saved_client.get(f"{url}/roster.pdf?paper=a3").status_code == 422
    assert saved_client.get(f"{url}/roster.pdf?layout=poster").status_code == 422


def test_saved_rosters_name_the_verification_code_the_list_shows(saved_client):
    made = create(saved_client)
    url = f"/api/v1/lists/{made['id']}"
    code = saved_client.get(url).json["verification_code"]
    for path in ("roster.txt", "roster.pdf", "roster.pdf?layout=cards"):
        assert saved_client.get(f"{url}/{path}").headers["X-Verification-Code"] == code, path


@pytest.mark.parametrize(
    "body, status",
    [
        (b"{nope", 400),
        (json.dumps({**LIST, "book": "no-such-book"}).encode(), 404),
        (json.dumps({**LIST, "system": "no-such-system"}).encode(), 404),
        (json.dumps({**LIST, "units": [{"key": "a"}]}).encode(), 422),
        (json.dumps({**LIST, "name": "x" * (1024 * 1024 + 10)}).encode(), 413),
    ],
)
def test_bad_input_gets_a_4xx_and_stores_nothing(saved_client, db, body, status):
    made = create(saved_client)
    lists, versions = count_rows(db, saved_lists), count_rows(db, list_versions)
    headers = {"Content-Type": "application/json"}
    created = saved_client.post("/api/v1/lists", data=body, headers=headers)
    edited = saved_client.put(
        f"/api/v1/lists/{made['id']}", data=body, headers={**headers, **auth(made["edit_token"], '"v1"')}
    )
    for response in (created, edited):
        assert response.status_code == status and set(response.json) == ERROR_KEYS
    assert (count_rows(db, saved_lists), count_rows(db, list_versions)) == (lists, versions)


def test_a_full_list_refuses_one_more_version_with_409_naming_the_limit_and_stores_nothing(saved_client, db):
    made = create(saved_client)
    fill_versions(db, made["id"], MAX_VERSIONS_PER_LIST)
    url, lists, versions = f"/api/v1/lists/{made['id']}", count_rows(db, saved_lists), count_rows(db, list_versions)
    for if_match in (f'"v{MAX_VERSIONS_PER_LIST}"', "*"):
        refused = saved_client.put(
            url, json={**LIST, "name": "one too many"}, headers=auth(made["edit_token"], if_match)
        )
        assert refused.status_code == 409 and set(refused.json) == ERROR_KEYS
        assert "1000 versions" in refused.json["message"] and "copy" in refused.json["message"]
        assert refused.json["errors"] == {"version": [refused.json["message"]]}
    assert (count_rows(db, saved_lists), count_rows(db, list_versions)) == (lists, versions)
    assert saved_client.get(url).json["version"] == MAX_VERSIONS_PER_LIST
    assert saved_client.post(f"{url}/copy").status_code == 201
    described = saved_client.get("/api/v1/openapi.json").json["paths"]["/api/v1/lists/{list_id}"]["put"]["responses"][
        "409"
    ]
    assert "1000 versions" in described["description"] and described["content"]["application/json"]["schema"][
        "$ref"
    ].endswith("/ErrorOut")


# --------------------------------------------------------------------------------------------
# Army books that change after a save


def edited_books(tmp_path, change):
    folder = tmp_path / "books"
    shutil.copytree(BOOKS, folder)
    change(folder / "grimdark-future" / f"{BOOK}.yaml")
    return load_registry(folder)


@pytest.fixture()
def app_with(database_url):
    """Another app (a second worker, or a server with other books) on the same database."""
    from listbuilder.web import create_app

    made = []

    def make(registry):
        made.append(create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": database_url}))
        return made[-1]

    yield make
    for app in made:
        if (opened := app.extensions.get("listbuilder.database")) is not None:
            opened.dispose()  # opened on first use


def test_when_the_book_changed_get_says_so_and_reports_validity_against_both(saved_client, app_with, tmp_path):
    made = create(saved_client, {**LIST, "points_limit": 200, "force_org": False})  # 200 pts of 200: legal when saved

    def dearer_wardens(path):
        path.write_text(
            path.read_text().replace("    size: 10\n    cost: {pts: 125}\n", "    size: 10\n    cost: {pts: 140}\n", 1)
        )

    changed = app_with(edited_books(tmp_path, dearer_wardens))
    body = changed.test_client().get(f"/api/v1/lists/{made['id']}").json
    rules = body["rules"]
    assert rules["changed"] is True and rules["current_rules_version"] != rules["rules_version"]
    assert body["report"]["valid"] is False and body["report"]["totals"]["pts"] == 215  # against today's book
    assert rules["report_when_saved"]["valid"] is True and rules["report_when_saved"]["totals"]["pts"] == 200
    assert body["verification_code"] != rules["verification_code_when_saved"]


def test_a_book_no_longer_served_is_checked_and_printed_from_the_saved_copy(saved_client, app_with, tmp_path):
    made = create(saved_client)
    without = app_with(edited_books(tmp_path, lambda path: path.unlink()))
    client = without.test_client()
    body = client.get(f"/api/v1/lists/{made['id']}").json
    assert (
        body["report"] is None and body["rules"]["current_rules_version"] is None and body["rules"]["changed"] is True
    )
    assert body["rules"]["report_when_saved"]["valid"] is True
    assert body["verification_code"] == body["rules"]["verification_code_when_saved"]
    text = client.get(f"/api/v1/lists/{made['id']}/roster.txt")
    assert text.status_code == 200 and "Ash Wardens" in text.get_data(as_text=True)


# --------------------------------------------------------------------------------------------
# The OpenAPI document and the pages


def test_openapi_documents_every_saved_list_operation_with_its_real_codes(saved_client):
    spec = saved_client.get("/api/v1/openapi.json").json
    paths = spec["paths"]
    expected = {
        ("/api/v1/lists", "post"): {"201", "400", "404", "413", "415", "422"},
        ("/api/v1/lists/{list_id}", "get"): {"200", "404", "410"},
        ("/api/v1/lists/{list_id}", "put"): {
            "200",
            "400",
            "401",
            "403",
            "404",
            "409",
            "410",
            "412",
            "413",
            "422",
            "423",
            "428",
        },
        ("/api/v1/lists/{list_id}", "delete"): {"204", "401", "403", "404", "410", "423"},
        ("/api/v1/lists/{list_id}/versions", "get"): {"200", "404", "410"},
        ("/api/v1/lists/{list_id}/versions/{number}", "get"): {"200", "404", "410"},
        ("/api/v1/lists/{list_id}/diff", "get"): {"200", "404", "410", "422"},
        ("/api/v1/lists/{list_id}/lock", "post"): {"200", "401", "403", "404", "410", "412"},
        ("/api/v1/lists/{list_id}/copy", "post"): {"201", "404", "410", "422"},
        ("/api/v1/lists/{list_id}/roster.pdf", "get"): {"200", "404", "410", "413", "422"},
        ("/api/v1/lists/{list_id}/roster.txt", "get"): {"200", "404", "410", "422"},
    }
    for (path, method), codes in expected.items():
        assert codes <= set(paths[path][method]["responses"]), (path, method)
    assert paths["/api/v1/lists/{list_id}"]["put"]["security"] == [{"editToken": []}]
    assert spec["components"]["securitySchemes"]["editToken"]["scheme"] == "bearer"


def test_the_read_only_page_shows_the_list_its_validation_code_and_print_links(saved_client):
    made = create(saved_client, {**LIST, "name": "<b>Ember</b> Host"})
    saved_client.put(
        f"/api/v1/lists/{made['id']}",
        json={**LIST, "name": "<b>Ember</b> Host", "units": LIST["units"][:1]},
        headers=auth(made["edit_token"], '"v1"'),
    )
    page = saved_client.get(f"/l/{made['id']}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "&lt;b&gt;Ember&lt;/b&gt; Host" in html and "<b>Ember</b>" not in html  # escaped
    api = saved_client.get(f"/api/v1/lists/{made['id']}").json
    assert api["verification_code"] in html and "Legal list" in html and "Ash Wardens" in html
    assert f"/api/v1/lists/{made['id']}/roster.pdf?version=2&amp;paper=a4" in html
    assert "Removed Ember Priest (65 pts)" in html  # changes since version 1
    assert "Make a copy to edit" in html
    older = saved_client.get(f"/l/{made['id']}?version=1").get_data(as_text=True)
    assert "older version" in older and "Ember Priest" in older


def test_pages_for_unknown_and_deleted_lists_say_so_in_html(saved_client):
    assert saved_client.get("/l/AAAAAAAAAAAAAAAA").status_code == 404
    made = create(saved_client)
    saved_client.delete(f"/api/v1/lists/{made['id']}", headers=auth(made["edit_token"]))
    gone = saved_client.get(f"/l/{made['id']}")
    assert gone.status_code == 410 and "deleted" in gone.get_data(as_text=True) and gone.mimetype == "text/html"


@pytest.mark.parametrize("path", ["/lists", "/l/{id}"])
def test_saved_list_pages_have_no_inline_script_or_style(saved_client, path):
    made = create(saved_client)
    html = saved_client.get(path.format(id=made["id"])).get_data(as_text=True)
    assert "style=" not in html and "<style" not in html
    for tag in html.split("<script")[1:]:
        assert tag.split(">")[0].strip().startswith('type="module" src=')


def test_golden_lists_of_every_system_save_and_read_back_unchanged(saved_client):
    for folder in sorted(GOLDEN.iterdir()):
        case = json.loads(sorted(folder.glob("*.json"))[0].read_text())
        made = create(saved_client, case["list"])
        body = saved_client.get(f"/api/v1/lists/{made['id']}").json
        assert parse_list(body["list"]) == parse_list(case["list"]), folder.name
        assert body["report"]["valid"] is case["valid"], folder.name


def test_a_worker_never_serves_a_stale_copy_of_a_list_another_worker_changed(saved_client, registry, app_with):
    """Each process keeps rendered versions; every read still asks the database which is current."""
    other = app_with(registry).test_client()  # a second worker on the same database
    made = create(saved_client)
    url, token = f"/api/v1/lists/{made['id']}", made["edit_token"]
    assert saved_client.get(url).json["version"] == 1
    other.put(url, json={**LIST, "name": "from the other worker"}, headers=auth(token, '"v1"'))
    again = saved_client.get(url)
    assert (
        again.json["version"] == 2
        and again.json["list"]["name"] == "from the other worker"
        and again.headers["ETag"] == '"v2"'
    )
    other.post(f"{url}/lock", headers=auth(token))
    assert saved_client.get(url).json["locked"] is True
    copy = create(saved_client)
    saved_client.get(copy["url"])
    other.delete(copy["url"], headers=auth(copy["edit_token"]))
    assert saved_client.get(copy["url"]).status_code == 410


def test_a_read_of_a_rendered_version_asks_the_database_once(saved_client, saved_app):
    """The one question is which version is current (and whether the list is locked or
    deleted): one statement, one round trip, no transaction around it."""
    url = create(saved_client)["url"]
    saved_client.get(url)
    saved_client.get(url)  # each pooled connection a read may get has prepared its statement
    with round_trips(saved_app.extensions["listbuilder.database"]) as sent:
        assert saved_client.get(url).json["version"] == 1
    assert len(sent) == 1 and not re.search(r"\b(BEGIN|COMMIT|ROLLBACK)\b", sent[0], re.IGNORECASE), sent


def test_a_rendered_body_links_to_the_scheme_host_and_root_it_was_asked_through(saved_client):
    """Bodies are kept rendered, links included: one asked through another address gets its own."""
    path = f"/api/v1/lists/{create(saved_client)['id']}"
    for base in ("http://one.example", "https://two.example:8443", "http://one.example/mounted", "http://one.example"):
        body = saved_client.get(path, base_url=base).json
        assert body["url"] == f"{base}{path}" and body["share_url"].startswith(f"{base}/l/"), (base, body["url"])


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/lists/a%00b",
        "/api/v1/lists/" + "x" * 5000,
        "/api/v1/lists/AAAAAAAAAAAAAAAA/versions/99999999999999999999999",
    ],
)
def test_impossible_ids_and_versions_are_404_not_500(saved_client, path):
    response = saved_client.get(path)
    assert response.status_code == 404 and set(response.json) == ERROR_KEYS


def test_create_app_leaves_the_store_unopened_until_first_use():
    """Start-up stays free of SQLAlchemy (issue 11's start-up budget); the database opens on
    first use, or in wsgi.py's warm_up before gunicorn forks."""
    import subprocess
    import sys

    code = (
        "import sys; from listbuilder.web import create_app; app = create_app({'DATABASE_URL': 'sqlite:///' + sys.argv[1]}); "
        "print('sqlalchemy' in sys.modules, 'listbuilder.database' in app.extensions)"
    )
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        out = subprocess.run(
            [sys.executable, "-c", code, f"{folder}/lazy.sqlite3"], capture_output=True, text=True, check=True
        ).stdout
    assert out.split() == ["False", "False"]


def test_warm_up_opens_and_migrates_the_database(tmp_path, registry):
    from listbuilder.web import create_app, warm_up

    app = warm_up(
        create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{tmp_path / 'warm.sqlite3'}"})
    )
    db = app.extensions["listbuilder.database"]
    try:
        assert db.revision() is not None
    finally:
        db.dispose()
        gc.unfreeze()  # warm_up froze this test process's objects, as gunicorn's master's


def test_saved_roster_prints_the_code_of_the_api_and_page_and_a_qr_of_the_share_link(saved_client):
    made = create(saved_client)
    api = saved_client.get(f"/api/v1/lists/{made['id']}").json
    page = saved_client.get(f"/l/{made['id']}").get_data(as_text=True)
    code = api["verification_code"]
    assert code in page
    for layout in ("sheet", "cards"):
        pdf = saved_client.get(f"/api/v1/lists/{made['id']}/roster.pdf?layout={layout}").data
        pages = [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]
        assert all(f"code {code}" in text for text in pages), layout
        # the QR code's caption is the share link; the code itself is an inline SVG path
        assert made["share_url"] in "".join(pages).replace("\n", "")
    from listbuilder.printing.html import share_qr_svg

    svg = share_qr_svg(made["share_url"])
    assert svg.startswith("<svg") and "<path" in svg and made["share_url"] not in svg

"""Tournament events over the API (/api/v1/events), on SQLite and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import shutil
import subprocess
import threading

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from listbuilder.events.submissions import with_settings
from listbuilder.lists.canonical import verification_code
from listbuilder.lists.documents import parse_list
from listbuilder.shapes.events import NOT_BLANK
from listbuilder.store import events as stored_events
from listbuilder.store.errors import StaleVersion
from listbuilder.store.events import event_submissions, events
from tests.web.test_saved_api import BOOK, ERROR_KEYS, LIST, app_with, auth, count_rows, create, edited_books  # noqa: F401 - app_with is a fixture

FUTURE = "2099-01-01T18:00:00+00:00"
EVENT = {
    "name": "Autumn Open",
    "system": "grimdark-future",
    "points_limit": 1000,
    "books": [{"book": BOOK}, {"book": "gf-spore-choir"}],
    "deadline": FUTURE,
}
# Ash Wardens with three flamers: the section allows two (upgrade.count), so illegal.
ILLEGAL = {
    **LIST,
    "name": "Too many flamers",
    "units": [
        {
            "key": "a",
            "unit": "cc-ash-wardens",
            "upgrades": [{"section": "cc-rifle-specials", "option": "flamer", "count": 3}],
        }
    ],
}


def make_event(client, **changes):
    response = client.post("/api/v1/events", json={**EVENT, **changes})
    assert response.status_code == 201, response.json
    return response.json


def submit(client, event, made, player="Ann", **extra):
    return client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"list_id": made["id"], "player": player, **extra},
        headers=auth(made["edit_token"]),
    )


def organiser(event):
    return auth(event["organiser_token"])


def report(client, event):
    response = client.get(f"/api/v1/events/{event['id']}/report", headers=organiser(event))
    assert response.status_code == 200, response.json
    return response.json


# --------------------------------------------------------------------------------------------
# Creating an event


def test_post_creates_an_event_pinning_each_book_and_shows_the_organiser_token_once(saved_client, registry, db):
    response = saved_client.post("/api/v1/events", json=EVENT)
    assert response.status_code == 201 and response.headers["Location"] == response.json["event"]["url"]
    made = response.json
    event = made["event"]
    assert made["organiser_url"] == f"{event['page_url']}#organiser={made['organiser_token']}"
    assert event["settings"] == {"points_limit": 1000} and event["open"] is True and event["allow_illegal"] is False
    book = registry.books[BOOK]
    from listbuilder.lists.canonical import rules_version

    assert event["books"][0] == {
        "book": BOOK,
        "name": book.name,
        "version": book.version,
        "rules_version": rules_version(book, registry.systems["grimdark-future"]),
    }
    read = saved_client.get(f"/api/v1/events/{made['id']}")
    assert read.status_code == 200 and made["organiser_token"] not in read.get_data(as_text=True)
    with db.reading() as conn:
        stored = conn.scalar(select(events.c.token_hash).where(events.c.id == made["id"]))
    assert stored == hashlib.sha256(made["organiser_token"].encode()).hexdigest()  # kept only as a hash


@pytest.mark.parametrize(
    ("changes", "status", "field"),
    [
        ({"system": "no-such-system"}, 404, "system"),
        ({"books": [{"book": "no-such-book"}]}, 404, "books[0].book"),
        ({"books": [{"book": "aof-ember-marches"}]}, 404, "books[0].book"),  # a book of another system
        ({"books": [{"book": BOOK, "version": "0.9"}]}, 409, "books[0].version"),  # not the version served
        ({"books": [{"book": BOOK, "rules_version": "0000000000000000"}]}, 409, "books[0].rules_version"),
        ({"books": [{"book": BOOK}, {"book": BOOK}]}, 422, "books[1].book"),
        ({"books": []}, 422, "books"),
        ({"points_limit": None}, 422, "points_limit"),  # an OPR event needs a size
        ({"game_mode": "skirmish"}, 422, "game_mode"),  # GF has no game modes
        ({"deadline": "2099-01-01T18:00:00"}, 422, "deadline"),  # no time zone
        ({"name": "   "}, 422, "name"),
        ({"surprise": 1}, 422, "surprise"),
    ],
)
def test_bad_events_get_a_4xx_naming_the_field_and_store_nothing(saved_client, db, changes, status, field):
    before = count_rows(db, events)
    response = saved_client.post("/api/v1/events", json={**EVENT, **changes})
    assert response.status_code == status and set(response.json) == ERROR_KEYS
    assert field in response.json["errors"], response.json
    assert count_rows(db, events) == before


def test_an_armour_hex_event_takes_a_game_mode_and_refuses_an_unknown_one(saved_client, registry):
    base = {"name": "Hex night", "system": "armour-hex", "books": [{"book": "ah-hammerdeep-holds"}], "deadline": FUTURE}
    mode = registry.rules["armour-hex"].composition["game_modes"][0]["id"]
    assert saved_client.post("/api/v1/events", json={**base, "game_mode": mode}).status_code == 201
    assert saved_client.post("/api/v1/events", json=base).status_code == 201  # the system's default mode
    refused = saved_client.post("/api/v1/events", json={**base, "game_mode": "no-such-mode"})
    assert refused.status_code == 422 and "game_mode" in refused.json["errors"]


# --------------------------------------------------------------------------------------------
# Submitting


def test_a_legal_list_is_submitted_checked_against_the_event_and_locked(saved_client, registry):
    event = make_event(saved_client)
    made = create(saved_client, {**LIST, "points_limit": 2000})  # the event's 1000 points apply
    response = submit(saved_client, event, made)
    assert response.status_code == 201, response.json
    body = response.json
    assert body["valid"] is True and body["list_version"] == 1 and body["player"] == "Ann" and body["player_token"]
    assert body["report"]["totals"]["limit"] == {"pts": 1000}
    played = with_settings(parse_list(LIST), {"points_limit": 1000})
    assert body["verification_code"] == verification_code(played, event["event"]["books"][0]["rules_version"])
    listed = saved_client.get(f"/api/v1/lists/{made['id']}").json
    assert listed["locked"] is True
    edit = saved_client.put(f"/api/v1/lists/{made['id']}", json=LIST, headers=auth(made["edit_token"], '"v1"'))
    assert edit.status_code == 423


def test_an_illegal_list_is_refused_with_its_issues_and_left_unlocked(saved_client, db):
    event = make_event(saved_client)
    made = create(saved_client, ILLEGAL)
    before = count_rows(db, event_submissions)
    response = submit(saved_client, event, made)
    assert response.status_code == 422 and set(response.json) == ERROR_KEYS
    assert any("upgrade.count" in m for m in response.json["errors"]["list.units[0].upgrades[0].count"])
    assert "(1 problem);" in response.json["message"]  # counted in English, never "1 problem(s)"
    assert count_rows(db, event_submissions) == before
    assert saved_client.get(f"/api/v1/lists/{made['id']}").json["locked"] is False


def test_an_event_that_allows_illegal_lists_takes_them_flagged(saved_client):
    event = make_event(saved_client, allow_illegal=True)
    response = submit(saved_client, event, create(saved_client, ILLEGAL), player="Bo")
    assert response.status_code == 201 and response.json["valid"] is False
    entry = report(saved_client, event)["entries"][0]
    assert entry["valid"] is False and entry["issues"][0]["code"] == "upgrade.count"


def test_after_the_deadline_a_submission_is_409_naming_the_time(saved_client):
    event = make_event(saved_client)
    closed = saved_client.post(
        f"/api/v1/events/{event['id']}/close", headers=organiser(event)
    )  # the deadline becomes now
    assert closed.status_code == 200 and closed.json["open"] is False
    made = create(saved_client)
    response = submit(saved_client, event, made)
    when = dt.datetime.fromisoformat(closed.json["deadline"]).isoformat().replace("+00:00", "Z")
    assert response.status_code == 409 and when in response.json["message"]
    assert response.json["errors"]["deadline"] == [response.json["message"]]
    assert saved_client.get(f"/api/v1/lists/{made['id']}").json["locked"] is False


def test_submitting_needs_the_lists_edit_token(saved_client):
    event = make_event(saved_client)
    made = create(saved_client)
    url = f"/api/v1/events/{event['id']}/submissions"
    missing = saved_client.post(url, json={"list_id": made["id"], "player": "Ann"})
    wrong = saved_client.post(url, json={"list_id": made["id"], "player": "Ann"}, headers=auth("not-the-token"))
    assert (missing.status_code, wrong.status_code) == (401, 403)
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert (
        saved_client.post(url, json={"list_id": "AAAAAAAAAAAAAAAA", "player": "Ann"}, headers=auth("x")).status_code
        == 404
    )
    assert (
        saved_client.post(
            "/api/v1/events/AAAAAAAAAAAAAAAA/submissions",
            json={"list_id": made["id"], "player": "Ann"},
            headers=auth(made["edit_token"]),
        ).status_code
        == 404
    )


def test_the_openapi_document_states_that_names_may_not_be_blank(saved_client):
    """The rule is a pattern, so clients (and schemathesis) know a blank name is refused."""
    schemas = saved_client.get("/api/v1/openapi.json").json["components"]["schemas"]
    patterns = {
        prop.get("pattern")
        for schema in schemas.values()
        for name, prop in schema.get("properties", {}).items()
        if name in ("name", "player") and "pattern" in prop
    }
    assert patterns == {NOT_BLANK.regex.pattern}


# Code points where Python's and ECMAScript's "\s" disagree, the edges of every blank range,
# and some letters and marks.
_PROBES = [
    0x09,
    0x0A,
    0x0B,
    0x0C,
    0x0D,
    0x1B,
    0x1C,
    0x1D,
    0x1F,
    0x20,
    0x21,
    0x41,
    0x84,
    0x85,
    0x86,
    0xA0,
    0xAD,
    0x1680,
    0x180E,
    0x1FFF,
    0x2000,
    0x200A,
    0x200B,
    0x2028,
    0x2029,
    0x202F,
    0x205F,
    0x2060,
    0x3000,
    0xFEFF,
    0xFFFD,
]


@pytest.mark.skipif(shutil.which("node") is None, reason="no node to run ECMAScript regular expressions")
def test_the_name_pattern_means_the_same_in_python_and_ecmascript():
    r"""OpenAPI patterns are ECMAScript; the server matches with Python's re. "\s" differs
    between them (Python counts \x1d as a space, ECMAScript does not), so the pattern spells its
    blanks out and both must agree on every name made of these characters."""
    names = [chr(c) for c in _PROBES] + ["\v\f\n\x1d", " \ufeff ", "\x85Ann", "\u3000\u2029"]
    script = (
        "const re = new RegExp(process.argv[1]); const names = JSON.parse(process.argv[2]);"
        "console.log(JSON.stringify(names.map((n) => re.test(n))));"
    )
    out = subprocess.run(
        ["node", "-e", script, NOT_BLANK.regex.pattern, json.dumps(names)], capture_output=True, text=True, check=True
    )
    ecmascript = json.loads(out.stdout)
    python = [NOT_BLANK.regex.match(n) is not None for n in names]
    assert python == ecmascript
    assert python[-4:] == [False, False, True, False]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"player": "Ann"}, 422),
        ({"list_id": "x", "player": ""}, 422),
        ({"list_id": "x", "player": "   "}, 422),
        ({"list_id": "x", "player": "\u00a0"}, 422),  # a no-break space is a space too
        ({"list_id": "../etc", "player": "Ann"}, 422),
        ({"list_id": "x", "player": "Ann", "extra": True}, 422),
        ("[", 400),
    ],
)
def test_bad_submissions_get_a_4xx(saved_client, body, status):
    event = make_event(saved_client)
    url = f"/api/v1/events/{event['id']}/submissions"
    if isinstance(body, str):
        response = saved_client.post(url, data=body, content_type="application/json")
    else:
        response = saved_client.post(url, json=body, headers=auth("x"))
    assert response.status_code == status and set(response.json) == ERROR_KEYS


def test_a_list_of_another_system_or_a_book_not_allowed_is_422(saved_client):
    event = make_event(saved_client, books=[{"book": "gf-spore-choir"}])
    response = submit(saved_client, event, create(saved_client))
    assert response.status_code == 422 and "not allowed" in response.json["message"]
    aof = make_event(saved_client, system="age-of-fantasy", books=[{"book": "aof-ember-marches"}])
    response = submit(saved_client, aof, create(saved_client))
    assert response.status_code == 422 and "grimdark-future" in response.json["message"]


def test_a_list_saved_against_another_version_of_its_book_is_409(saved_client, app_with, tmp_path):
    def dearer_wardens(path):
        path.write_text(
            path.read_text().replace("    size: 10\n    cost: {pts: 125}\n", "    size: 10\n    cost: {pts: 140}\n", 1)
        )

    changed = app_with(edited_books(tmp_path, dearer_wardens)).test_client()
    event = make_event(saved_client)  # pins today's book
    made = create(changed)  # saved on a server whose book changed since
    response = submit(saved_client, event, made)
    assert response.status_code == 409 and "book_version" not in response.json["errors"]
    assert (
        "save the list again with the pinned book" in response.json["message"] and "list_id" in response.json["errors"]
    )


def test_the_pinned_book_is_used_even_after_the_server_book_changes(saved_client, app_with, tmp_path):
    event = make_event(saved_client, points_limit=200, force_org=False)
    made = create(saved_client, {**LIST, "points_limit": 200, "force_org": False})  # 200 of 200 under the pinned book

    def dearer_wardens(path):
        path.write_text(
            path.read_text().replace("    size: 10\n    cost: {pts: 125}\n", "    size: 10\n    cost: {pts: 140}\n", 1)
        )

    changed = app_with(edited_books(tmp_path, dearer_wardens)).test_client()
    response = submit(changed, event, made)
    assert response.status_code == 201, response.json
    assert response.json["valid"] is True and response.json["report"]["totals"]["pts"] == 200  # not 215


def test_a_player_submits_again_with_their_token_and_the_report_shows_what_changed(saved_client):
    event = make_event(saved_client)
    first = create(saved_client)
    token = submit(saved_client, event, first).json["player_token"]
    copy = saved_client.post(f"/api/v1/lists/{first['id']}/copy").json  # a locked list is copied to change it
    changed = {**LIST, "units": [LIST["units"][0]]}
    saved_client.put(f"/api/v1/lists/{copy['id']}", json=changed, headers=auth(copy["edit_token"], '"v1"'))
    assert submit(saved_client, event, copy, player=" ann ").status_code == 409  # the name is taken without the token
    again = submit(saved_client, event, copy, player="Ann", player_token=token)
    assert again.status_code == 201 and again.json["player_token"] is None and again.json["number"] == 2
    body = report(saved_client, event)
    assert body["submissions"] == 2 and len(body["entries"]) == 1
    entry = body["entries"][0]
    assert entry["list_id"] == copy["id"] and entry["earlier"]["list_id"] == first["id"]
    assert any(line.startswith("Removed Ember Priest") for line in entry["changes"]), entry["changes"]


def test_submitting_the_same_version_again_changes_nothing(saved_client, db):
    event = make_event(saved_client)
    made = create(saved_client)
    token = submit(saved_client, event, made).json["player_token"]
    before = count_rows(db, event_submissions)
    again = submit(saved_client, event, made, player_token=token)
    assert again.status_code == 200 and again.json["number"] == 1 and count_rows(db, event_submissions) == before


def test_a_first_submission_sent_again_answers_the_same_submission_with_its_player_token(saved_client, db):
    # A lost 201 must not lock the player out: the same request again is the same submission.
    event = make_event(saved_client)
    made = create(saved_client)
    first = submit(saved_client, event, made, player="Ann")
    assert first.status_code == 201
    before = count_rows(db, event_submissions)
    again = submit(saved_client, event, made, player=" ann ")
    assert again.status_code == 200, again.json
    assert {k: again.json[k] for k in ("number", "list_id", "list_version", "player_token", "verification_code")} == {
        k: first.json[k] for k in ("number", "list_id", "list_version", "player_token", "verification_code")
    }
    assert count_rows(db, event_submissions) == before
    # The token handed out again works: Ann submits a copy under her name with it.
    copy = saved_client.post(f"/api/v1/lists/{made['id']}/copy").json
    assert submit(saved_client, event, copy, player="Ann", player_token=again.json["player_token"]).status_code == 201


def test_a_repeat_needs_the_lists_edit_token_and_never_takes_over_another_entry(saved_client):
    event = make_event(saved_client)
    made, other = create(saved_client), create(saved_client)
    token = submit(saved_client, event, made, player="Ann").json["player_token"]
    stranger = saved_client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"list_id": made["id"], "player": "Ann"},
        headers=auth(other["edit_token"]),
    )
    assert stranger.status_code == 403  # not the list's edit token: no token handed out
    assert (
        submit(saved_client, event, other, player="Ann").status_code == 409
    )  # another list under Ann's name needs her token
    assert (
        submit(saved_client, event, made, player="Ann", player_token="x" * 43).status_code == 409
    )  # a wrong token is refused, repeat or not
    assert submit(saved_client, event, made, player="Ann", player_token=token).json["player_token"] == token


def test_a_list_another_player_submitted_is_refused(saved_client):
    event = make_event(saved_client)
    made = create(saved_client)
    submit(saved_client, event, made, player="Ann")
    response = submit(saved_client, event, made, player="Bo")
    assert response.status_code == 409 and "list_id" in response.json["errors"]


def test_a_list_saved_again_between_its_check_and_its_lock_is_stale(db, saved_client):
    event = make_event(saved_client)
    made = create(saved_client)
    saved_client.put(
        f"/api/v1/lists/{made['id']}", json=LIST, headers=auth(made["edit_token"], '"v1"')
    )  # now at version 2
    checked = stored_events.Checked(1, True, "{}", "AAAA-AAAA")
    with pytest.raises(StaleVersion):
        stored_events.submit(
            db,
            event["id"],
            player="Ann",
            player_token=None,
            list_id=made["id"],
            list_token=made["edit_token"],
            checked=checked,
        )
    assert saved_client.get(f"/api/v1/lists/{made['id']}").json["locked"] is False


def test_players_submitting_at_once_each_get_their_own_number(saved_app, db):
    clients = [saved_app.test_client() for _ in range(6)]
    event = make_event(clients[0])
    lists = [create(c) for c in clients]
    answers: list[int] = []

    def go(i):
        answers.append(submit(clients[i], event, lists[i], player=f"Player {i}").status_code)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [201] * len(clients)
    with db.reading() as conn:
        numbers = sorted(
            conn.scalars(select(event_submissions.c.number).where(event_submissions.c.event_id == event["id"]))
        )
        assert numbers == list(range(1, len(clients) + 1))
        assert conn.scalar(
            select(func.count()).select_from(event_submissions).where(event_submissions.c.event_id == event["id"])
        ) == len(clients)


# --------------------------------------------------------------------------------------------
# The organiser's report


def test_the_report_needs_the_organiser_token(saved_client):
    event = make_event(saved_client)
    made = create(saved_client)
    submit(saved_client, event, made)
    for path in ("report", "report.csv", "roster-pack.pdf"):
        url = f"/api/v1/events/{event['id']}/{path}"
        assert saved_client.get(url).status_code == 401
        assert (
            saved_client.get(url, headers=auth(made["edit_token"])).status_code == 403
        )  # a list's token is not the organiser's
    assert saved_client.post(f"/api/v1/events/{event['id']}/revalidate").status_code == 401


def test_the_report_lists_every_entry_with_faction_points_verdict_and_code(saved_client, registry):
    event = make_event(saved_client, allow_illegal=True)
    submit(saved_client, event, create(saved_client), player="Ann")
    submit(saved_client, event, create(saved_client, ILLEGAL), player="Bo")
    body = report(saved_client, event)
    ann, bo = body["entries"]
    assert (ann["player"], ann["faction"], ann["points"], ann["valid"]) == (
        "Ann",
        registry.books[BOOK].name,
        "200 pts",
        True,
    )
    assert (bo["player"], bo["valid"], bo["issues"][0]["code"]) == ("Bo", False, "upgrade.count")
    assert ann["verification_code"] != bo["verification_code"] and ann["changes"] is None
    again = saved_client.post(f"/api/v1/events/{event['id']}/revalidate", headers=organiser(event)).json
    assert [e["revalidated"] for e in again["entries"]] == [True, True]
    assert [e["changed_since_submission"] for e in again["entries"]] == [False, False]
    assert [e["valid"] for e in again["entries"]] == [True, False]


def test_the_csv_export_has_a_row_per_player_and_defuses_formulas(saved_client):
    event = make_event(saved_client, allow_illegal=True)
    submit(saved_client, event, create(saved_client), player='=HYPERLINK("x")')
    submit(saved_client, event, create(saved_client, ILLEGAL), player="Bo")
    response = saved_client.get(f"/api/v1/events/{event['id']}/report.csv", headers=organiser(event))
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="Autumn Open lists.csv"')
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [r["player"] for r in rows] == ['\'=HYPERLINK("x")', "Bo"]
    assert rows[0]["valid"] == "yes" and rows[1]["valid"] == "no" and rows[1]["issues"].startswith("upgrade.count: ")
    assert rows[0]["points"] == "200 pts" and len(rows[0]["verification_code"]) == 9


def test_the_roster_pack_prints_each_entry_with_the_player_in_every_page_header(saved_client):
    event = make_event(saved_client, allow_illegal=True)
    assert (
        saved_client.get(f"/api/v1/events/{event['id']}/roster-pack.pdf", headers=organiser(event)).status_code == 409
    )  # nothing yet
    submit(saved_client, event, create(saved_client), player="Ann Arbor")
    submit(saved_client, event, create(saved_client, ILLEGAL), player="Bo Brandt")
    response = saved_client.get(f"/api/v1/events/{event['id']}/roster-pack.pdf?paper=letter", headers=organiser(event))
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    pdf = PdfReader(io.BytesIO(response.data))
    texts = [page.extract_text() for page in pdf.pages]
    ann = [i for i, t in enumerate(texts) if "Ann Arbor" in t]
    bo = [i for i, t in enumerate(texts) if "Bo Brandt" in t]
    assert ann and bo and ann + bo == list(range(len(texts)))  # every page names its player, Ann's first
    assert "NOT A LEGAL LIST" in texts[bo[0]]
    assert [item.title for item in pdf.outline] == ["Ann Arbor", "Bo Brandt"]
    assert round(float(pdf.pages[0].mediabox.width)) == 612  # letter


def test_openapi_documents_every_event_operation(saved_client):
    spec = saved_client.get("/api/v1/openapi.json").json
    paths = spec["paths"]
    assert set(paths["/api/v1/events/{event_id}/submissions"]["post"]["responses"]) >= {
        "200",
        "201",
        "401",
        "403",
        "404",
        "409",
        "412",
        "422",
    }
    assert paths["/api/v1/events/{event_id}/report"]["get"]["security"] == [{"organiserToken": []}]
    assert "organiserToken" in spec["components"]["securitySchemes"]


def test_deadlines_are_stored_in_utc(saved_client):
    event = make_event(saved_client, deadline="2099-06-01T12:00:00-04:00")
    assert dt.datetime.fromisoformat(event["event"]["deadline"]) == dt.datetime(2099, 6, 1, 16, tzinfo=dt.timezone.utc)


# --------------------------------------------------------------------------------------------
# Hex armour: the event's game mode


def golden(name):
    import json

    from tests.conftest import GOLDEN

    return json.loads((GOLDEN / "armour-hex" / f"{name}.json").read_text())["list"]


def test_an_armour_hex_list_plays_the_events_game_mode_keeping_its_declared_split(saved_client):
    base = {
        "name": "Hex cup",
        "system": "armour-hex",
        "books": [{"book": "ah-sylvan-concord"}, {"book": "ah-hammerdeep-holds"}],
        "deadline": FUTURE,
    }
    asymmetric = make_event(saved_client, **base, game_mode="asymmetric-armour")
    standard = make_event(saved_client, **base, game_mode="standard", allow_illegal=True)
    strict = make_event(saved_client, **base, game_mode="standard")
    declared = golden("legal-asymmetric-armour-declared-sylvan")  # 12 free points written as 4 MP, 3 CP, 5 XP
    kept = submit(saved_client, asymmetric, create(saved_client, declared)).json
    assert kept["valid"] is True and kept["report"]["totals"]["game_mode"] == "asymmetric-armour"
    played = submit(saved_client, standard, create(saved_client, declared)).json
    assert played["report"]["totals"]["game_mode"] == "standard"
    assert "game_mode.budget_mismatch" not in [
        i["code"] for i in played["report"]["issues"]
    ]  # its split means nothing here
    over = submit(saved_client, strict, create(saved_client, golden("illegal-budget-ip-standard")), player="Bo")
    assert over.status_code == 422 and any("budget.ip" in m for ms in over.json["errors"].values() for m in ms)


def test_with_settings_replaces_the_lists_own_settings():
    army = parse_list({**LIST, "points_limit": 2000, "force_org": True})
    played = with_settings(army, {"points_limit": 750, "force_org": False})
    assert (played.points_limit, played.force_org, played.units) == (750, False, army.units)
    assert with_settings(army, {}) == army

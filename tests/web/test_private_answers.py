"""Headers and links at scale (issue 25): no-store on secrets, HSTS over HTTPS, strong If-Match,
and links from the configured public URL whatever Host a request names."""

from __future__ import annotations

import pytest

from tests.web.test_events_api import EVENT, make_event, organiser, submit
from tests.web.test_saved_api import LIST, auth, create

PUBLIC = "https://lists.example.org"


@pytest.fixture()
def public_client(registry, database_url):
    from listbuilder.web import create_app

    app = create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": database_url, "PUBLIC_URL": PUBLIC})
    yield app.test_client()
    if (opened := app.extensions.get("listbuilder.database")) is not None:
        opened.dispose()


def test_answers_that_hand_out_a_token_are_never_stored(saved_client):
    made = saved_client.post("/api/v1/lists", json=LIST)
    assert made.headers["Cache-Control"] == "no-store"
    assert saved_client.post(f"/api/v1/lists/{made.json['id']}/copy").headers["Cache-Control"] == "no-store"
    created = saved_client.post("/api/v1/events", json=EVENT)
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    submitted = submit(saved_client, created.json, made.json)
    assert submitted.status_code == 201 and submitted.headers["Cache-Control"] == "no-store"


def test_the_organisers_views_are_never_stored(saved_client):
    event = make_event(saved_client)
    submit(saved_client, event, create(saved_client))
    base = f"/api/v1/events/{event['id']}"
    for method, path in (
        ("GET", "/report"),
        ("GET", "/report.csv"),
        ("POST", "/revalidate"),
        ("GET", "/roster-pack"),
        ("GET", "/roster-pack.pdf"),
    ):
        answer = saved_client.open(base + path, method=method, headers=organiser(event))
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store", path
    assert "no-store" not in saved_client.get(base).headers.get(
        "Cache-Control", ""
    )  # the event's public settings may be cached
    assert (
        saved_client.get(f"/api/v1/lists/{create(saved_client)['id']}").headers["Cache-Control"] == "no-cache"
    )  # readers revalidate


def test_hsts_is_sent_over_https_only_and_can_be_turned_off(saved_client, monkeypatch):
    assert "Strict-Transport-Security" not in saved_client.get("/api/v1/health").headers
    assert (
        saved_client.get("/api/v1/health", base_url="https://secure.example").headers["Strict-Transport-Security"]
        == "max-age=31536000"
    )
    monkeypatch.setitem(saved_client.application.config, "HSTS_SECONDS", 0)
    assert (
        "Strict-Transport-Security" not in saved_client.get("/api/v1/health", base_url="https://secure.example").headers
    )


def test_a_weak_if_match_never_matches_a_strong_etag(saved_client):
    """RFC 9110 13.1.1: If-Match uses the strong comparison; our ETags are strong."""
    made = create(saved_client)
    url = f"/api/v1/lists/{made['id']}"
    weak = saved_client.put(
        url, json={**LIST, "name": "Changed"}, headers={**auth(made["edit_token"]), "If-Match": 'W/"v1"'}
    )
    assert weak.status_code == 412 and weak.json["errors"].keys() == {"If-Match"}
    assert saved_client.get(url).json["version"] == 1
    assert (
        saved_client.put(url, json={**LIST, "name": "Changed"}, headers=auth(made["edit_token"], '"v1"')).status_code
        == 200
    )


def test_a_delete_or_lock_with_a_weak_or_stale_if_match_changes_nothing(saved_client):
    """DELETE honours an optional If-Match as lock does (RFC 9110 13.1.1: compared strongly);
    a delete sent after reading v1 must not remove a v2 saved meanwhile. It ignored the header."""
    made = create(saved_client)
    url = f"/api/v1/lists/{made['id']}"
    for method, path in (("DELETE", ""), ("POST", "/lock")):
        weak = saved_client.open(url + path, method=method, headers={**auth(made["edit_token"]), "If-Match": 'W/"v1"'})
        assert weak.status_code == 412 and weak.json["errors"].keys() == {"If-Match"}, (method, weak.json)
    assert (
        saved_client.put(url, json={**LIST, "name": "v2"}, headers=auth(made["edit_token"], '"v1"')).status_code == 200
    )
    stale = saved_client.delete(url, headers=auth(made["edit_token"], '"v1"'))
    assert stale.status_code == 412 and stale.headers["Cache-Control"] == "no-store"
    assert (
        saved_client.delete(url, headers={**auth(made["edit_token"]), "If-Match": "v2"}).status_code == 400
    )  # not an entity tag
    assert saved_client.get(url).json["version"] == 2 and saved_client.get(url).json["locked"] is False
    assert saved_client.delete(url, headers=auth(made["edit_token"], '"v2"')).status_code == 204
    other = create(saved_client)
    assert (
        saved_client.delete(
            f"/api/v1/lists/{other['id']}", headers={**auth(other["edit_token"]), "If-Match": "*"}
        ).status_code
        == 204
    )
    stranger = create(saved_client)
    assert (
        saved_client.delete(
            f"/api/v1/lists/{stranger['id']}", headers={**auth("x" * 43), "If-Match": 'W/"v1"'}
        ).status_code
        == 403
    )  # the token first


def test_links_come_from_the_public_url_whatever_host_is_sent(public_client):
    made = public_client.post("/api/v1/lists", json=LIST, headers={"Host": "evil.example"}).json
    assert made["url"] == f"{PUBLIC}/api/v1/lists/{made['id']}" and made["edit_url"].startswith(
        f"{PUBLIC}/l/{made['id']}#edit="
    )
    read = public_client.get(f"/api/v1/lists/{made['id']}", base_url="http://10.0.0.7:8000").json
    assert read["share_url"] == f"{PUBLIC}/l/{made['id']}"
    event = public_client.post("/api/v1/events", json=EVENT, headers={"Host": "evil.example"}).json
    assert event["organiser_url"].startswith(f"{PUBLIC}/events/{event['id']}#organiser=") and event["event"][
        "url"
    ].startswith(PUBLIC)


def test_a_saved_roster_asked_through_two_host_names_is_rendered_once(public_client, monkeypatch):
    """The QR link printed on it is the public one, so the cache key (the content) is the same."""
    from listbuilder.printing import pdf

    renders = []
    real = pdf.render_pdf
    monkeypatch.setattr(pdf, "render_pdf", lambda *a, **k: renders.append(k.get("share_url")) or real(*a, **k))
    made = public_client.post("/api/v1/lists", json={**LIST, "name": "Two hosts"}).json
    first = public_client.get(f"/api/v1/lists/{made['id']}/roster.pdf", base_url="http://node-a.internal:8000")
    second = public_client.get(f"/api/v1/lists/{made['id']}/roster.pdf", base_url="http://node-b.internal:8001")
    assert first.status_code == second.status_code == 200 and first.data == second.data
    assert renders == [f"{PUBLIC}/l/{made['id']}"]


def test_without_a_public_url_a_forged_host_never_reaches_another_users_roster(saved_client, monkeypatch):
    """The QR link follows the Host then, and the cache key holds the link: a request naming
    evil.example gets (and caches) a roster of its own, never one served to anybody else."""
    from listbuilder.printing import pdf
    from tests.printing.test_pdf import pdf_pages

    renders = []
    real = pdf.render_pdf
    monkeypatch.setattr(pdf, "render_pdf", lambda *a, **k: renders.append(k.get("share_url")) or real(*a, **k))
    made = create(saved_client, {**LIST, "name": "Forged host"})
    url = f"/api/v1/lists/{made['id']}/roster.pdf"
    forged = saved_client.get(url, headers={"Host": "evil.example"})
    honest = saved_client.get(url, base_url="https://lists.club.example")
    again = saved_client.get(url, base_url="https://lists.club.example")
    assert forged.status_code == honest.status_code == again.status_code == 200
    assert renders == [f"http://evil.example/l/{made['id']}", f"https://lists.club.example/l/{made['id']}"]
    text = "".join(pdf_pages(honest.data)).replace("\n", "")  # the caption wraps
    assert f"lists.club.example/l/{made['id']}" in text and "evil.example" not in text
    assert again.data == honest.data != forged.data

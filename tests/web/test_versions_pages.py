"""Lists that grow come a page at a time (issue 38): ``GET /lists/<id>/versions`` (a list
keeps up to 1,000 versions, which once came back in one answer) and an event's report."""

from __future__ import annotations

from tests.web.test_saved_api import LIST, auth, create


def saved_with(client, versions):
    made = create(client)
    for number in range(1, versions):
        url = f"/api/v1/lists/{made['id']}"
        response = client.put(
            url, json={**LIST, "name": f"v{number + 1}"}, headers=auth(made["edit_token"], f'"v{number}"')
        )
        assert response.status_code == 200, response.json
    return made["id"]


def test_versions_come_in_pages_linked_by_next_and_link(saved_client):
    list_id = saved_with(saved_client, 7)
    url, seen, pages = f"/api/v1/lists/{list_id}/versions?limit=3", [], 0
    while url:
        response = saved_client.get(url)
        assert response.status_code == 200, response.json
        page = response.json
        assert page["total"] == 7 and page["current"] == 7 and len(page["versions"]) <= 3
        seen += [v["version"] for v in page["versions"]]
        pages += 1
        link = response.headers.get("Link")
        assert (link == f'<{page["next"]}>; rel="next"') if page["next"] else link is None
        url = page["next"]
    assert seen == [1, 2, 3, 4, 5, 6, 7] and pages == 3
    names = [v["name"] for v in saved_client.get(f"/api/v1/lists/{list_id}/versions?offset=5").json["versions"]]
    assert names == ["v6", "v7"]


def test_the_first_page_holds_a_hundred_and_the_default_is_said_in_the_document(saved_client):
    list_id = saved_with(saved_client, 2)
    page = saved_client.get(f"/api/v1/lists/{list_id}/versions").json
    assert [v["version"] for v in page["versions"]] == [1, 2] and page["next"] is None
    spec = saved_client.get("/api/v1/openapi.json").json
    parameters = {p["name"]: p for p in spec["paths"]["/api/v1/lists/{list_id}/versions"]["get"]["parameters"]}
    assert {"limit", "offset"} <= set(parameters) and "100" in parameters["limit"]["description"]


def test_a_page_past_the_end_is_empty_and_a_bad_limit_is_422_naming_it(saved_client):
    list_id = saved_with(saved_client, 1)
    past = saved_client.get(f"/api/v1/lists/{list_id}/versions?offset=10").json
    assert past["versions"] == [] and past["total"] == 1 and past["next"] is None
    for bad in ("limit=0", "limit=1001", "limit=x", "offset=-1"):
        response = saved_client.get(f"/api/v1/lists/{list_id}/versions?{bad}")
        assert response.status_code == 422 and bad.split("=")[0] in str(response.json["errors"]), bad


def test_an_events_report_comes_in_pages_of_entries(saved_client):
    from tests.web.test_events_api import make_event, organiser, submit

    event = make_event(saved_client)
    for player in ("Ann", "Bea", "Cal", "Dee", "Eve"):
        assert submit(saved_client, event, create(saved_client), player=player).status_code == 201
    url, players = f"/api/v1/events/{event['id']}/report?limit=2", []
    while url:
        response = saved_client.get(url, headers=organiser(event))
        assert response.status_code == 200, response.json
        page = response.json
        assert page["total"] == 5 and page["submissions"] == 5 and len(page["entries"]) <= 2
        players += [e["player"] for e in page["entries"]]
        assert response.headers.get("Link") == (f'<{page["next"]}>; rel="next"' if page["next"] else None)
        url = page["next"]
    assert players == ["Ann", "Bea", "Cal", "Dee", "Eve"]
    whole = saved_client.get(f"/api/v1/events/{event['id']}/report", headers=organiser(event)).json
    assert [e["player"] for e in whole["entries"]] == players and whole["next"] is None
    bad = saved_client.get(f"/api/v1/events/{event['id']}/report?limit=0", headers=organiser(event))
    assert bad.status_code == 422 and "limit" in str(bad.json["errors"])


def test_the_event_log_pages_its_result_steps(saved_client):
    from tests.web.test_events_api import make_event, organiser
    from tests.web.test_rounds_api import confirm, register, result, start, url, win

    event = make_event(saved_client)
    tokens = register(saved_client, event, 4)
    tables = start(saved_client, event, seed=3)["pairings"]
    for table in tables:
        a, b = table["players"]
        assert result(saved_client, event, 1, tokens[a], table=table["table"], **win(a, b)).status_code == 201
        assert confirm(saved_client, event, 1, tokens[b], table["table"]).status_code == 201
    first = saved_client.get(url(event, "/log?limit=3"), headers=organiser(event))
    assert first.status_code == 200, first.json
    assert first.json["total"] == 4 and [s["seq"] for s in first.json["results"]] == [1, 2, 3]
    assert first.headers["Link"] == f'<{first.json["next"]}>; rel="next"' and len(first.json["rounds"]) == 1
    second = saved_client.get(first.json["next"], headers=organiser(event)).json
    assert [s["kind"] for s in second["results"]] == ["confirmation"] and second["next"] is None

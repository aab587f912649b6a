"""POST /api/v1/lists/validate-batch: up to 1000 lists, one report each, in order."""

from __future__ import annotations

import json

from tests.conftest import GOLDEN

ERROR_KEYS = {"code", "status", "message", "errors"}
GOLDEN_LISTS = [json.loads(path.read_text())["list"] for path in sorted(GOLDEN.glob("*/*.json"))]


def test_each_list_gets_the_report_single_validation_gives_in_the_order_sent(client):
    response = client.post("/api/v1/lists/validate-batch", json={"lists": GOLDEN_LISTS})
    assert response.status_code == 200
    body = response.json
    assert [r["index"] for r in body["reports"]] == list(range(len(GOLDEN_LISTS)))
    for army, item in zip(GOLDEN_LISTS, body["reports"], strict=True):
        assert item["error"] is None and item["report"] == client.post("/api/v1/lists/validate", json=army).json
    assert body["valid"] == sum(1 for r in body["reports"] if r["report"]["valid"])
    assert 0 < body["valid"] < len(GOLDEN_LISTS)  # the golden lists hold legal and illegal ones


def test_a_list_that_cannot_be_checked_gets_its_error_in_its_place(client):
    good = GOLDEN_LISTS[0]
    body = client.post(
        "/api/v1/lists/validate-batch",
        json={"lists": [good, {"system": "grimdark-future"}, {**good, "book": "no-such-book"}, {"units": 7}, good]},
    ).json
    reports = body["reports"]
    assert [r["report"] is not None for r in reports] == [True, False, False, False, True]
    assert (
        reports[1]["error"]["code"] == 422
        and "units" in reports[1]["error"]["errors"]
        and set(reports[1]["error"]) == ERROR_KEYS
    )
    assert reports[2]["error"]["code"] == 404 and "book" in reports[2]["error"]["errors"]
    assert reports[3]["error"]["code"] == 422


def test_a_thousand_lists_over_1_mib_are_taken_and_1001_are_413(client):
    largest = sorted(GOLDEN_LISTS, key=lambda army: len(json.dumps(army)))[-4:]  # full 2000-point lists
    lists = [largest[i % len(largest)] for i in range(1000)]
    data = json.dumps({"lists": lists})
    assert len(data) > 1024 * 1024  # more than any other endpoint takes
    response = client.post("/api/v1/lists/validate-batch", data=data, content_type="application/json")
    assert response.status_code == 200 and len(response.json["reports"]) == 1000
    over = client.post("/api/v1/lists/validate-batch", json={"lists": lists + lists[:1]})
    assert over.status_code == 413 and set(over.json) == ERROR_KEYS and "lists" in over.json["errors"]


def test_the_batch_body_limit_holds_and_other_endpoints_keep_1_mib(client):
    huge = json.dumps({"lists": [{"name": "x" * (17 * 1024 * 1024)}]})
    assert client.post("/api/v1/lists/validate-batch", data=huge, content_type="application/json").status_code == 413
    two_mib = json.dumps({**GOLDEN_LISTS[0], "name": "x" * (2 * 1024 * 1024)})
    assert client.post("/api/v1/lists/validate", data=two_mib, content_type="application/json").status_code == 413


def test_bad_batches_are_4xx_in_the_error_shape(client):
    for body, status in (
        ({"lists": 5}, 422),
        ({}, 422),
        ({"lists": [], "more": 1}, 422),
        ({"lists": [GOLDEN_LISTS[0], 7]}, 422),
        ({"lists": [None]}, 422),
    ):
        response = client.post("/api/v1/lists/validate-batch", json=body)
        assert response.status_code == status and set(response.json) == ERROR_KEYS
    assert client.post("/api/v1/lists/validate-batch", data="{", content_type="application/json").status_code == 400
    assert client.post("/api/v1/lists/validate-batch", json={"lists": []}).json == {"reports": [], "valid": 0}

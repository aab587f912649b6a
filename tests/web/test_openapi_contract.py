"""The OpenAPI document as a contract tools can build on (issue 29): names, tags, errors,
content, servers, and the small promises around them that the server keeps."""

from __future__ import annotations

import re

import pytest

from listbuilder.web import create_app
from tests.web.test_events_api import make_event
from tests.web.test_saved_api import ERROR_KEYS, LIST, auth, create

METHODS = {"get", "put", "post", "delete", "patch"}
ERROR_REF = {"$ref": "#/components/responses/DEFAULT_ERROR"}


@pytest.fixture(scope="module")
def spec(app):
    return app.test_client().get("/api/v1/openapi.json").get_json()


def operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", operation


def test_every_operation_has_a_unique_readable_operation_id(app, spec):
    ids = [operation.get("operationId") for _, operation in operations(spec)]
    routed = [
        (rule, method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1/")
        and rule.endpoint.count(".") == 1
        and not rule.rule.startswith("/api/v1/docs")
        and rule.rule != "/api/v1/openapi.json"
        for method in rule.methods - {"HEAD", "OPTIONS"}
    ]
    assert len(ids) == len(routed) >= 52 and all(ids)
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]*)+", name) for name in ids), ids
    named = {where: operation["operationId"] for where, operation in operations(spec)}
    assert named["POST /api/v1/lists/validate"] == "validateList"
    assert named["GET /api/v1/lists/{list_id}"] == "getSavedList"
    assert named["POST /api/v1/events/{event_id}/submissions"] == "submitToEvent"


def test_every_operation_is_tagged_with_its_area_and_every_tag_is_described(spec):
    described = {tag["name"]: tag["description"] for tag in spec["tags"]}
    assert "api" not in described and all(described.values())
    used = {tag for _, operation in operations(spec) for tag in operation["tags"]}
    assert used == set(described)
    tag_of = {where: operation["tags"] for where, operation in operations(spec)}
    assert tag_of["GET /api/v1/health"] == ["service"]
    assert tag_of["GET /api/v1/systems"] == ["systems"] and tag_of["GET /api/v1/books"] == ["books"]
    assert tag_of["POST /api/v1/lists/validate"] == ["validation"]


def test_every_operation_declares_the_error_shape_as_its_default(spec):
    for where, operation in operations(spec):
        assert operation["responses"].get("default") == ERROR_REF, where
    default = spec["components"]["responses"]["DEFAULT_ERROR"]
    assert default["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorOut"}


def test_every_success_declares_its_content(spec):
    for where, operation in operations(spec):
        for status, response in operation["responses"].items():
            if status.startswith("2") and status != "204":
                assert response.get("content"), f"{where} {status}"
    paths = spec["paths"]

    def content(path, method="get"):
        return paths[path][method]["responses"]["200"]["content"]

    binary = {"type": "string", "format": "binary"}
    assert content("/api/v1/lists/{list_id}/roster.pdf") == {"application/pdf": {"schema": binary}}
    assert content("/api/v1/events/{event_id}/roster-pack.pdf") == {"application/pdf": {"schema": binary}}
    assert content("/api/v1/lists/{list_id}/roster.txt") == {"text/plain": {"schema": {"type": "string"}}}
    assert content("/api/v1/events/{event_id}/report.csv") == {"text/csv": {"schema": {"type": "string"}}}
    assert "content" not in paths["/api/v1/lists/{list_id}"]["delete"]["responses"]["204"]


def test_the_roster_packs_409_is_declared(spec):
    responses = spec["paths"]["/api/v1/events/{event_id}/roster-pack.pdf"]["get"]["responses"]
    assert "nothing to print" in responses["409"]["description"]


def test_no_component_schema_is_left_unused(spec):
    text = str({key: value for key, value in spec.items() if key != "components"}) + str(
        {key: value for key, value in spec["components"].items() if key != "schemas"}
    )
    schemas = spec["components"]["schemas"]
    referenced = set(re.findall(r"#/components/schemas/([A-Za-z0-9_]+)", text))
    reached, todo = set(), list(referenced)
    while todo:  # schemas named by schemas that are used
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += re.findall(r"#/components/schemas/([A-Za-z0-9_]+)", str(schemas[name]))
    assert "PaginationMetadata" not in schemas
    assert set(schemas) == reached


def test_servers_name_the_configured_public_url(registry, spec):
    assert spec["servers"] == [{"url": "/", "description": "the server this document was fetched from"}]
    app = create_app({"TESTING": True, "REGISTRY": registry, "PUBLIC_URL": "https://lists.example.org/"})
    served = app.test_client().get("/api/v1/openapi.json").get_json()
    assert served["servers"] == [{"url": "https://lists.example.org", "description": "this service"}]


def test_submit_in_list_ids_are_as_long_as_real_ids(saved_client, spec):
    pattern = spec["components"]["schemas"]["SubmitIn"]["properties"]["list_id"]["pattern"]
    made = create(saved_client)
    assert re.fullmatch(pattern, made["id"]) and not re.fullmatch(pattern, made["id"] + "x")
    event = make_event(saved_client)
    url = f"/api/v1/events/{event['id']}/submissions"
    for wrong in (made["id"][:15], made["id"] + "A"):
        response = saved_client.post(url, json={"list_id": wrong, "player": "Ann"}, headers=auth(made["edit_token"]))
        assert response.status_code == 422 and "list_id" in response.json["errors"]


def test_a_204_sends_no_content_type(saved_client):
    made = create(saved_client)
    response = saved_client.delete(f"/api/v1/lists/{made['id']}", headers=auth(made["edit_token"]))
    assert response.status_code == 204 and response.data == b""
    assert "Content-Type" not in response.headers


@pytest.mark.parametrize("if_match", ["v1", "v1, v2", '"v1", v2', "W/v1"])
def test_an_unquoted_if_match_is_refused_with_400(saved_client, if_match):
    made = create(saved_client)
    url = f"/api/v1/lists/{made['id']}"
    response = saved_client.put(url, json={**LIST, "name": "changed"}, headers=auth(made["edit_token"], if_match))
    assert response.status_code == 400 and set(response.json) == ERROR_KEYS and "If-Match" in response.json["errors"]
    locked = saved_client.post(f"{url}/lock", headers=auth(made["edit_token"], if_match))
    assert locked.status_code == 400 and "If-Match" in locked.json["errors"]
    assert saved_client.get(url).json["version"] == 1 and saved_client.get(url).json["locked"] is False
    stranger = saved_client.put(url, json=LIST, headers=auth("not-the-token", if_match))
    assert stranger.status_code == 403  # who may edit is checked first, as for a missing If-Match
    assert saved_client.put(url, json=LIST, headers=auth(made["edit_token"], '"v1"')).status_code == 200


# --------------------------------------------------------------------------------------------
# What answers promise: required keys, typed objects, and the answers keeping those promises


def response_schemas(spec):
    """Names of the component schemas an answer can contain (followed through references)."""
    text = str({where: operation["responses"] for where, operation in operations(spec)}) + str(
        spec["components"].get("responses", {})
    )
    schemas, todo, found = spec["components"]["schemas"], re.findall(r"#/components/schemas/(\w+)", text), set()
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += re.findall(r"#/components/schemas/(\w+)", str(schemas[name]))
    return {name: schemas[name] for name in found}


def test_at_least_four_in_five_answer_objects_state_their_required_keys(spec):
    objects = {
        name: s for name, s in response_schemas(spec).items() if s.get("type") == "object" and s.get("properties")
    }
    stating = sorted(name for name, s in objects.items() if s.get("required"))
    assert len(objects) >= 40
    assert len(stating) / len(objects) >= 0.8, sorted(set(objects) - set(stating))
    for name in (
        "ReportOut",
        "TotalsOut",
        "IssueNoData",  # IssueOut is a union of closed variants (issue 38)
        "SavedListOut",
        "CreatedOut",
        "PreviewOutOpr",  # PreviewOut is a union of one variant per rules family (issue 38)
        "HealthOut",
        "SystemSummaryOut",
    ):
        assert name in stating, name


def conforms(spec, name, answer):
    """Raise unless *answer* is valid against the document's component *name*."""
    from jsonschema import Draft202012Validator

    Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": spec["components"]}).validate(answer)


def test_totals_are_typed_and_every_golden_report_keeps_its_promises(spec):
    import json
    from pathlib import Path

    totals = spec["components"]["schemas"]["TotalsOut"]
    assert {"units", "activations", "models", "left"} <= set(totals["required"])
    # each currency a named, optional integer; no index signature (issue 38: a generated
    # TypeScript type of fixed keys plus an integer index does not compile)
    assert totals["additionalProperties"] is False
    assert all(totals["properties"][c] == {"type": "integer"} for c in ("pts", "vp", "ip", "mp", "cp", "xp"))
    assert not {"pts", "vp", "ip", "mp", "cp", "xp"} & set(totals["required"])
    reports = json.loads((Path(__file__).resolve().parent.parent / "golden_reports.json").read_text())
    assert len(reports) > 50
    for report in reports.values():
        conforms(spec, "ReportOut", report)


def test_a_report_missing_a_required_key_does_not_conform(spec):
    from jsonschema import ValidationError

    report = {
        "valid": True,
        "totals": {"pts": 5, "units": 1, "activations": 1, "models": 1, "left": {"pts": 1}},
        "issues": [],
        "entries": {},
    }
    conforms(spec, "ReportOut", report)
    for broken in (
        {**report, "totals": {"pts": 5, "units": 1, "models": 1, "left": None}},
        {**report, "issues": [{"code": "x", "severity": "error", "message": "m", "path": "units[0]"}]},
        {**report, "totals": {**report["totals"], "pts": "five"}},
    ):
        with pytest.raises(ValidationError):
            conforms(spec, "ReportOut", broken)


def test_real_answers_keep_the_documents_promises(saved_client, spec):
    paths = {
        "/api/v1/health": "HealthOut",
        "/api/v1/systems/armour-hex": "SystemDetailOut",
        "/api/v1/systems/ancients-hex": "SystemDetailOut",
        "/api/v1/systems/grimdark-future": "SystemDetailOut",
        "/api/v1/books/gf-cinder-covenant": "BookOut",
        "/api/v1/books/ah-hammerdeep-holds": "BookOut",
    }
    for path, name in paths.items():
        conforms(spec, name, saved_client.get(path).json)
    for system in saved_client.get("/api/v1/systems").json:
        conforms(spec, "SystemSummaryOut", system)
    made = saved_client.post("/api/v1/lists", json=LIST).json
    conforms(spec, "CreatedOut", made)
    url = f"/api/v1/lists/{made['id']}"
    saved_client.put(url, json={**LIST, "name": "Two"}, headers=auth(made["edit_token"], '"v1"'))
    for path, name in (
        (url, "SavedListOut"),
        (f"{url}/versions", "VersionsOut"),
        (f"{url}/versions/1", "VersionOut"),
        (f"{url}/diff", "DiffOut"),
    ):
        conforms(spec, name, saved_client.get(path).json)
    event = make_event(saved_client)
    submitted = saved_client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"list_id": made["id"], "player": "Ann"},
        headers=auth(made["edit_token"]),
    )
    conforms(spec, "SubmissionOut", submitted.json)
    report = saved_client.get(f"/api/v1/events/{event['id']}/report", headers=auth(event["organiser_token"]))
    conforms(spec, "ReportOutEvent", report.json)
    side = {"book": "gf-cinder-covenant", "unit": "cc-ash-wardens"}
    preview = saved_client.post(
        "/api/v1/previews",
        json={
            "system": "grimdark-future",
            "attacker": side,
            "defender": side,
            "situation": {"attack": "shooting", "range": 12},
        },
    )
    conforms(spec, "PreviewOut", preview.json)


def test_a_systems_preview_form_is_declared_fully_typed(client, spec):
    """``preview`` (issue 34): every key of the form, its inputs, choices and comparisons typed
    and required; an answer breaking the form's shape does not conform."""
    from jsonschema import ValidationError

    schemas = spec["components"]["schemas"]
    for variant in schemas["SystemDetailOut"]["oneOf"]:  # one per rules family (issue 38)
        detail = schemas[variant["$ref"].rsplit("/", 1)[1]]
        assert detail["properties"]["preview"]["$ref"] == "#/components/schemas/PreviewFormOut"
        assert "preview" in detail["required"]
    for name in ("PreviewFormOut", "FormInputOut", "ChoiceOut", "ComparisonOut"):
        component = schemas[name]
        assert component["additionalProperties"] is False and component["required"] == list(component["properties"])
        for key, declared in component["properties"].items():
            assert "type" in declared or "$ref" in declared, f"{name}.{key}"
            if declared.get("type") == "array":
                assert "type" in declared["items"] or "$ref" in declared["items"], f"{name}.{key}"
    assert schemas["FormInputOut"]["properties"]["initial"]["type"] == ["boolean", "integer", "string", "null"]
    form = client.get("/api/v1/systems/grimdark-future").json["preview"]
    conforms(spec, "PreviewFormOut", form)
    first = form["inputs"][0]
    for broken in (
        {**form, "inputs": [{**first, "kind": "slider"}]},
        {**form, "inputs": [{**first, "initial": {"any": "thing"}}]},
        {**form, "comparisons": [{"label": "Charge", "attack": "melee"}]},
        {**form, "extra": True},
    ):
        with pytest.raises(ValidationError):
            conforms(spec, "PreviewFormOut", broken)


def test_tournament_day_answers_keep_the_documents_promises(saved_client, spec):
    """A round with a bye, an entered result, a confirmed one, and a book's edition note: every
    key the document calls required is there (PairingOut, RoundOut, ResultOut, EditionOut)."""
    from tests.web.test_rounds_api import confirm, register, result, start, url, win

    event = make_event(saved_client)
    tokens = register(saved_client, event, 5)
    conforms(spec, "RoundOut", start(saved_client, event, seed=1))
    table = saved_client.get(url(event, "/rounds/1")).json["pairings"][0]
    a, b = table["players"]
    entered = result(saved_client, event, 1, tokens[a], table=table["table"], **win(a, b))
    assert entered.status_code == 201, entered.json
    conforms(spec, "ResultOut", entered.json)
    conforms(spec, "RoundOut", saved_client.get(url(event, "/rounds/1")).json)  # waiting, open and bye tables
    conforms(spec, "ResultOut", confirm(saved_client, event, 1, tokens[b], table["table"]).json)
    conforms(spec, "RoundOut", saved_client.get(url(event, "/rounds/1")).json)
    conforms(spec, "EditionOut", saved_client.get("/api/v1/books/gf-cinder-covenant").json["edition"])


def test_issue_data_is_one_of_the_shapes_the_core_declares(spec):
    """IssueOut is one closed variant per shape of ``data`` (issue 38), its ``code`` an enum of
    the codes that send that shape, and ``IssueNoData`` for every other code: a client narrows
    ``data`` by ``code``."""
    from listbuilder import issue_data
    from listbuilder.shapes.api import issue_codes

    schemas = spec["components"]["schemas"]
    issues = [ref["$ref"].rsplit("/", 1)[1] for ref in schemas["IssueOut"]["oneOf"]]
    assert sorted(issues) == sorted([*(f"Issue{shape.name}" for shape in issue_data.SHAPES), "IssueNoData"])
    variants = [schemas[name]["properties"]["data"]["$ref"].rsplit("/", 1)[1] for name in issues[:-1]]
    assert sorted(variants) == sorted(f"IssueData{shape.name}" for shape in issue_data.SHAPES)
    with_data = set()
    for shape in issue_data.SHAPES:
        issue = schemas[f"Issue{shape.name}"]
        assert issue["properties"]["code"]["enum"] == list(shape.codes) and "data" in issue["required"]
        with_data.update(shape.codes)
    plain = schemas["IssueNoData"]
    assert set(plain["properties"]["code"]["enum"]) == set(issue_codes()) - with_data
    assert "data" not in plain["properties"] and plain["additionalProperties"] is False
    kinds = {
        "integer": {"type": "integer"},
        "string": {"type": "string"},
        "strings": {"type": "array", "items": {"type": "string"}},
        "cost": {"$ref": "#/components/schemas/CostOut"},
    }
    for shape in issue_data.SHAPES:
        component = schemas[f"IssueData{shape.name}"]
        assert component["required"] == list(shape.keys) and component["additionalProperties"] is False
        assert component["properties"] == {key: kinds[kind] for key, kind in shape.keys.items()}
        assert all(code in component["description"] for code in shape.codes)
    sizes = [len(schemas[name]["required"]) for name in variants]
    assert sizes == sorted(sizes, reverse=True)  # a generated client tries the most keys first


def test_an_issue_whose_data_is_no_declared_shape_does_not_conform(spec):
    from jsonschema import ValidationError

    issue = {"code": "force_org.heroes", "severity": "error", "message": "m", "path": "units[0]", "clause": "c"}
    conforms(spec, "IssueOut", {**issue, "data": {"max": 2, "count": 3}})
    plain = {**issue, "code": "upgrade.not_offered"}
    conforms(spec, "IssueOut", plain)
    for data in ({"max": 2}, {"max": 2, "count": 3, "more": 1}, {"max": "2", "count": 3}):
        with pytest.raises(ValidationError):
            conforms(spec, "IssueOut", {**issue, "data": data})
    for broken in (
        issue,  # a code with figures always sends them
        {**plain, "data": {"max": 2, "count": 3}},  # a code without figures sends none
        {**issue, "code": "force_org.nonesuch", "data": {"max": 2, "count": 3}},  # not a code any family has
        {**issue, "data": {"allowed": 2, "taken": 3}},  # another code's shape
    ):
        with pytest.raises(ValidationError):
            conforms(spec, "IssueOut", broken)


def test_a_status_an_operation_does_not_list_is_caught_even_with_a_default(app, spec):
    import flask

    from tests.declared_statuses import declared, openapi_path, undeclared

    assert openapi_path("/api/v1/lists/<list_id>/versions/<int:number>") == "/api/v1/lists/{list_id}/versions/{number}"
    assert declared(spec)[("/api/v1/health", "GET")] == set(spec["paths"]["/api/v1/health"]["get"]["responses"]) - {
        "default"
    }
    with app.test_request_context("/api/v1/health"):
        assert undeclared(app, flask.Response(status=200)) is None
        assert "GET /api/v1/health answered 418" in undeclared(app, flask.Response(status=418))
    with app.test_request_context("/api/v1/no-such-thing"):
        assert undeclared(app, flask.Response(status=404)) is None  # no operation: default's business


def drive(client, spec, prefix, ids, headers):
    """Each operation under *prefix* with *ids* in its path, *headers* and (a body to one) ``{}``:
    ({"METHOD path": status}, those whose status the operation does not declare)."""
    from tests.declared_statuses import declared

    statuses, answers, undeclared = declared(spec), {}, []
    for path, method in sorted(statuses):
        if path.startswith(prefix):
            url = path.format(**ids, number=1, table=1)
            body = {"json": {}} if method in {"POST", "PUT", "PATCH"} else {}
            status = answers[f"{method} {path}"] = client.open(url, method=method, headers=headers, **body).status_code
            undeclared += [f"{method} {path} {status}"] * (str(status) not in statuses[(path, method)])
    return answers, undeclared


def test_every_operation_on_a_deleted_or_unknown_event_answers_a_status_it_declares(saved_client, spec):
    event = make_event(saved_client)
    headers = auth(event["organiser_token"])
    assert saved_client.delete(f"/api/v1/events/{event['id']}", headers=headers).status_code == 204
    answers, undeclared = drive(saved_client, spec, "/api/v1/events/{event_id}", {"event_id": event["id"]}, headers)
    assert undeclared == []
    assert {
        answers[f"GET /api/v1/events/{{event_id}}{tail}"]
        for tail in ("", "/report", "/report.csv", "/roster-pack.pdf", "/standings")
    } == {410}
    answers, undeclared = drive(saved_client, spec, "/api/v1/events/{event_id}", {"event_id": "no-such-event"}, headers)
    assert undeclared == [] and answers["GET /api/v1/events/{event_id}/report"] == 404


def test_every_operation_on_a_deleted_locked_or_unknown_list_answers_a_status_it_declares(saved_client, spec):
    made = create(saved_client)
    headers = auth(made["edit_token"])
    prefix, ids = "/api/v1/lists/{list_id}", {"list_id": made["id"]}
    locked = saved_client.post(f"/api/v1/lists/{made['id']}/lock", headers={**headers, "If-Match": '"v1"'})
    assert locked.status_code == 200, locked.json
    answers, undeclared = drive(saved_client, spec, prefix, ids, {**headers, "If-Match": '"v1"'})
    assert undeclared == [] and answers["DELETE /api/v1/lists/{list_id}"] == 423
    other = create(saved_client)
    assert saved_client.delete(f"/api/v1/lists/{other['id']}", headers=auth(other["edit_token"])).status_code == 204
    answers, undeclared = drive(saved_client, spec, prefix, {"list_id": other["id"]}, auth(other["edit_token"]))
    assert undeclared == [] and answers["GET /api/v1/lists/{list_id}"] == 410
    answers, undeclared = drive(saved_client, spec, prefix, {"list_id": "A" * 16}, headers)
    assert undeclared == [] and answers["GET /api/v1/lists/{list_id}"] == 404

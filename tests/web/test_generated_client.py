"""The OpenAPI document as an integrator uses it (issue 29): valid OpenAPI 3.1, and a client
generated from it by openapi-python-client, with the settings docs/api-clients.md gives,
drives a whole flow against the app with typed models (validate, save, read, update, preview
with an inline profile, the roster PDF as bytes).

The generated package is written to a temporary folder and imported from there; its httpx
client talks to the app in process (``httpx.WSGITransport``), on each database backend."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from openapi_spec_validator import validate

from listbuilder import issue_data
from tests.conftest import GOLDEN
from tests.web.test_saved_api import LIST

PACKAGE = "listbuilder_client"
# The settings docs/api-clients.md shows: a PDF answer is a File of bytes, not "unsupported".
CONFIG = "content_type_overrides:\n  application/pdf: application/octet-stream\npost_hooks: []\n"


@pytest.fixture(scope="module")
def document(registry):
    from listbuilder.web import create_app

    return create_app({"TESTING": True, "REGISTRY": registry}).test_client().get("/api/v1/openapi.json").get_json()


def generate(document, folder: Path, config: str) -> str:
    """Run the generator on *document* into *folder*; its output (warnings included)."""
    (folder / "openapi.json").write_text(json.dumps(document))
    (folder / "config.yaml").write_text(config)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            "openapi.json",
            "--config",
            "config.yaml",
            "--meta",
            "none",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def client_package(document, tmp_path_factory):
    folder = tmp_path_factory.mktemp("client")
    output = generate(document, folder, CONFIG)
    assert "Warning" not in output and "WARNING" not in output, output
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_the_document_is_valid_openapi_3_1(document):
    validate(document)
    assert document["openapi"] == "3.1.0"


def test_without_the_pdf_setting_the_generator_warns_only_of_unsupported_media_types(document, tmp_path):
    output = generate(document, tmp_path, "post_hooks: []\n")
    warnings = output.split("WARNING parsing ")[1:]
    pdfs = [
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method != "parameters"
        and "application/pdf" in operation.get("responses", {}).get("200", {}).get("content", {})
    ]
    assert len(pdfs) >= 5  # /rosters/pdf, roster.pdf, roster-pack.pdf, pairings.pdf, standings.pdf
    assert sorted(block.split(" within ")[0] for block in warnings) == sorted(pdfs)
    assert all("Unsupported content_type application/pdf" in block for block in warnings)


def generated(name: str):
    """A module of the generated package (imported by name: it exists only once generated)."""
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_a_generated_client_drives_a_whole_flow(client_package, saved_app):
    AuthenticatedClient, Client = client_package.AuthenticatedClient, client_package.Client
    preview_attack = generated("api.previews.preview_attack")
    get_saved_list, get_saved_roster_pdf, save_list, update_saved_list = (
        generated(f"api.saved_lists.{name}")
        for name in ("get_saved_list", "get_saved_roster_pdf", "save_list", "update_saved_list")
    )
    validate_list = generated("api.validation.validate_list")
    m = generated("models")
    ArmyList, CreatedOut, ErrorOut, OprProfile, OprSituation, OprSituationAttack, PreviewOutOpr = (
        m.ArmyList,
        m.CreatedOut,
        m.ErrorOut,
        m.OprProfile,
        m.OprSituation,
        m.OprSituationAttack,
        m.PreviewOutOpr,
    )
    PreviewRequestOpr, PreviewRequestOprSystem, ReportOut, SavedListOut, SideBook, SideProfile, Weapon = (
        m.PreviewRequestOpr,
        m.PreviewRequestOprSystem,
        m.ReportOut,
        m.SavedListOut,
        m.SideBook,
        m.SideProfile,
        m.Weapon,
    )
    File = generated("types").File

    transport = {"transport": httpx.WSGITransport(app=saved_app)}
    api = Client(base_url="http://testserver", raise_on_unexpected_status=True, httpx_args=transport)
    army = ArmyList.from_dict(LIST)

    report = validate_list.sync(client=api, body=army)
    assert isinstance(report, ReportOut) and report.valid is True
    assert report.totals.pts == 200 and report.totals.left["pts"] == 800 and report.issues == []

    created = save_list.sync(client=api, body=army)
    assert isinstance(created, CreatedOut) and created.version == 1 and created.report.valid is True
    read = get_saved_list.sync(created.id, client=api)
    assert isinstance(read, SavedListOut) and read.list_.name == "Ember Host" and read.rules.book == LIST["book"]

    owner = AuthenticatedClient(
        base_url="http://testserver", token=created.edit_token, raise_on_unexpected_status=True, httpx_args=transport
    )
    renamed = ArmyList.from_dict({**LIST, "name": "Ember Host II"})
    updated = update_saved_list.sync(created.id, client=owner, body=renamed, if_match='"v1"')
    assert isinstance(updated, SavedListOut) and updated.version == 2 and updated.list_.name == "Ember Host II"
    stale = update_saved_list.sync(created.id, client=owner, body=renamed, if_match='"v1"')
    assert isinstance(stale, ErrorOut) and stale.code == 412 and "If-Match" in stale.errors.additional_properties

    request = PreviewRequestOpr(
        system=PreviewRequestOprSystem.GRIMDARK_FUTURE,
        attacker=SideBook(book=LIST["book"], unit="cc-ash-wardens"),
        defender=SideProfile(
            profile=OprProfile(
                name="Target Drone", quality=5, defense=5, size=5, weapons=[Weapon(name="Claws", attacks=1)]
            )
        ),
        situation=OprSituation(attack=OprSituationAttack.SHOOTING, range_=12),
    )
    preview = preview_attack.sync(client=api, body=request)
    assert isinstance(preview, PreviewOutOpr), preview  # the answer's variant follows its system (issue 38)
    assert preview.defender.name == "Target Drone" and 0 < preview.p_destroyed < 1
    assert preview.expected.hits > 0 and preview.consequences.morale.p_test >= 0

    pdf = get_saved_roster_pdf.sync(created.id, client=api)
    assert isinstance(pdf, File) and pdf.payload.read().startswith(b"%PDF-")


def test_the_readmes_preview_parses_into_the_generated_request(client_package):
    PreviewRequestOpr, SideBook = generated("models").PreviewRequestOpr, generated("models").SideBook

    body = {
        "system": "age-of-fantasy",
        "attacker": {"book": "aof-ember-marches", "unit": "crossbowmen"},
        "defender": {"book": "aof-sunken-hollows", "unit": "mire-warriors"},
        "situation": {"attack": "shooting", "range": 18, "cover": True},
    }
    request = PreviewRequestOpr.from_dict(body)
    assert isinstance(request.attacker, SideBook) and request.situation.cover is True
    assert request.to_dict() == body


def test_a_validate_answer_parses_each_issues_data_into_its_typed_model(client_package, app):
    validate_list = generated("api.validation.validate_list")
    m = generated("models")
    api = client_package.Client(
        base_url="http://testserver",
        raise_on_unexpected_status=True,
        httpx_args={"transport": httpx.WSGITransport(app=app)},
    )
    army = json.loads((GOLDEN / "grimdark-future" / "illegal-upgrades.json").read_text())["list"]

    report = validate_list.sync(client=api, body=m.ArmyList.from_dict(army))
    assert isinstance(report, m.ReportOut) and report.valid is False
    data = {(issue.code, type(issue.data).__name__) for issue in report.issues if hasattr(issue, "data")}
    assert data >= {
        ("upgrade.replace_exceeds", "IssueDataGearLeft"),
        ("upgrade.select", "IssueDataAllowedTaken"),
        ("upgrade.requires", "IssueDataRequires"),
        ("upgrade.required", "IssueDataRequiredTaken"),
    }
    exceeds = next(issue for issue in report.issues if issue.code == "upgrade.replace_exceeds")
    assert isinstance(exceeds.data.gear, str) and exceeds.data.asked > exceeds.data.left >= 0
    offered = next(issue for issue in report.issues if issue.code == "upgrade.not_offered")
    assert isinstance(offered, m.IssueNoData) and not hasattr(offered, "data")  # a code with no figures sends none


def test_every_golden_lists_issues_parse_into_the_shape_declared_for_their_code(client_package, client):
    ReportOut = generated("models").ReportOut
    parsed = 0
    for path in sorted(GOLDEN.glob("*/*.json")):
        answer = client.post("/api/v1/lists/validate", json=json.loads(path.read_text())["list"]).get_json()
        for raw, issue in zip(answer["issues"], ReportOut.from_dict(answer).issues, strict=True):
            assert issue.to_dict() == raw, path.name
            if "data" in raw:
                shape = issue_data.shape_of(raw["code"], raw["data"])
                assert type(issue.data).__name__ == f"IssueData{shape.name}", (path.name, raw)
                parsed += 1
    assert parsed >= 40

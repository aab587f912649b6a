"""The API from a second language (issue 38): a TypeScript program, typed only by what
openapi-typescript (default settings) generates from the live document, compiles under tsc
strict with noUncheckedIndexedAccess and without a cast, an ``any`` or a non-null assertion,
then drives every operation group against a real server and checks each JSON answer against
its declared schema with ajv. The issue's second generator, @hey-api/openapi-ts, makes types and
an SDK from the same document that compile under the same settings and drive the server too
(hey_client.ts). ``make contract`` installs the pinned tools (package-lock.json)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading

import pytest
from werkzeug.serving import make_server

from tests.answer_schemas import CONTRACT

BUILD = CONTRACT / "build"


def run(*command: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=CONTRACT, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def server(registry, tmp_path_factory):
    from listbuilder.web import create_app

    if shutil.which("node") is None or not (CONTRACT / "node_modules" / "openapi-typescript").is_dir():
        pytest.fail("the contract tools are not installed: run make contract")
    database = tmp_path_factory.mktemp("contract") / "app.sqlite3"
    app = create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{database}"})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    BUILD.mkdir(exist_ok=True)
    (BUILD / "openapi.json").write_text(json.dumps(app.test_client().get("/api/v1/openapi.json").get_json()))
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(timeout=10)


def without_strings_and_comments(source: str) -> str:
    source = re.sub(r"//[^\n]*|/\*.*?\*/", "", source, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`|/(?:\\.|[^/\\\n])+/[gimsuy]*(?=[.,;)\s])', '""', source)


@pytest.mark.parametrize("program", ["client.ts", "hey_client.ts"])
def test_the_client_program_asserts_no_types_of_its_own(program):
    code = without_strings_and_comments((CONTRACT / program).read_text())
    assert not re.search(r"\bas\b", code), "a type assertion (as)"
    assert not re.search(r"\bany\b", code), "an any"
    assert not re.search(r"[\w)\]]!(?!=)", code), "a non-null assertion (!)"
    assert "<any>" not in code and "@ts-" not in code


def test_generated_types_compile_strict_and_the_client_runs_green_against_the_server(server):
    generated = run(
        "node", "node_modules/openapi-typescript/bin/cli.js", "build/openapi.json", "-o", "build/schema.d.ts"
    )
    assert generated.returncode == 0, generated.stderr
    compiled = run("node", "node_modules/typescript/bin/tsc", "-p", "tsconfig.json")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    ran = run("node", "build/client.js", server, "build/openapi.json")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    summary = json.loads(ran.stdout.strip().splitlines()[-1])
    assert summary["problems"] == [] and summary["checked"] >= 40, summary


def test_hey_api_types_and_sdk_compile_strict_and_drive_the_server(server):
    """The issue's second generator, @hey-api/openapi-ts (default settings: types, SDK and its
    fetch client), from the same document: its output and hey_client.ts compile under the same
    strict tsconfig, and the program narrows previews on ``system``, a system on ``family`` and
    issue data on ``code`` against the running server."""
    shutil.rmtree(BUILD / "hey", ignore_errors=True)
    # "./": without it hey-api reads the path as the shorthand of a project on its own registry
    generated = run(
        "node", "node_modules/@hey-api/openapi-ts/bin/run.js", "-i", "./build/openapi.json", "-o", "./build/hey"
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    compiled = run("node", "node_modules/typescript/bin/tsc", "-p", "tsconfig.hey.json")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    ran = run("node", "build/hey-out/hey_client.js", server)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    headlines = json.loads(ran.stdout.strip().splitlines()[-1])["headlines"]
    assert [h.split(" ")[0] for h in headlines] == ["morale", "retreat", "advantage"], headlines


def test_redocly_recommended_rules_find_no_error(server):
    """redocly lint with its recommended rules (no config of ours): 0 errors (32 public
    operations once lacked ``security: []``)."""
    linted = run("node", "node_modules/@redocly/cli/bin/cli.js", "lint", "build/openapi.json", "--format=json")
    report = json.loads(linted.stdout)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert report["totals"]["errors"] == 0 and errors == [], errors

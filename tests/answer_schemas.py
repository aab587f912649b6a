"""Every JSON answer an API operation gives in a test satisfies the schema its OpenAPI entry
declares (issue 38), checked by ajv (JSON Schema 2020-12) as a client in another language
would check it.

``tests/declared_statuses.py`` hears every answer of every app in every test; the JSON ones of
``/api/v1`` operations are kept, and at the end of the test each is sent with its document to
one ajv process per session (``tests/contract/check_answers.mjs``, installed by
``make contract``). Without node or that install, Python's jsonschema checks them instead, so a
plain ``pytest`` run checks them too.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONTRACT = Path(__file__).resolve().parent / "contract"


@dataclass(frozen=True)
class Answer:
    app: Any  # the Flask app that answered: its document is read when the answer is checked
    path: str  # as the document writes it: /api/v1/lists/{list_id}
    method: str  # lower case, as the document's keys
    status: int
    body: Any


_SPECS: dict[str, dict[str, Any]] = {}


def document_key(spec: dict[str, Any]) -> str:
    """The digest naming *spec*; the document is kept to be sent to the checker once."""
    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]
    _SPECS.setdefault(key, spec)
    return key


class _Ajv:
    """The ajv process, started on first use and kept for the session."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["node", str(CONTRACT / "check_answers.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.sent: set[str] = set()
        atexit.register(self.close)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the ajv checker (tests/contract/check_answers.mjs) stopped")
        return json.loads(line)  # type: ignore[no-any-return]

    def errors(self, answer: Answer, document: str) -> list[str]:
        if document not in self.sent:
            self.ask({"document": document, "spec": _SPECS[document]})
            self.sent.add(document)
        reply = self.ask(
            {
                "document": document,
                "path": answer.path,
                "method": answer.method,
                "status": answer.status,
                "body": answer.body,
            }
        )
        return list(reply["errors"])

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()


def _python_errors(answer: Answer, document: str) -> list[str]:
    """The same check with Python's jsonschema, where ajv is not installed."""
    from jsonschema import Draft202012Validator

    spec = _SPECS[document]
    responses = spec["paths"][answer.path][answer.method]["responses"]
    status = str(answer.status)
    response = responses.get(status) or responses.get(f"{status[0]}XX") or responses["default"]
    if "$ref" in response:
        response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    schema = response.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return [f"no JSON schema is declared for {answer.method.upper()} {answer.path} {status}"]
    validator = Draft202012Validator({**schema, "components": spec["components"]})
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(answer.body)]


_checker: list[_Ajv] = []


def ajv_installed() -> bool:
    return shutil.which("node") is not None and (CONTRACT / "node_modules" / "ajv").is_dir()


def violations(answers: list[Answer], document_of: Any) -> list[str]:
    """What is wrong with each answer, as "GET /api/v1/... 200: /path: message" lines;
    *document_of(app)* is the key of the app's document (answers of paths it does not
    declare, such as HEAD or a 405, are left out)."""
    if not answers:
        return []
    if ajv_installed() and not _checker:
        _checker.append(_Ajv())
    check = _checker[0].errors if _checker else _python_errors
    out = []
    for answer in answers:
        document = document_of(answer.app)
        if answer.method not in _SPECS[document]["paths"].get(answer.path, {}):
            continue
        for error in check(answer, document)[:5]:
            out.append(f"{answer.method.upper()} {answer.path} {answer.status}: {error}")
    return out

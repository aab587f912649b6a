"""The API examples in README.md and docs/*.md, run against the app: a printed answer that
drifts from the server's fails here (issue 29).

The convention an example follows to be run (docs/api-clients.md says it for writers):

- a fenced ``sh`` block whose last command is one ``curl`` of ``localhost:8000/api/v1/...``
  (``-X``, ``-H`` and ``-d '<json>'`` are read; ``-s`` and ``-i`` are ignored), and
- right after it (blank lines allowed between), a fenced ``json`` block: the answer.

The printed answer may leave things out. An object needs only the keys it shows, an array
shows every item, and a string ``"…"`` (or ``"..."``) stands for any value; a string with ``…``
inside stands for any text in its place (``"…/l/…"``). Everything shown must equal the answer.
Examples run in document order on one fresh database, so one may use what an earlier saved.

docs/api.md is also run whole (issue 38): every curl of the API in each of its ``sh`` blocks, in
order, on one server, the doc's list id and ``$TOKEN`` bound to the first list it saves and
``-d @list.json`` read from ``FILES``; a trailing ``# NNN`` says the status a command answers,
and any other command must succeed (its saved-list block once ended ``DELETE … # 204`` on a
list it had locked, which answers 423).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
ANY = ("…", "...")


def examples(path: Path) -> list[tuple[int, str, Any]]:
    """(line, curl command, printed answer) for each example in *path* that follows the convention."""
    text = path.read_text(encoding="utf-8")
    fences = list(FENCE.finditer(text))
    found = []
    for shell, answer in zip(fences, fences[1:]):
        between = text[shell.end() : answer.start()]
        if shell.group(1) != "sh" or answer.group(1) != "json" or between.strip():
            continue
        command = last_command(shell.group(2))
        if command is not None:
            found.append((text.count("\n", 0, shell.start()) + 1, command, json.loads(answer.group(2))))
    return found


def shell_commands(script: str) -> list[str]:
    """The commands of a shell snippet, each with its continued lines and trailing comment
    (comment lines between them dropped)."""
    commands, current = [], ""
    for line in script.splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        current += line + "\n"
        try:
            shlex.split(current, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        if not current.rstrip().endswith("\\"):
            commands.append(current)
            current = ""
    return commands


def is_api_curl(command: str) -> bool:
    return re.match(r"\s*curl\b.*localhost:8000/api/v1/", command, re.S) is not None


def last_command(script: str) -> str | None:
    """The last command of a shell snippet if it is a curl of the API."""
    commands = shell_commands(script)
    return commands[-1] if commands and is_api_curl(commands[-1]) else None


def request_of(command: str) -> dict[str, Any]:
    """method, path, headers and body of a curl command."""
    words = shlex.split(command.replace("\\\n", " "), comments=True)[1:]
    method, headers, body, url = None, {}, None, None
    while words:
        word = words.pop(0)
        if word in ("-X", "--request"):
            method = words.pop(0)
        elif word in ("-H", "--header"):
            name, _, value = words.pop(0).partition(":")
            headers[name.strip()] = value.strip()
        elif word in ("-d", "--data", "--data-raw"):
            body = words.pop(0)
            assert not body.startswith("@"), "an example that is run sends its body inline"
        elif word.startswith("-"):
            assert word in ("-s", "-i", "-si", "--silent"), f"an option the doc test does not read: {word}"
        else:
            url = word
    assert url is not None and "localhost:8000" in url
    path = url.split("localhost:8000", 1)[1]
    return {"method": method or ("POST" if body is not None else "GET"), "path": path, "headers": headers, "data": body}


def shown_in(printed: Any, real: Any, where: str = "answer") -> list[str]:
    """Where *printed* differs from *real* (empty when every shown part is the server's)."""
    if isinstance(printed, str) and "…" in printed.replace("...", "…"):
        pattern = ".*".join(re.escape(part) for part in printed.replace("...", "…").split("…"))
        return (
            []
            if printed in ANY or (isinstance(real, str) and re.fullmatch(pattern, real, re.S))
            else [f"{where}: {real!r} is not {printed!r}"]
        )
    if isinstance(printed, dict):
        if not isinstance(real, dict):
            return [f"{where}: {real!r} is not an object"]
        out = [f"{where}.{key}: missing" for key in printed if key not in real]
        for key in printed:
            if key in real:
                out += shown_in(printed[key], real[key], f"{where}.{key}")
        return out
    if isinstance(printed, list):
        if not isinstance(real, list) or len(real) != len(printed):
            return [f"{where}: {real!r} does not have the {len(printed)} items shown"]
        return [problem for i, (p, r) in enumerate(zip(printed, real)) for problem in shown_in(p, r, f"{where}[{i}]")]
    return (
        []
        if printed == real and type(printed) is type(real)
        else [f"{where}: the server says {real!r}, the example {printed!r}"]
    )


CASES = [
    pytest.param(path, line, command, answer, id=f"{path.relative_to(ROOT)}:{line}")
    for path in DOCUMENTS
    for line, command, answer in examples(path)
]


@pytest.fixture(scope="module")
def doc_client(registry, tmp_path_factory):
    from listbuilder.web import create_app

    database = tmp_path_factory.mktemp("doc-examples") / "examples.sqlite3"
    return create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{database}"}).test_client()


def test_the_documents_have_examples_that_run():
    assert CASES, "no example follows the convention: the docs' answers would drift unseen"


@pytest.mark.parametrize(("path", "line", "command", "answer"), CASES)
def test_an_example_answers_what_it_prints(doc_client, path, line, command, answer):
    request = request_of(command)
    response = doc_client.open(
        request["path"], method=request["method"], headers=request["headers"], data=request["data"]
    )
    problems = shown_in(answer, response.get_json())
    assert not problems, f"{path.name}:{line}: " + "; ".join(problems)


def test_a_drifted_answer_is_caught():
    real = {
        "valid": False,
        "totals": {"pts": 485, "left": {"pts": 515}},
        "issues": [{"code": "a"}, {"code": "b"}],
        "id": "Vd1pQ0rYkq3Xc7Ue",
    }
    assert shown_in({"totals": {"pts": 485}, "issues": [{"code": "a"}, {}], "id": "…"}, real) == []
    assert shown_in({"totals": {"pts": 470, "left": {"pts": 530}}}, real) == [
        "answer.totals.pts: the server says 485, the example 470",
        "answer.totals.left.pts: the server says 515, the example 530",
    ]
    assert shown_in({"issues": [{"code": "a"}]}, real) != []  # every item is shown
    assert shown_in({"url": "http://…/lists/…"}, {"url": "http://localhost/api/v1/lists/x"}) == []
    assert shown_in({"valid": 0}, {"valid": False}) != []


def test_the_convention_reads_the_last_curl_and_its_answer(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text(
        "```sh\n# two requests\ncurl -s localhost:8000/api/v1/systems\ncurl -s localhost:8000/api/v1/lists/validate \\\n"
        '  -H \'Content-Type: application/json\' -d \'{\n  "system": "x"}\'\n```\n\n```json\n{"code": 422}\n```\n'
        "```sh\ncurl -s localhost:8000/api/v1/health\n```\nprose\n```json\n{}\n```\n",
        encoding="utf-8",
    )
    (found,) = examples(doc)
    assert found[0] == 1 and found[2] == {"code": 422}
    assert request_of(found[1]) == {
        "method": "POST",
        "path": "/api/v1/lists/validate",
        "headers": {"Content-Type": "application/json"},
        "data": '{\n  "system": "x"}',
    }


# --------------------------------------------------------------------------------------------
# docs/api.md's blocks run whole, in order, on one server (issue 38): every curl of the API,
# not only the last one of a block, with what earlier ones made. A trailing ``# NNN`` comment
# is the status the command answers; any other command must not fail (no 4xx or 5xx).

RUN_WHOLE = ROOT / "docs" / "api.md"
PLACEHOLDERS = {"Vd1pQ0rYkq3Xc7Ue": "id", "$TOKEN": "edit_token"}  # the doc's saved list, bound to the first one saved
FILES = {  # the files the blocks send with -d @file
    "list.json": {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "name": "Ember Host",
        "points_limit": 1000,
        "units": [{"key": "a", "unit": "cc-ash-wardens"}, {"key": "h", "unit": "cc-pyre-marshal", "joined_to": "a"}],
    },
}
FILES["list-v2.json"] = {**FILES["list.json"], "name": "Ember Host II"}


def api_commands(script: str) -> list[str]:
    """Every curl of the API in a shell snippet, in order (comments after a command kept)."""
    return [command for command in shell_commands(script) if is_api_curl(command)]


def run_request(command: str, bound: dict[str, str]) -> dict[str, Any]:
    """A command's request with the doc's placeholders bound and its files read."""
    for placeholder, value in bound.items():
        command = command.replace(placeholder, value)
    words = shlex.split(command.replace("\\\n", " "), comments=True)[1:]
    cleaned, body = [], None
    while words:
        word = words.pop(0)
        if word == "-o":
            words.pop(0)  # where curl writes the answer: the test reads it
        elif word in ("-d", "--data") and words[0].startswith("@"):
            body = json.dumps(FILES[words.pop(0)[1:]])
        else:
            cleaned.append(word)
    request = request_of(shlex.join(["curl", *cleaned]))
    if body is None:
        return request
    return {**request, "data": body, "method": request["method"] if "-X" in cleaned else "POST"}


def test_every_command_of_the_api_doc_runs_in_order_and_answers_what_its_comment_says(registry, tmp_path):
    from listbuilder.web import create_app

    client = create_app(
        {"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{tmp_path / 'doc.sqlite3'}"}
    ).test_client()
    text = RUN_WHOLE.read_text(encoding="utf-8")
    bound: dict[str, str] = {}
    problems, ran = [], 0
    fences = list(FENCE.finditer(text))
    for block, after in zip(fences, [*fences[1:], None]):
        if block.group(1) != "sh":
            continue
        printed = json.loads(after.group(2)) if after and after.group(1) == "json" else {}
        shown_error = (
            printed.get("code") if isinstance(printed, dict) and isinstance(printed.get("code"), int) else None
        )
        commands = api_commands(block.group(2))
        for number, command in enumerate(commands, 1):
            request = run_request(command, bound)
            response = client.open(
                request["path"], method=request["method"], headers=request["headers"], data=request["data"]
            )
            ran += 1
            said = re.search(r"#\s*(\d{3})\b", command.rsplit("\n", 2)[-2] if command.count("\n") > 1 else command)
            where = f"docs/api.md:{text.count(chr(10), 0, block.start()) + 1}: {request['method']} {request['path']}"
            if said and response.status_code != int(said.group(1)):
                problems.append(f"{where} answered {response.status_code}, the comment says {said.group(1)}")
            elif (
                not said
                and response.status_code >= 400
                and (number, response.status_code) != (len(commands), shown_error)
            ):
                problems.append(f"{where} answered {response.status_code}: {response.get_json()}")
            answer = response.get_json(silent=True) or {}
            if request["method"] == "POST" and request["path"] == "/api/v1/lists" and "Vd1pQ0rYkq3Xc7Ue" not in bound:
                bound.update({placeholder: answer[key] for placeholder, key in PLACEHOLDERS.items()})
    assert ran >= 15 and problems == [], "\n".join(problems)

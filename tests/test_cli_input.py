"""The list-reading commands (validate, text, pdf, preview) read a file as the API reads a
request body: a NUL character or a lone surrogate is refused naming the field, exit 2 after
a one-line message, never a traceback (brief: bad input gets a clear error)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from listbuilder.cli import main

# A lone surrogate written as a JSON escape: valid JSON, but not text any file could hold.
SURROGATE = '{"system": "aof", "book": "x", "name": "A\\ud800", "units": []}'
NUL = '{"system": "aof", "book": "x", "name": "A\\u0000B", "units": []}'


@pytest.mark.parametrize("command", ["validate", "text", "pdf", "preview"])
@pytest.mark.parametrize(("body", "words"), [(NUL, "name: a NUL character"), (SURROGATE, "name: ")])
def test_a_list_command_refuses_text_the_api_refuses_naming_the_field(tmp_path, capsys, command, body, words):
    source = tmp_path / "list.json"
    source.write_text(body, encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        main([command, str(source)])
    assert (stop.value.code, capsys.readouterr().err.startswith(f"{source}: {words}")) == (2, True)


def test_broken_json_or_a_missing_file_names_the_file(tmp_path, capsys):
    source = tmp_path / "list.json"
    source.write_text('{"system": "aof",\n "book" "x"}', encoding="utf-8")
    for path, words in (
        (source, "not valid JSON: Expecting ':' delimiter at line 2 column 9"),
        (tmp_path / "none.json", "cannot read: "),
    ):
        with pytest.raises(SystemExit) as stop:
            main(["validate", str(path)])
        assert (stop.value.code, capsys.readouterr().err.startswith(f"{path}: {words}")) == (2, True)


def test_the_command_exits_2_without_a_traceback(tmp_path):
    source = tmp_path / "list.json"
    source.write_text(SURROGATE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "listbuilder", "validate", str(source)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, "Traceback" in done.stderr) == (2, False)

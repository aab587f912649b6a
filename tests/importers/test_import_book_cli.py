"""`listbuilder import-book`: YAML into a books folder the service loads, all or nothing; and
LISTBUILDER_BOOKS naming several folders."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from listbuilder.books.loader import load_registry
from listbuilder.books.registry import BookLoadError
from listbuilder.cli import main
from tests.conftest import BOOKS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"
BOOK = str(FIXTURES / "gf-rustbound-book.json")
AOF_BOOK = str(FIXTURES / "aof-thornwick-book.json")


def test_import_book_writes_yaml_the_service_loads(tmp_path, capsys, monkeypatch):
    into = tmp_path / "imported"
    assert main(["import-book", BOOK, AOF_BOOK, "--books", str(BOOKS), "--into", str(into)]) == 0
    out = capsys.readouterr().out
    assert f"{into}/grimdark-future/gf-rustbound-salvagers.yaml: Rustbound Salvagers (grimdark-future), 4 units" in out
    assert (
        "warning: undefined_rules[0]: rule 'Limited'" in out
        and "note: units[0]: Scrap Boss names upgrade package 'P-gone'" in out
    )
    assert f"LISTBUILDER_BOOKS={BOOKS}{os.pathsep}{into}" in out
    # The service (and check-books) load the folder once LISTBUILDER_BOOKS names it.
    monkeypatch.setenv("LISTBUILDER_BOOKS", f"{BOOKS}{os.pathsep}{into}")
    registry = load_registry()
    assert {"gf-rustbound-salvagers", "aof-thornwick-levy", "gf-cinder-covenant"} <= set(registry.books)
    assert main(["check-books"]) == 0
    captured = capsys.readouterr()
    assert "gf-rustbound-salvagers: 4 units" in captured.out
    assert "undefined_rules[0]: rule 'Limited' has no text" in captured.err and "(warning)" in captured.err


def test_import_book_defaults_to_the_last_configured_folder(tmp_path, capsys, monkeypatch):
    into = tmp_path / "mine"
    into.mkdir()
    monkeypatch.setenv("LISTBUILDER_BOOKS", f"{BOOKS}{os.pathsep}{into}")
    assert main(["import-book", BOOK]) == 0
    assert (into / "grimdark-future" / "gf-rustbound-salvagers.yaml").is_file()
    assert "LISTBUILDER_BOOKS=" not in capsys.readouterr().out  # already configured
    # Importing again replaces the book's own file rather than clashing with it.
    assert main(["import-book", BOOK]) == 0


def test_import_book_needs_a_destination(capsys, monkeypatch):
    monkeypatch.delenv("LISTBUILDER_BOOKS", raising=False)
    assert main(["import-book", BOOK]) == 2
    assert "--into FOLDER" in capsys.readouterr().err


def test_import_book_writes_nothing_when_one_file_fails(tmp_path, capsys):
    broken = tmp_path / "broken.json"
    data = json.loads(Path(BOOK).read_text())
    data["units"][1]["quality"] = "good"
    broken.write_text(json.dumps(data))
    not_json = tmp_path / "not.json"
    not_json.write_text('{"units": [1, 2,]}')
    into = tmp_path / "imported"
    for bad, words in (
        (broken, "units[1].quality: expected a whole number, got 'good'"),
        (not_json, "not.json: not valid JSON: Expecting value at line 1 column 17"),
    ):
        assert main(["import-book", AOF_BOOK, str(bad), "--books", str(BOOKS), "--into", str(into)]) == 2
        err = capsys.readouterr().err
        assert words in err and "nothing was written" in err
        assert not into.exists() or not any(into.rglob("*.yaml"))


def test_import_book_refuses_an_id_another_book_uses(tmp_path, capsys):
    into = tmp_path / "imported"
    other = tmp_path / "other" / "grimdark-future"
    other.mkdir(parents=True)
    assert main(["import-book", BOOK, "--books", str(BOOKS), "--into", str(tmp_path / "first")]) == 0
    shutil.copy(tmp_path / "first" / "grimdark-future" / "gf-rustbound-salvagers.yaml", other / "salvagers-copy.yaml")
    capsys.readouterr()
    assert main(["import-book", BOOK, "--books", f"{BOOKS}{os.pathsep}{tmp_path / 'other'}", "--into", str(into)]) == 2
    assert "book id 'gf-rustbound-salvagers' is already used by" in capsys.readouterr().err


def test_books_folders_share_systems_defined_once(tmp_path):
    extra = tmp_path / "extra"
    (extra / "grimdark-future").mkdir(parents=True)
    (extra / "no-such-system").mkdir()
    with pytest.raises(BookLoadError) as caught:
        load_registry([BOOKS, extra])
    assert [p.message for p in caught.value.problems] == [
        "system file missing (no folder defines system 'no-such-system')"
    ]
    (extra / "no-such-system").rmdir()
    shutil.copy(BOOKS / "grimdark-future" / "_system.yaml", extra / "grimdark-future" / "_system.yaml")
    with pytest.raises(BookLoadError) as caught:
        load_registry([BOOKS, extra])
    assert "system 'grimdark-future' is already defined by" in caught.value.problems[0].message
    with pytest.raises(BookLoadError) as caught:
        load_registry([BOOKS, tmp_path / "absent"])
    assert caught.value.problems[0].message == "army book folder not found"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda book: book.update(name="Rust\u0000bound"), "name"),  # was a traceback: YAML reads no NUL back
        (lambda book: book["units"][0].update(name="Scr\u0000ap"), "units[0].name"),  # was written into the book
        (lambda book: book["units"][1].update({"no\u0000te": 1}), "units[1].no\u0000te"),
    ],
    ids=["book name", "unit name", "key"],
)
def test_import_book_refuses_a_nul_in_any_text_naming_the_field(tmp_path, capsys, change, field):
    """The file is read as POST /api/v1/books/import reads its body (issue 25: NUL in every stored text)."""
    data = json.loads(Path(BOOK).read_text())
    change(data)
    bad = tmp_path / "nul.json"
    bad.write_text(json.dumps(data))  # json.dumps writes the NUL as \\u0000, as any JSON writer must
    into = tmp_path / "imported"
    assert main(["import-book", AOF_BOOK, str(bad), "--books", str(BOOKS), "--into", str(into)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: {field}: a NUL character (\\u0000) at character" in err and "nothing was written" in err
    assert not into.exists() or not any(into.rglob("*.yaml"))


def test_import_book_from_the_shell_says_what_is_wrong_without_a_traceback(tmp_path):
    data = json.loads(Path(BOOK).read_text())
    bad = tmp_path / "nul.json"
    bad.write_text(json.dumps({**data, "name": "Rust\u0000bound"}))
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "listbuilder",
            "import-book",
            "-",
            "--books",
            str(BOOKS),
            "--into",
            str(tmp_path / "imported"),
        ],
        input=bad.read_bytes(),
        capture_output=True,
        check=False,
        timeout=120,
    )
    err = run.stderr.decode()
    assert run.returncode == 2 and "Traceback" not in err, err
    assert err.startswith("-: name: a NUL character (\\u0000) at character 4 is not allowed in text\n"), err

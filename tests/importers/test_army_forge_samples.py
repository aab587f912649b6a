"""Real Army Forge exports, when a folder of them is at hand (skipped otherwise; the project
ships none). The folder is ARMY_FORGE_SAMPLES, or ``shared/army-forge-samples`` beside the
checkout or one of its parents: book exports (``*.json`` and ``books/*.json``) and lists
(``list-*.json``, each for the book export of the same army in the folder).

What must hold (issue 13, "Done when"): every book imports, its YAML loads and passes
check-books with at most warnings, every unit at base cost and with each single option
validates over HTTP without a server error, and each list imports at Army Forge's own total.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from listbuilder.books.loader import load_registry
from listbuilder.cli import main
from listbuilder.importers.army_forge_book import convert_book
from listbuilder.importers.army_forge_list import convert_list
from listbuilder.lists.documents import parse_list, validate_list
from tests.conftest import BOOKS, ROOT
from tests.importers.test_army_forge_book import single_option_lists


def _samples() -> Path | None:
    configured = os.environ.get("ARMY_FORGE_SAMPLES")
    if configured:
        return Path(configured)
    for parent in ROOT.parents:
        candidate = parent / "shared" / "army-forge-samples"
        if candidate.is_dir():
            return candidate
    return None


SAMPLES = _samples()
pytestmark = pytest.mark.skipif(SAMPLES is None or not SAMPLES.is_dir(), reason="no Army Forge exports at hand")


def _book_files() -> list[Path]:
    return sorted(p for p in (*SAMPLES.glob("*.json"), *SAMPLES.glob("books/*.json")) if not p.name.startswith("list-"))


@pytest.fixture(scope="module")
def imported(tmp_path_factory, registry):
    """Every sample book through `import-book` into a folder of its own, then loaded with ours."""
    into = tmp_path_factory.mktemp("army-forge")
    files = [str(p) for p in _book_files()]
    assert files, "the samples folder holds no book exports"
    assert main(["import-book", *files, "--books", str(BOOKS), "--into", str(into)]) == 0
    return into, load_registry([BOOKS, into])


def test_every_sample_book_imports_and_passes_check_books(imported, capsys):
    into, loaded = imported
    assert len(loaded.books) - len(load_registry(BOOKS).books) == len(_book_files())
    capsys.readouterr()
    assert main(["check-books", str(BOOKS), str(into)]) == 0
    err = capsys.readouterr().err
    assert all(line.endswith("(warning)") for line in err.splitlines()), err


def test_every_sample_book_keeps_the_sources_costs(registry):
    """Issue 26: every unit and every option the importer keeps costs what the export says,
    for each unit it is offered to (Army Forge's per-unit ``costs``, else its ``cost``)."""
    compared = 0
    for path in _book_files():
        data = json.loads(path.read_text())
        converted = convert_book(data, registry.systems)
        book, source = converted.book, converted.document["extra"]["army_forge"]
        ours = {af: book.unit(unit_id) for af, unit_id in source["units"].items()}
        for unit in data["units"]:
            assert ours[unit["id"]].cost["pts"] == unit["cost"], (path.name, unit["name"])
            compared += 1
        af_options = {}
        for package in data.get("upgradePackages", ()):
            for section in package.get("sections", ()):
                for option in section.get("options", ()):
                    for key in ("uid", "id"):
                        if isinstance(option.get(key), str):
                            af_options[option[key]] = option
        for section_id, kept in source["upgrades"].items():
            section = book.sections[section_id]
            offered = [u for u in book.units if section_id in u.upgrades]
            af_unit = {unit_id: af for af, unit_id in source["units"].items()}
            for af_id, option_id in kept["options"].items():
                option = next(o for o in section.options if o.id == option_id)
                given = af_options[af_id]
                per_unit = {c["unitId"]: c["cost"] for c in given.get("costs", ())}
                for unit in offered:
                    want = per_unit.get(af_unit[unit.id], given.get("cost", next(iter(per_unit.values()), 0)))
                    assert option.cost_for(unit.id)["pts"] == want, (path.name, section.label, option.label, unit.name)
                    compared += 1
    assert compared > 1000


def test_every_unit_and_single_option_validates_without_a_server_error(imported):
    from listbuilder.web import create_app

    _, loaded = imported
    client = create_app({"TESTING": True, "REGISTRY": loaded}).test_client()
    checked = 0
    for book in loaded.books.values():
        if "army_forge" not in book.extra:
            continue
        for unit, upgrades, body in single_option_lists(book):
            response = client.post("/api/v1/lists/validate", json=body)
            assert response.status_code == 200, (book.id, unit.id, upgrades, response.get_data(as_text=True)[:300])
            checked += 1
    assert checked > 1000


def test_sample_lists_import_at_army_forges_total(registry):
    lists = sorted(SAMPLES.glob("list-*.json"))
    if not lists:
        pytest.skip("no list exports among the samples")
    for path in lists:
        data = json.loads(path.read_text())
        army = data.get("armyId") or data["list"]["units"][0]["armyId"]
        book_file = next(p for p in _book_files() if json.loads(p.read_text()).get("uid") == army)
        book = convert_book(json.loads(book_file.read_text()), registry.systems).book
        converted = convert_list(data, book)
        report = validate_list(
            replace(registry, books={**registry.books, book.id: book}), parse_list(converted.document)
        )
        assert report.totals["pts"] == converted.army_forge_points, path.name
        assert not [i for i in report.issues if i.severity == "error"], (path.name, report.issues)

"""Real Army Forge exports through the HTTP endpoints, when a folder of them is at hand
(skipped otherwise; the project ships none, see tests/importers/test_army_forge_samples.py):
every book imports with ``POST /api/v1/books/import`` and each of its units validates under the
new id; each sample list imports with ``POST /api/v1/lists/import`` at Army Forge's own total."""

from __future__ import annotations

import json

import pytest

from tests.importers.test_army_forge_samples import SAMPLES, _book_files

pytestmark = pytest.mark.skipif(SAMPLES is None or not SAMPLES.is_dir(), reason="no Army Forge exports at hand")


@pytest.fixture(scope="module")
def client(registry, tmp_path_factory):
    from listbuilder.web import create_app

    database = tmp_path_factory.mktemp("samples") / "books.sqlite3"
    app = create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{database}"})
    yield app.test_client()
    app.extensions["listbuilder.database"].dispose()


@pytest.fixture(scope="module")
def imported(client) -> dict[str, str]:
    """Army Forge book uid -> the id the API gave it."""
    ids = {}
    for path in _book_files():
        data = json.loads(path.read_text())
        response = client.post("/api/v1/books/import", data=path.read_bytes(), content_type="application/json")
        assert response.status_code == 201, (path.name, response.get_data(as_text=True)[:500])
        ids[data["uid"]] = response.get_json()["id"]
    return ids


def test_every_sample_book_imports_over_http_and_its_units_validate(client, imported):
    assert len(imported) == len(_book_files())
    for book_id in imported.values():
        book = client.get(f"/api/v1/books/{book_id}").get_json()
        units = [{"key": f"u{i}", "unit": unit["id"]} for i, unit in enumerate(book["units"])]
        for entry in units:
            response = client.post(
                "/api/v1/lists/validate", json={"system": book["system"], "book": book_id, "units": [entry]}
            )
            assert response.status_code == 200, (book["name"], entry, response.get_data(as_text=True)[:300])
        everything = client.post(
            "/api/v1/lists/validate", json={"system": book["system"], "book": book_id, "units": units}
        )
        assert everything.status_code == 200 and everything.get_json()["totals"]["units"] == len(units)


def test_sample_lists_import_over_http_at_army_forges_total(client, imported):
    lists = sorted(SAMPLES.glob("list-*.json"))
    if not lists:
        pytest.skip("no list exports among the samples")
    for path in lists:
        data = json.loads(path.read_text())
        army = data.get("armyId") or data["list"]["units"][0]["armyId"]
        response = client.post("/api/v1/lists/import", json={"book": imported[army], "list": data})
        body = response.get_json()
        assert response.status_code == 200, (path.name, body)
        assert body["points_match"] and body["report"]["totals"]["pts"] == body["army_forge_points"], path.name
        assert not [i for i in body["report"]["issues"] if i["severity"] == "error"], (
            path.name,
            body["report"]["issues"],
        )

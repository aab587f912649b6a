"""Army Forge import benchmark (issue 13).

    .venv/bin/python benchmarks/importer.py [--runs 30]

Books: the project's own Army Forge-shaped test book (tests/fixtures/army_forge), and a
"full-size" book made from it by repeating its units and upgrade packages eight times under
new ids (32 units, about 100 upgrade sections: the size of a large real army book). Prints,
as medians with the load average beside them:
  - one book, JSON text -> checked, loaded book (convert + the normal loader):
                                                           target <= 100 ms for the full-size book
  - books per second at that speed;
  - the same plus writing its YAML text (what `import-book` saves);
  - when a folder of real exports is at hand (ARMY_FORGE_SAMPLES, or shared/army-forge-samples
    beside the checkout), the same over every book in it;
  - POST /api/v1/books/import through the whole app (WSGI, body parsing, conversion, storing in
    a throw-away SQLite file with synchronous=FULL, the 201 answer) for the same books; then
    validating a one-unit list of each: first in a process that did not import it (the book
    loaded from the store), later (from the process's LRU: one indexed row read), and the same
    list size for a built-in book, side by side.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listbuilder.books.loader import load_registry  # noqa: E402
from listbuilder.importers.army_forge_book import convert_book  # noqa: E402
from listbuilder.importers.book_files import book_yaml  # noqa: E402
from tests.importers.test_army_forge_samples import _samples  # noqa: E402

TARGET_MS = 100.0
FIXTURE = ROOT / "tests" / "fixtures" / "army_forge" / "gf-rustbound-book.json"


def full_size(book: dict, copies: int = 8) -> dict:
    """The fixture book repeated *copies* times, every id and name made unique."""
    big = copy.deepcopy(book)
    big["units"], big["upgradePackages"] = [], []
    for n in range(copies):
        part = json.loads(json.dumps(book).replace('"uid": "P-', f'"uid": "P{n}-').replace('"P-', f'"P{n}-'))
        for unit in part["units"]:
            unit["id"] = f"{unit['id']}-{n}"
            unit["name"] = f"{unit['name']} {n + 1}"
        for package in part["upgradePackages"]:
            for section in package["sections"]:
                for option in section["options"]:
                    option["costs"] = [{**c, "unitId": f"{c['unitId']}-{n}"} for c in option.get("costs", [])]
        big["units"] += part["units"]
        big["upgradePackages"] += part["upgradePackages"]
    return big


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def report(title: str, texts: list[str], systems, runs: int, target: float | None) -> None:
    def convert_all() -> None:
        for text in texts:
            convert_book(json.loads(text), systems)

    def with_yaml() -> None:
        for text in texts:
            book_yaml(convert_book(json.loads(text), systems).document)

    first = convert_book(json.loads(texts[0]), systems).book
    ms = median_ms(convert_all, runs) / len(texts)
    written = median_ms(with_yaml, max(3, runs // 5)) / len(texts)
    size = sum(len(t) for t in texts) / len(texts) / 1024
    print(
        f"{title}: {len(texts)} book(s), {size:.0f} KiB of JSON each"
        + (f" ({len(first.units)} units, {len(first.sections)} upgrade sections)" if len(texts) == 1 else "")
    )
    budget = f"   target <= {target:.0f} ms  ratio {ms / target:.2f} of budget" if target else ""
    print(f"  JSON -> loaded book, median   : {ms:8.2f} ms per book  ({1000 / ms:6.1f} books/s){budget}")
    print(f"  ... plus its YAML text        : {written:8.2f} ms per book  ({1000 / written:6.1f} books/s)")


def report_http(title: str, texts: list[str], runs: int) -> None:
    """The import endpoint end to end, and reading an imported book back by its id."""
    from listbuilder.books import stored as imported
    from listbuilder.web import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3"})
        client = app.test_client()
        ids: list[str] = []

        def post_all() -> None:
            for text in texts:
                response = client.post("/api/v1/books/import", data=text, content_type="application/json")
                assert response.status_code == 201, response.get_data(as_text=True)[:300]
                ids.append(response.get_json()["id"])

        ms = median_ms(post_all, runs) / len(texts)

        books = [client.get(f"/api/v1/books/{book_id}").get_json() for book_id in ids[-len(texts) :]]
        lists = [
            {"system": b["system"], "book": b["id"], "units": [{"key": "a", "unit": b["units"][0]["id"]}]}
            for b in books
        ]
        builtin = [
            {
                "system": "grimdark-future",
                "book": "gf-cinder-covenant",
                "units": [{"key": "a", "unit": "cc-ash-wardens"}],
            }
        ] * len(lists)

        def validate(bodies: list[dict], cold: bool = False) -> None:
            if cold:
                imported.LOADED.clear()  # as a worker that never saw them
            for body in bodies:
                assert client.post("/api/v1/lists/validate", json=body).status_code == 200

        cold = median_ms(lambda: validate(lists, cold=True), max(3, runs // 2)) / len(texts)
        warm = median_ms(lambda: validate(lists), max(3, runs)) / len(texts)
        listed = median_ms(lambda: validate(builtin), max(3, runs)) / len(texts)
        app.extensions["listbuilder.database"].dispose()
    print(f"{title}, over HTTP: POST /books/import median {ms:8.2f} ms per book ({1000 / ms:6.1f} books/s)")
    print(
        f"  validate one unit of it: first in a process {cold:7.2f} ms (book loaded from the store), then {warm:6.2f} ms;"
        f" a built-in book {listed:6.2f} ms (imported/built-in {warm / listed:.2f})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    systems = load_registry(ROOT / "army_books").systems
    fixture = FIXTURE.read_text()
    print(f"load average {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    report("test book", [fixture], systems, args.runs * 5, None)
    big = json.dumps(full_size(json.loads(fixture)))
    report("full-size book", [big], systems, args.runs, TARGET_MS)
    report_http("full-size book", [big], max(3, args.runs // 3))
    samples = _samples()
    if samples is not None and samples.is_dir():
        texts = [
            p.read_text()
            for p in sorted((*samples.glob("*.json"), *samples.glob("books/*.json")))
            if not p.name.startswith("list-")
        ]
        report("real Army Forge exports", texts, systems, max(3, args.runs // 10), TARGET_MS)
        report_http("real Army Forge exports", texts, 3)
    return 0


if __name__ == "__main__":
    sys.exit(main())

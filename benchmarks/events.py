"""Bulk validation benchmark (issue 17): POST /lists/validate-batch against one list per request.

    make bench            (or: .venv/bin/python benchmarks/events.py [--runs 3])

The same 1000 lists (the four largest golden lists, 2000-point armies of 14-15 entries, in
turn) are validated, in the same run and interleaved:
  - one per request: POST /api/v1/lists/validate, 1000 times, one connection kept open;
  - all at once: POST /api/v1/lists/validate-batch with the 1000 lists;
each as lists per second, and the batch's ratio to one-per-request (how much a tool
validating a whole event gains by batching). Measured twice: in process through Flask's test
client (the application's own cost), and over HTTP against gunicorn as ``make run`` starts
it (what a client sees). Medians of --runs runs.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.loopback import Server  # noqa: E402

BATCH = 1000


def batch_lists() -> list[dict]:
    golden = [json.loads(path.read_text())["list"] for path in sorted((ROOT / "tests" / "golden").glob("*/*.json"))]
    largest = sorted(golden, key=lambda army: len(json.dumps(army)))[-4:]
    return [largest[i % len(largest)] for i in range(BATCH)]


def in_process(lists: list[dict], runs: int) -> tuple[float, float]:
    from listbuilder.web import create_app

    with tempfile.TemporaryDirectory() as scratch:
        client = create_app(
            {"TESTING": True, "DATABASE_URL": f"sqlite:///{Path(scratch) / 'bench.sqlite3'}"}
        ).test_client()
        bodies = [json.dumps(army) for army in lists]
        batch = json.dumps({"lists": lists})
        single_times, batch_times = [], []
        for _ in range(runs):
            start = time.perf_counter()
            for body in bodies:
                assert (
                    client.post("/api/v1/lists/validate", data=body, content_type="application/json").status_code == 200
                )
            single_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            assert (
                client.post("/api/v1/lists/validate-batch", data=batch, content_type="application/json").status_code
                == 200
            )
            batch_times.append(time.perf_counter() - start)
    return BATCH / statistics.median(single_times), BATCH / statistics.median(batch_times)


def over_http(lists: list[dict], runs: int) -> tuple[float, float]:
    server = Server()
    try:
        headers = {"Content-Type": "application/json"}
        bodies = [json.dumps(army).encode() for army in lists]
        batch = json.dumps({"lists": lists}).encode()
        single_times, batch_times = [], []
        for _ in range(runs):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            start = time.perf_counter()
            for body in bodies:
                conn.request("POST", "/api/v1/lists/validate", body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                assert response.status == 200
            single_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            conn.request("POST", "/api/v1/lists/validate-batch", body=batch, headers=headers)
            response = conn.getresponse()
            response.read()
            assert response.status == 200
            batch_times.append(time.perf_counter() - start)
            conn.close()
    finally:
        server.stop()
    return BATCH / statistics.median(single_times), BATCH / statistics.median(batch_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    lists = batch_lists()
    print(
        f"bulk validation: {BATCH} lists of {min(len(a['units']) for a in lists)}-{max(len(a['units']) for a in lists)} entries, "
        f"{len(json.dumps({'lists': lists})) / 2**20:.2f} MiB as one batch; medians of {args.runs} runs"
    )
    for where, measure in (
        ("in process (Flask test client)", in_process),
        ("over HTTP (gunicorn, one connection)", over_http),
    ):
        single, batch = measure(lists, args.runs)
        print(f"  {where}:")
        print(f"    one list per request  {single:8.0f} lists/s")
        print(f"    validate-batch        {batch:8.0f} lists/s   ratio to one per request {batch / single:.2f}")


if __name__ == "__main__":
    main()

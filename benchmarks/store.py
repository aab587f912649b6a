"""Saved-list benchmark (issue 12): create / read / update under gunicorn, on SQLite and PostgreSQL.

    make bench            (or: .venv/bin/python benchmarks/store.py [--seconds 3] [--runs 3])

For each backend, one gunicorn server as ``make run`` starts it (preloaded app, 2 threaded
workers) on a fresh database, and in the same run:
  - requests per second of GET /api/v1/health (the trivial baseline), POST /api/v1/lists
    (create), GET /api/v1/lists/{id} (read) and PUT /api/v1/lists/{id} (update: a new version
    each time), from wrk with 2 threads and 8 connections; each as a ratio to /health;
  - the median latency (p50) of GET /api/v1/lists/{id} and of /health with one connection
    making one request at a time, and their ratio                  target <= 2.0
The list is the legal 2000-point Grimdark Future golden list of 14 entries. PostgreSQL is
measured when one answers (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the loopback
server with trust auth); the benchmark creates its own database there and drops it.
Everything runs on 127.0.0.1, every load is bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server import golden_list  # noqa: E402  (benchmarks/server.py)

from tests.loopback import Server, request  # noqa: E402

TARGET_P50_RATIO = 2.0
LOOPBACK_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
LISTS_FOR_READS_AND_UPDATES = 64


@contextmanager
def postgres_database():
    """A new database on the PostgreSQL server, dropped afterwards; None if none answers."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import OperationalError

    from listbuilder.store.database import normalise_url

    base = normalise_url(
        os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL") or LOOPBACK_POSTGRES
    )
    name = f"listbuilder_bench_{secrets.token_hex(4)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    except OperationalError:
        admin.dispose()
        yield None
        return
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def created(port: int, body: dict) -> tuple[str, str]:
    """POST the list; its id and edit token."""
    answer = request(port, "POST", "/api/v1/lists", body, timeout=10)
    if answer.status != 201:
        raise SystemExit(f"POST /api/v1/lists: HTTP {answer.status} {answer.body[:300]!r}")
    made = answer.json()
    return made["id"], made["edit_token"]


def lua_table(values: list[str]) -> str:
    return "{" + ",".join(json.dumps(v) for v in values) + "}"


def scripts(folder: Path, body: dict, lists: list[tuple[str, str]]) -> dict[str, Path]:
    """wrk scripts: POST the list; GET one of the saved lists; PUT a new version of one.

    Each wrk thread walks the saved lists from its own offset, so two updates rarely meet on
    one list; when they do, ``If-Match: *`` makes the later one a new version, not an error.
    """
    (folder / "body.json").write_text(json.dumps(body))
    read_body = f'local f = io.open("{folder / "body.json"}", "rb"); wrk.body = f:read("*a"); f:close()'
    ids, tokens = lua_table([i for i, _ in lists]), lua_table([t for _, t in lists])
    texts = {
        "health": "",
        "create": f'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n{read_body}\n',
        "read": f"local ids = {ids}\nlocal n = 0\nrequest = function()\n  n = n + 1\n"
        f'  return wrk.format("GET", "/api/v1/lists/" .. ids[(n % #ids) + 1])\nend\n',
        "update": f"{read_body}\nlocal ids = {ids}\nlocal tokens = {tokens}\nlocal n = 0\nlocal offset = 0\n"
        f'setup = function(thread) thread:set("offset", math.random(0, #ids - 1)) end\n'
        f"request = function()\n  n = n + 1\n  local i = ((n + offset) % #ids) + 1\n"
        f'  return wrk.format("PUT", "/api/v1/lists/" .. ids[i], {{["Content-Type"] = "application/json", '
        f'["Authorization"] = "Bearer " .. tokens[i], ["If-Match"] = "*"}}, wrk.body)\nend\n',
    }
    paths = {}
    for name, text in texts.items():
        paths[name] = folder / f"{name}.lua"
        paths[name].write_text(text)
    return paths


def wrk(port: int, script: Path, path: str, seconds: int, connections: int, threads: int) -> tuple[float, float]:
    """(requests per second, p50 latency in ms) from one wrk run; any non-2xx answer stops the run."""
    out = subprocess.run(
        [
            "wrk",
            f"-t{threads}",
            f"-c{connections}",
            f"-d{seconds}s",
            "--latency",
            "-s",
            str(script),
            f"http://127.0.0.1:{port}{path}",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=seconds + 60,
    ).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit(f"{path}: wrk saw errors\n{out}")
    rate = float(out.split("Requests/sec:")[1].split()[0])
    p50 = out.split("Latency Distribution")[1].split("50%")[1].split()[0]
    return rate, _ms(p50)


def _ms(text: str) -> float:
    for unit, factor in (("us", 1e-3), ("ms", 1.0), ("s", 1e3)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    raise ValueError(text)


def bench_backend(label: str, database_url: str, body: dict, seconds: int, runs: int) -> dict[str, float]:
    with Server(database_url) as served, tempfile.TemporaryDirectory() as folder:
        port = served.port
        lists = [created(port, body) for _ in range(LISTS_FOR_READS_AND_UPDATES)]
        paths = scripts(Path(folder), body, lists)
        list_path = f"/api/v1/lists/{lists[0][0]}"
        for name in ("health", "read"):  # warm both workers
            wrk(port, paths[name], "/api/v1/health" if name == "health" else list_path, 1, 8, 2)
        rate: dict[str, list[float]] = {k: [] for k in ("health", "create", "read", "update")}
        p50: dict[str, list[float]] = {"health": [], "read": []}
        for _ in range(runs):  # interleaved, so drifting load on the machine hits all alike
            for name, path in (
                ("health", "/api/v1/health"),
                ("create", "/api/v1/lists"),
                ("read", list_path),
                ("update", list_path),
            ):
                rate[name].append(wrk(port, paths[name], path, seconds, 8, 2)[0])
        wrk(port, paths["read"], list_path, 1, 8, 2)  # the updates made new versions: read each once
        for _ in range(runs):
            for name, path in (("health", "/api/v1/health"), ("read", list_path)):
                p50[name].append(wrk(port, paths[name], path, seconds, 1, 1)[1])
    rates = {k: statistics.median(v) for k, v in rate.items()}
    latency = {k: statistics.median(v) for k, v in p50.items()}
    print(
        f"{label}: gunicorn --preload, 2 threaded workers; wrk 2 threads / 8 connections, median of {runs} x {seconds} s"
    )
    print(f"  GET  /api/v1/health           {rates['health']:8.0f} req/s")
    for name, what in (
        ("create", "POST /api/v1/lists      "),
        ("read", "GET  /api/v1/lists/{id} "),
        ("update", "PUT  /api/v1/lists/{id} "),
    ):
        print(f"  {what}     {rates[name]:8.0f} req/s   ratio to /health {rates[name] / rates['health']:.2f}")
    ratio = latency["read"] / latency["health"]
    verdict = "met" if ratio <= TARGET_P50_RATIO else "MISSED"
    print(
        f"  p50, one request at a time:   /health {latency['health']:.2f} ms, GET /lists/{{id}} {latency['read']:.2f} ms"
        f"   ratio {ratio:.2f} (target <= {TARGET_P50_RATIO:g}: {verdict})"
    )
    return {**{f"{k}_rps": v for k, v in rates.items()}, "p50_ratio": ratio}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed (make bench installs it)")
    body = golden_list()
    with tempfile.TemporaryDirectory() as folder:
        bench_backend(
            "SQLite (WAL, synchronous=FULL)",
            f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
            body,
            args.seconds,
            args.runs,
        )
    with postgres_database() as url:
        if url is None:
            print("PostgreSQL: no server answers (set BENCH_DATABASE_URL): skipped")
        else:
            bench_backend("PostgreSQL (psycopg 3)", url, body, args.seconds, args.runs)


if __name__ == "__main__":
    main()

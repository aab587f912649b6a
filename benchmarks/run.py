"""In-process benchmarks: validation speed and start-up time.

    make bench            (or: .venv/bin/python benchmarks/run.py)

Prints medians and ratios against their targets:
  - validating each legal 2000-point golden list of 14+ entries     target <= 200 us
  - validating the armour-hex golden list with the most entries      target <= 150 us
  - cold start-up: a fresh process importing and calling create_app  target <= 300 ms
    (every army book loaded; the database opens on first use), then the first request of
    each kind in that process
  - a reference loop of plain Python before and after, to tell a slow spell of the shared
    machine from slow code
The server figures (throughput ratios, hostile requests, load with a worker killed) are in
benchmarks/server.py.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listbuilder.books.loader import load_registry  # noqa: E402
from listbuilder.lists.documents import parse_list, validate_list  # noqa: E402


def median_time(fn, runs: int, before=None) -> float:
    samples = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def large_lists() -> list[tuple[str, dict]]:
    """Every legal 2000-point golden list of 14 or more entries (the issue asks for about 15):
    Grimdark Future with force organisation on (14 entries: four pairs, four joined heroes)
    and Age of Fantasy (15 entries)."""
    found = []
    for path in sorted((ROOT / "tests" / "golden").glob("*/*.json")):
        case = json.loads(path.read_text())
        army = case["list"]
        if case["valid"] and army.get("points_limit") == 2000 and len(army["units"]) >= 14:
            found.append((f"{path.parent.name}/{path.stem}", army))
    return found


def bench_validation(registry) -> None:
    for name, payload in large_lists():
        army = parse_list(payload)
        report = validate_list(registry, army)
        for _ in range(200):
            validate_list(registry, army)
        forget = registry.books[army.book].resolution_memo.clear
        cold = median_time(lambda: validate_list(registry, army), 3000, before=forget)
        warm = median_time(lambda: validate_list(registry, army), 3000)
        with_parse = median_time(lambda: validate_list(registry, parse_list(payload)), 3000, before=forget)
        print(f"validate {name}: {len(army.units)} entries / {report.totals['pts']} pts (valid={report.valid}):")
        print(f"  core, nothing memoised  {cold * 1e6:8.1f} us   (target <= 200 us: ratio {cold * 1e6 / 200:.2f})")
        print(
            f"  core, entries memoised  {warm * 1e6:8.1f} us   (ratio {warm * 1e6 / 200:.2f}; the web builder's case: most entries unchanged)"
        )
        print(f"  parse + validate        {with_parse * 1e6:8.1f} us   (nothing memoised)")


ARMOUR_HEX_TARGET_US = 150


def bench_armour_hex(registry) -> None:
    """The legal armour-hex golden list with the most entries (12: infantry loadouts, elites)."""
    best = None
    for path in sorted((ROOT / "tests" / "golden" / "armour-hex").glob("*.json")):
        case = json.loads(path.read_text())
        if case["valid"] and (best is None or len(case["list"]["units"]) > len(best[1]["units"])):
            best = (path.stem, case["list"])
    name, payload = best
    army = parse_list(payload)
    for _ in range(200):
        validate_list(registry, army)
    forget = registry.books[army.book].resolution_memo.clear
    cold = median_time(lambda: validate_list(registry, army), 3000, before=forget)
    warm = median_time(lambda: validate_list(registry, army), 3000)
    print(f"validate armour-hex/{name}: {len(army.units)} entries:")
    print(
        f"  core, nothing memoised  {cold * 1e6:8.1f} us   (target <= {ARMOUR_HEX_TARGET_US} us: ratio {cold * 1e6 / ARMOUR_HEX_TARGET_US:.2f})"
    )
    print(
        f"  core, entries memoised  {warm * 1e6:8.1f} us   (ratio {warm * 1e6 / ARMOUR_HEX_TARGET_US:.2f}; models are handed out once per resolution)"
    )


STARTUP_TARGET_MS = 300
# One fresh process: imports, create_app, then the first request of each kind, timed apart.
COLD_START = """
import json, sys, time
start, start_cpu = time.perf_counter(), time.process_time()
from listbuilder.web import create_app
imported = time.perf_counter()
app = create_app()
created, created_cpu = time.perf_counter(), time.process_time()
client = app.test_client()
firsts = []
for method, path, body in json.loads(sys.argv[1]):
    before = time.perf_counter()
    status = client.open(path, method=method, json=body).status_code
    assert status == 200, (path, status)
    firsts.append(time.perf_counter() - before)
print(json.dumps([imported - start, created - start, created_cpu - start_cpu, *firsts]))
"""


def cold_starts(
    runs: int, requests: list[tuple[str, str, Any]], env: dict[str, str] | None = None, before=None, cwd: Path = ROOT
) -> list[list[float]]:
    """*runs* fresh processes running COLD_START in *cwd*; per run [imports, create_app
    incl. imports, the same in CPU time, each first request]."""
    found = []
    for _ in range(runs):
        if before is not None:
            before()
        out = subprocess.check_output(
            [sys.executable, "-c", COLD_START, json.dumps(requests)], cwd=cwd, text=True, env=env
        )
        found.append(json.loads(out))
    return found


def bench_startup() -> None:
    """Start-up of the app in a fresh process, the figure the 300 ms target is about: imports
    and create_app with every book, from `from listbuilder.web import create_app` on (the
    interpreter's own start, printed apart, comes before). As a deployed app starts: the
    package's bytecode compiled (done here first) and the loaded-books cache
    (listbuilder.books.cache) filled by an earlier start. Then the first request of each kind
    in that process, and the same start without the books cache and without bytecode."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "listbuilder")], check=True, stdout=subprocess.DEVNULL
    )
    in_process = median_time(lambda: load_registry(), 15)
    uncached = median_time(
        lambda: load_registry(), 3, before=lambda: os.environ.__setitem__("LISTBUILDER_CACHE", "off")
    )
    os.environ.pop("LISTBUILDER_CACHE", None)
    name, army = large_lists()[0]
    requests = [
        ("GET", "/api/v1/health", None),
        ("POST", "/api/v1/lists/validate", army),
        ("GET", "/", None),
        ("GET", "/api/v1/openapi.json", None),
    ]
    interpreter = median_time(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 7)
    warm = cold_starts(9, requests)
    imports, created, cpu = (statistics.median(run[i] for run in warm) for i in (0, 1, 2))
    print("start-up:")
    print(
        f"  load all books        {in_process * 1e3:8.1f} ms   (loaded-books cache in use; {uncached * 1e3:.1f} ms parsing and checking every file)"
    )
    print(f"  python itself         {interpreter * 1e3:8.1f} ms   (`python -c pass`, not part of the figures below)")
    print(
        f"  cold create_app       {created * 1e3:8.1f} ms   (target <= {STARTUP_TARGET_MS} ms: ratio {created * 1e3 / STARTUP_TARGET_MS:.2f}; "
        f"imports {imports * 1e3:.0f} ms of it; min {min(run[1] for run in warm) * 1e3:.0f} ms of 9 runs)"
    )
    print(
        f"    in CPU time         {cpu * 1e3:8.1f} ms   (what the process itself ran: less moved by other work on the machine)"
    )
    for i, (method, path, _) in enumerate(requests, start=3):
        print(
            f"    then first {method} {path:22s} {statistics.median(run[i] for run in warm) * 1e3:7.1f} ms"
            + ("  (builds the OpenAPI document)" if path.endswith("openapi.json") else "")
        )
    with tempfile.TemporaryDirectory() as scratch:
        books_cache = Path(scratch) / "books"
        env = {**os.environ, "LISTBUILDER_CACHE": str(books_cache)}
        cold_starts(1, requests, env)  # parsed YAML cached, as after a code change
        checked = cold_starts(
            5, requests, env, before=lambda: shutil.rmtree(books_cache / "registry", ignore_errors=True)
        )
        print(
            f"  ... books checked again  {statistics.median(run[1] for run in checked) * 1e3:5.0f} ms   (first start after a change of code or books: loaded-books cache empty)"
        )
        source_only = Path(scratch) / "source"  # a copy of the package without its bytecode
        shutil.copytree(ROOT / "listbuilder", source_only / "listbuilder", ignore=shutil.ignore_patterns("__pycache__"))
        for shared in ("army_books", "templates", "static"):
            (source_only / shared).symlink_to(ROOT / shared)
        compiling = cold_starts(3, requests, {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, cwd=source_only)
        print(
            f"  ... without bytecode     {statistics.median(run[1] for run in compiling) * 1e3:5.0f} ms   (every module of the package compiled from source at each start)"
        )


def machine_reference() -> None:
    """A fixed loop of plain Python, timed before and after the figures. The machines are
    shared: on 2026-11-23 this loop took either about 37 or about 62 us, switching between
    the two for stretches of seconds to minutes, on either CPU, with ASLR off, at a load
    average under 1. Every time printed in between moves with it; instruction counts
    (callgrind) and ratios measured side by side do not."""
    loop = median_time(lambda: sum(i * i for i in range(1000)), 2001)
    print(
        f"machine reference: a 1000-step Python loop {loop * 1e6:6.1f} us (interpreter {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    # The app opens (and migrates) its saved-list database on first use: should anything here
    # reach it, a throw-away SQLite file, so benchmarks never touch the instance folder's one.
    scratch = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(scratch.name) / 'bench.sqlite3'}")
    registry = load_registry()
    machine_reference()
    bench_validation(registry)
    bench_armour_hex(registry)
    bench_startup()
    machine_reference()


if __name__ == "__main__":
    main()

"""In-process benchmarks: validation speed and start-up time.

    make bench            (or: .venv/bin/python benchmarks/run.py)

Prints medians and ratios against their targets:
  - validating each legal 2000-point golden list of 14+ entries     target <= 200 us
  - validating the armour-hex golden list with the most entries      target <= 150 us
  - cold start-up: a fresh process importing and calling create_app  target <= 300 ms
    (every army book loaded and the saved-list database opened)
The server figures (throughput ratios, hostile requests, load with a worker killed) are in
benchmarks/server.py.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listbuilder.books import load_registry  # noqa: E402
from listbuilder.lists import parse_list, validate_list  # noqa: E402


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
        print(f"  core, entries memoised  {warm * 1e6:8.1f} us   (ratio {warm * 1e6 / 200:.2f}; the web builder's case: most entries unchanged)")
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
    print(f"  core, nothing memoised  {cold * 1e6:8.1f} us   (target <= {ARMOUR_HEX_TARGET_US} us: ratio {cold * 1e6 / ARMOUR_HEX_TARGET_US:.2f})")
    print(f"  core, entries memoised  {warm * 1e6:8.1f} us   (ratio {warm * 1e6 / ARMOUR_HEX_TARGET_US:.2f}; models are handed out once per resolution)")


def bench_startup() -> None:
    in_process = median_time(lambda: load_registry(), 15)
    uncached = median_time(lambda: load_registry(), 3, before=lambda: os.environ.__setitem__("LISTBUILDER_CACHE", "off"))
    os.environ.pop("LISTBUILDER_CACHE", None)
    code = "import time; t=time.perf_counter(); from listbuilder.web import create_app; create_app(); print(time.perf_counter()-t)"
    cold = [float(subprocess.check_output([sys.executable, "-c", code], cwd=ROOT, text=True)) for _ in range(7)]
    print("start-up:")
    print(f"  load all books        {in_process * 1e3:8.1f} ms   (parsed-YAML cache in use; {uncached * 1e3:.1f} ms parsing every file)")
    print(f"  cold create_app       {statistics.median(cold) * 1e3:8.1f} ms   (target <= 300 ms: ratio {statistics.median(cold) * 1e3 / 300:.2f}; imports included)")


def main() -> None:
    # The app opens (and migrates) its saved-list database at start-up: a throw-away SQLite
    # file here, so benchmarks never touch the instance folder's real one.
    scratch = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(scratch.name) / 'bench.sqlite3'}")
    registry = load_registry()
    bench_validation(registry)
    bench_armour_hex(registry)
    bench_startup()


if __name__ == "__main__":
    main()

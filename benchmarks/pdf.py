"""PDF roster benchmark (issue 5).

    .venv/bin/python benchmarks/pdf.py [--runs 15]

Case: the legal 2000-point, 15-entry golden list with the most entries (Age of Fantasy, Ember
Marches). Prints:
  - the median time to print it from scratch: list -> roster -> HTML -> PDF, stylesheet and
    fonts already loaded (as in a running server);           target <= 0.5 s
  - the first render in the process, which also parses the stylesheet and registers the fonts;
  - the median time of an identical request served from the content-hash cache, in process
    (hash + lookup) and through the API (POST /api/v1/rosters/pdf, parsing the body included),
    and each as a ratio to the uncached render.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listbuilder.books import load_registry  # noqa: E402
from listbuilder.lists import parse_list  # noqa: E402
from listbuilder.pdf import PDF_CACHE, RenderCache, roster_pdf  # noqa: E402

TARGET_SECONDS = 0.5


def benchmark_list() -> dict:
    """The legal 2000-point golden list with the most entries (15 when written)."""
    best = None
    for path in sorted((ROOT / "tests" / "golden").glob("*/*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        army = case["list"]
        if case["valid"] and army.get("points_limit") == 2000 and (best is None or len(army["units"]) > len(best["units"])):
            best = army
    if best is None:
        raise SystemExit("no legal 2000-point golden list found")
    return best


def median(fn, runs: int, clock=time.perf_counter) -> tuple[float, list[float]]:
    samples = []
    for _ in range(runs):
        start = clock()
        fn()
        samples.append(clock() - start)
    return statistics.median(samples), samples


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"
    except OSError:
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    registry = load_registry()
    payload = benchmark_list()
    army = parse_list(payload)

    start = time.perf_counter()
    pdf = roster_pdf(registry, army, cache=None)
    first = time.perf_counter() - start

    from pypdf import PdfReader  # only to report the page count

    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    render, samples = median(lambda: roster_pdf(registry, army, cache=None), args.runs)
    # CPU time of this process alone: what the render costs when other work shares the machine.
    cpu, _ = median(lambda: roster_pdf(registry, army, cache=None), args.runs, clock=time.process_time)

    cache = RenderCache()
    roster_pdf(registry, army, cache=cache)
    cached, _ = median(lambda: roster_pdf(registry, army, cache=cache), args.runs * 20)

    from listbuilder.web import create_app

    client = create_app({"TESTING": True, "REGISTRY": registry}).test_client()
    PDF_CACHE.clear()
    client.post("/api/v1/rosters/pdf", json=payload)
    api_cached, _ = median(lambda: client.post("/api/v1/rosters/pdf", json=payload), args.runs * 20)

    verdict = "ok" if render <= TARGET_SECONDS else "OVER TARGET"
    print(f"list: {payload['system']} / {payload['book']}, {payload.get('points_limit')} pts, {len(payload['units'])} entries -> {pages} pages, {len(pdf) // 1024} KiB")
    print(f"first render in process (loads stylesheet and fonts): {first * 1000:8.1f} ms")
    print(f"render, median of {args.runs}:                            {render * 1000:8.1f} ms  (target <= {TARGET_SECONDS * 1000:.0f} ms: {verdict}; min {min(samples) * 1000:.0f}, max {max(samples) * 1000:.0f})")
    print(f"render CPU time, median of {args.runs}:                  {cpu * 1000:8.1f} ms  (load average now {_load()})")
    print(f"cached, in process (hash + lookup):              {cached * 1e6:8.1f} us  ({render / cached:,.0f}x faster than a render)")
    print(f"cached, POST /api/v1/rosters/pdf:                {api_cached * 1000:8.2f} ms  ({render / api_cached:,.0f}x faster than a render)")
    return 0  # a missed target is printed above; the other benchmarks still run


if __name__ == "__main__":
    sys.exit(main())

"""Lighthouse (mobile) on the pages players open most, served as ``make run`` serves them.

    make bench            (or: .venv/bin/python benchmarks/lighthouse.py [--runs 3] [--json out.json] [--page '/build/<book>'])

One gunicorn (``tests.loopback.Server``: ``make run``'s settings) on a free loopback port, a
saved list and an event with that list submitted; then Lighthouse (pinned by
``benchmarks/lighthouse/package-lock.json``, installed by ``make bench``) runs each page with
Debian's chromium, headless, as a phone (Lighthouse's default mobile emulation and simulated
throttling). Each figure is the median of ``--runs`` runs:

    page            performance  accessibility  best practices  SEO   CLS
    targets         >= 98        100            100             100   <= 0.02

Scores on a machine busy with other work read low on performance (the simulation reads the
page's own CPU time from the trace); compare runs made side by side, as docs/performance.md does.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.loopback import Server, request  # noqa: E402  (gunicorn as make run starts it)

LIGHTHOUSE = ROOT / "benchmarks" / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = os.environ.get("LISTBUILDER_CHROMIUM", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# category -> lowest score (0-100) that meets the target; CLS has its own ceiling
TARGETS = {"performance": 98, "accessibility": 100, "best-practices": 100, "seo": 100}
CLS_TARGET = 0.02
BOOK = "gf-cinder-covenant"
ATTEMPTS = 3


def golden_list() -> dict:
    """The legal 1000-to-2000-point Grimdark Future golden list with the most entries."""
    cases = [json.loads(p.read_text()) for p in sorted((ROOT / "tests" / "golden" / "grimdark-future").glob("*.json"))]
    legal = [c["list"] for c in cases if c["valid"] and c["list"]["book"] == BOOK]
    return max(legal, key=lambda army: len(army["units"]))


def pages(server: Server) -> dict[str, str]:
    """The five pages, with a saved list and an event (the list submitted to it) made first."""
    army = golden_list()
    made = request(server.port, "POST", "/api/v1/lists", {**army, "name": "Lighthouse list"})
    saved = json.loads(made.body)
    event = json.loads(
        request(
            server.port,
            "POST",
            "/api/v1/events",
            {
                "name": "Lighthouse Open",
                "system": army["system"],
                "points_limit": army.get("points_limit", 2000),
                "books": [{"book": BOOK}],
                "deadline": "2099-01-01T00:00:00Z",
            },
        ).body
    )
    request(
        server.port,
        "POST",
        f"/api/v1/events/{event['id']}/submissions",
        {"list_id": saved["id"], "player": "Ann"},
        headers={"Authorization": f"Bearer {saved['edit_token']}"},
    )
    return {
        "/": "/",
        "/build/<book>": f"/build/{BOOK}",
        "/books/<book>": f"/books/{BOOK}",
        "/l/<id>": f"/l/{saved['id']}",
        "/events/<id>": f"/events/{event['id']}",
    }


def lighthouse(url: str) -> dict[str, Any]:
    """One Lighthouse run of *url*: each category's score (0-100) and the CLS."""
    command = [
        "node",
        str(LIGHTHOUSE),
        url,
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
    ]
    for attempt in range(ATTEMPTS):  # a trace now and then comes back without its navigation (NO_NAVSTART)
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=240,
            env={**os.environ, "CHROME_PATH": CHROMIUM},
            check=False,
        )
        if done.returncode == 0:
            break
        print(f"  lighthouse failed on {url} (attempt {attempt + 1}): {done.stderr.strip()[-300:]}", file=sys.stderr)
    else:
        raise RuntimeError(f"lighthouse failed {ATTEMPTS} times on {url}")
    report = json.loads(done.stdout)
    figures: dict[str, Any] = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    figures["cls"] = report["audits"]["cumulative-layout-shift"]["numericValue"]
    # what the performance score is lost on: the main thread blocked, and the page's own script time
    figures["tbt_ms"] = round(report["audits"]["total-blocking-time"]["numericValue"])
    figures["js_ms"] = round(report["audits"]["bootup-time"]["numericValue"])
    figures["failed"] = [f"{c}: {audit}" for c in CATEGORIES for audit in _failed_audits(report, c)]
    return figures


def _failed_audits(report: dict, category: str) -> list[str]:
    """The audits of *category* that did not pass, by id (what to fix)."""
    audits = report["audits"]
    return [
        ref["id"]
        for ref in report["categories"][category]["auditRefs"]
        if ref.get("weight", 0) > 0
        and audits[ref["id"]].get("score") is not None
        and audits[ref["id"]]["score"] < (0.9 if category == "performance" else 1)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per page; the median is reported")
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    parser.add_argument("--page", action="append", help="only this page (e.g. '/build/<book>'); repeatable")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `make bench` (npm ci in benchmarks/lighthouse)")
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: run `make browser`")
    every: dict[str, list[dict]] = {}
    with Server() as server:
        for name, path in pages(server).items():
            if args.page and name not in args.page:
                continue
            request(server.port, "GET", path)  # compiled and cached before the first run
            every[name] = [lighthouse(server.url + path) for _ in range(args.runs)]
    print(f"Lighthouse (mobile), median of {args.runs} run(s), {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"{'page':16} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'CLS':>7} {'TBT':>6} {'JS':>6}  verdict")
    for name, runs in every.items():
        median = {k: statistics.median(r[k] for r in runs) for k in (*CATEGORIES, "cls", "tbt_ms", "js_ms")}
        misses = [f"{k} {median[k]:g} < {t}" for k, t in TARGETS.items() if median[k] < t]
        if median["cls"] > CLS_TARGET:
            misses.append(f"CLS {median['cls']:.3f} > {CLS_TARGET}")
        failed = sorted({f for r in runs for f in r["failed"]})
        print(
            f"{name:16} {median['performance']:5g} {median['accessibility']:5g} {median['best-practices']:5g}"
            f" {median['seo']:5g} {median['cls']:7.3f} {median['tbt_ms']:6g} {median['js_ms']:6g}  {'ok' if not misses else 'UNDER TARGET: ' + '; '.join(misses)}"
        )
        if failed:
            print(f"{'':16} audits not passed: {', '.join(failed)}")
    if args.json:
        args.json.write_text(json.dumps(every, indent=1))


if __name__ == "__main__":
    main()

"""Event-scale benchmark (issue 25): a 500-player event, and light requests beside heavy ones.

    make bench            (or: .venv/bin/python benchmarks/scale.py [--players 500] [--seconds 6] [--only pack])

One gunicorn as ``make run`` starts it (``listbuilder.web.serving``: threaded workers), on a
throw-away SQLite file (or --database-url), with the rate limits raised so the benchmark is not
refused (but on, so their cost is in the figures). Everything goes over HTTP on loopback. All times are given as ratios to the median
``GET /api/v1/health`` of the same run, beside the seconds:

  1. the event: --players saved lists created and submitted (4 clients at once), then the
     organiser's report, CSV, revalidate, the A4 roster pack (rendered at submission: a join)
     and the Letter pack from nothing (202s with the progress until ready), with /health's
     p99 measured while the packs are made;
  2. /health's p50 and p99 while two clients at once send, back to back, each heavy kind:
     validate-batch of 1000 lists, a 1 MiB Army Forge book import, an uncached PDF of the
     largest golden list, the slowest preview shape, the 500-player roster pack, and the pack
     asked right after a new submission (each client submits one more player, then downloads:
     the first download of a changed pack). ``--only pack`` makes the event and sends only the
     two pack kinds (no report, CSV, Letter pack or other heavy kinds).
Targets: report, CSV and revalidate at 500 players <= 1 s each; /health p99 < 100 ms beside
every heavy kind and while packs are made.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.events import batch_lists  # noqa: E402
from benchmarks.importer import FIXTURE, full_size  # noqa: E402
from benchmarks.server import crowded_preview  # noqa: E402
from listbuilder.books.loader import load_registry  # noqa: E402
from listbuilder.web import serving  # noqa: E402
from tests.loopback import Answer, Server, request  # noqa: E402

HEALTH = "/api/v1/health"
MAX_BODY = 1024 * 1024
# Rate limits and caps high enough for a benchmark that is one client doing everything.
GENEROUS = {
    "LISTBUILDER_RATELIMIT_ENABLED": "true",
    "LISTBUILDER_RATE_LIMIT": "100000/minute",
    "LISTBUILDER_HEAVY_RATE_LIMIT": "100000/minute",
    "LISTBUILDER_IMPORTS_PER_HOUR": "100000",
    "LISTBUILDER_LISTS_PER_HOUR": "100000",
    "LISTBUILDER_MAX_PLAYERS": "1000",
}


class HealthPoller:
    """/health asked every *interval* seconds on a thread of its own, each on a new connection
    (as a load balancer's check does); ``times`` holds the seconds of each answer."""

    def __init__(self, port: int, interval: float = 0.02):
        self.port, self.interval, self.times, self.failures = port, interval, [], 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                answer = request(self.port, "GET", HEALTH, timeout=10)
                if answer.status == 200:
                    self.times.append(answer.seconds)
                else:
                    self.failures += 1
            except OSError:
                self.failures += 1
            self._stop.wait(self.interval)

    def __enter__(self) -> HealthPoller:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def p99(times: list[float]) -> float:
    return sorted(times)[max(0, int(len(times) * 0.99) - 1)] if times else float("nan")


def health_baseline(port: int, n: int = 300) -> float:
    times = [request(port, "GET", HEALTH).seconds for _ in range(n)]
    return statistics.median(times)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ok(answer: Answer, *statuses: int) -> Answer:
    if answer.status not in (statuses or (200,)):
        raise RuntimeError(f"unexpected {answer.status}: {answer.body[:300]!r}")
    return answer


# --------------------------------------------------------------------------------------------
# 1. A real event


def event_lists() -> list[dict]:
    """The Grimdark Future golden lists (legal and not): players submit them in turn."""
    return [
        json.loads(p.read_text())["list"]
        for p in sorted((ROOT / "tests" / "golden" / "grimdark-future").glob("*.json"))
    ]


def make_event(port: int, players: int) -> dict:
    registry = load_registry(None)
    books = [{"book": b.id} for b in registry.books_of("grimdark-future")]
    body = {
        "name": "Scale Open",
        "system": "grimdark-future",
        "points_limit": 2000,
        "books": books,
        "deadline": "2099-01-01T00:00:00+00:00",
        "allow_illegal": True,
    }
    event = ok(request(port, "POST", "/api/v1/events", body), 201).json()
    lists = event_lists()

    def enter(i: int) -> float:
        army = {**lists[i % len(lists)], "name": f"Army of player {i}"}
        made = ok(request(port, "POST", "/api/v1/lists", army), 201).json()
        start = time.perf_counter()
        ok(
            request(
                port,
                "POST",
                f"/api/v1/events/{event['id']}/submissions",
                {"list_id": made["id"], "player": f"Player {i:03d}"},
                headers=auth(made["edit_token"]),
            ),
            201,
        )
        return time.perf_counter() - start

    with ThreadPoolExecutor(4) as pool:
        submit_times = list(pool.map(enter, range(players)))
    event["submit_median"] = statistics.median(submit_times)
    event["players"] = players
    return event


def pack_until_ready(port: int, event: dict, paper: str) -> tuple[float, int, int]:
    """Seconds until the pack came, the 202s on the way, and its size in bytes."""
    start, waits = time.perf_counter(), 0
    while True:
        answer = ok(
            request(
                port,
                "GET",
                f"/api/v1/events/{event['id']}/roster-pack.pdf?paper={paper}",
                headers=auth(event["organiser_token"]),
                timeout=120,
            ),
            200,
            202,
        )
        if answer.status == 200:
            return time.perf_counter() - start, waits, len(answer.body)
        waits += 1


def bench_event(server: Server, players: int, health: float) -> dict:
    start = time.perf_counter()
    event = make_event(server.port, players)
    print(
        f"  {players} players created and submitted in {time.perf_counter() - start:.0f} s "
        f"(a submission, roster rendered with it: median {event['submit_median'] * 1000:.0f} ms)"
    )
    organiser = auth(event["organiser_token"])
    base = f"/api/v1/events/{event['id']}"
    for label, method, path in (
        ("report", "GET", "/report"),
        ("CSV", "GET", "/report.csv"),
        ("revalidate", "POST", "/revalidate"),
    ):
        seconds = statistics.median(
            ok(request(server.port, method, base + path, headers=organiser, timeout=60)).seconds for _ in range(3)
        )
        verdict = "ok" if seconds <= 1 else "OVER the 1 s target"
        print(f"  {label:<28} {seconds:7.3f} s  {seconds / health:9.0f} x /health   {verdict}")
    for paper in ("a4", "letter"):
        with HealthPoller(server.port) as poll:
            seconds, waits, size = pack_until_ready(server.port, event, paper)
        what = "rendered at submission: a join" if paper == "a4" else f"rendered in slices: {waits} answers 202 first"
        print(
            f"  roster pack {paper:<6} ({what}) {seconds:7.2f} s  {seconds / health:9.0f} x /health, {size / 2**20:.1f} MiB; "
            f"/health meanwhile p99 {p99(poll.times) * 1000:.1f} ms ({len(poll.times)} asked, {poll.failures} failed)"
        )
    return event


# --------------------------------------------------------------------------------------------
# 2. Heavy requests beside light ones


def import_body() -> bytes:
    """The Army Forge fixture book repeated until the JSON is just under 1 MiB."""
    book = json.loads(FIXTURE.read_text())
    copies = 8
    while len(json.dumps(full_size(book, copies + 1))) < MAX_BODY - 4096:
        copies += 1
    return json.dumps(full_size(book, copies)).encode()


def heavy_kinds(event: dict) -> dict[str, Callable[[int, int], Answer]]:
    registry = load_registry(None)
    batch = json.dumps({"lists": batch_lists()}).encode()
    book = import_body()
    largest = max(event_lists(), key=lambda army: len(army["units"]))
    preview = crowded_preview(registry)
    counter = itertools.count()
    pack = f"/api/v1/events/{event['id']}/roster-pack.pdf"
    lists, newcomers = event_lists(), itertools.count(event["players"])

    def pack_after_a_submission(port: int, _: int) -> Answer:
        n = next(newcomers)
        made = ok(
            request(port, "POST", "/api/v1/lists", {**lists[n % len(lists)], "name": f"Army of player {n}"}), 201
        ).json()
        ok(
            request(
                port,
                "POST",
                f"/api/v1/events/{event['id']}/submissions",
                {"list_id": made["id"], "player": f"Player {n:03d}"},
                headers=auth(made["edit_token"]),
            ),
            201,
        )
        return request(port, "GET", pack, headers=auth(event["organiser_token"]), timeout=120)

    return {
        f"validate-batch of 1000 lists ({len(batch) / 2**20:.2f} MiB)": lambda port, _: request(
            port, "POST", "/api/v1/lists/validate-batch", batch, timeout=120
        ),
        f"book import ({len(book) / 2**20:.2f} MiB)": lambda port, _: request(
            port, "POST", "/api/v1/books/import", book, timeout=120
        ),
        "roster PDF, uncached": lambda port, _: request(
            port, "POST", "/api/v1/rosters/pdf", {**largest, "name": f"Uncached {next(counter)}"}, timeout=120
        ),
        "slowest preview (12 heroes joined)": lambda port, _: request(
            port, "POST", "/api/v1/previews", preview, timeout=120
        ),
        f"roster pack, {event['players']} players": lambda port, _: request(
            port, "GET", pack, headers=auth(event["organiser_token"]), timeout=120
        ),
        "roster pack, first after a submission": pack_after_a_submission,
    }


def beside_heavy(
    server: Server, send: Callable[[int, int], Answer], seconds: float
) -> tuple[list[float], list[float], list[int]]:
    """Two clients sending *send* back to back for *seconds*, /health polled meanwhile."""
    heavy: list[float] = []
    statuses: list[int] = []
    stop = time.monotonic() + seconds

    def client(n: int) -> None:
        while time.monotonic() < stop:
            answer = send(server.port, n)
            heavy.append(answer.seconds)
            statuses.append(answer.status)

    with HealthPoller(server.port) as poll:
        clients = [threading.Thread(target=client, args=(n,)) for n in range(2)]
        for c in clients:
            c.start()
        for c in clients:
            c.join()
    return poll.times, heavy, statuses


def bench_heavy(server: Server, event: dict, seconds: float, health: float, only: str | None = None) -> None:
    print(f"/health beside two heavy requests at once, {seconds:g} s each kind (target p99 < 100 ms):")
    for label, send in heavy_kinds(event).items():
        if only == "pack" and "roster pack" not in label:
            continue
        times, heavy, statuses = beside_heavy(server, send, seconds)
        worst = p99(times)
        print(
            f"  {label:<36} heavy median {statistics.median(heavy):6.2f} s ({len(heavy)} done, statuses {sorted(set(statuses))}); "
            f"/health p50 {statistics.median(times) * 1000:5.1f} ms p99 {worst * 1000:6.1f} ms = {worst / health:5.1f} x its median alone"
            f"{'' if worst < 0.1 else '   OVER 100 ms'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=6.0, help="how long each heavy kind is sent")
    parser.add_argument("--database-url", default=None, help="default: a throw-away SQLite file")
    parser.add_argument("--workers", type=int, default=None, help="default: make run's (listbuilder.web.serving)")
    parser.add_argument("--threads", type=int, default=None, help="default: make run's (listbuilder.web.serving)")
    parser.add_argument(
        "--only", choices=["pack"], default=None, help="pack: make the event, then only the pack kinds beside /health"
    )
    args = parser.parse_args()
    env = {**GENEROUS, **({"LISTBUILDER_THREADS": str(args.threads)} if args.threads else {})}
    workers = args.workers or serving.workers
    with Server(args.database_url, workers=workers, env=env) as server:
        health = health_baseline(server.port)
        print(
            f"event scale, gunicorn as make run starts it ({workers} workers); /health alone: median {health * 1000:.2f} ms"
        )
        if args.only == "pack":
            start = time.perf_counter()
            event = make_event(server.port, args.players)
            print(f"  {args.players} players created and submitted in {time.perf_counter() - start:.0f} s")
        else:
            event = bench_event(server, args.players, health)
        bench_heavy(server, event, args.seconds, health, args.only)


if __name__ == "__main__":
    main()

"""The service under gunicorn, as ``make run`` starts it: throughput, hostile requests, load.

    make bench            (or: .venv/bin/python benchmarks/server.py)

One gunicorn (``--config python:listbuilder.web.serving``, 2 threaded workers) on a free loopback
port serves every part, side by side in one run:

1. throughput: ``POST /lists/validate`` and ``POST /previews`` as ratios to the trivial
   ``GET /health`` (load from ``wrk``, which ``make bench`` installs)   target validate >= 0.6
2. hostile requests, each timed over real HTTP (deep JSON, surrogates, huge numbers, a 20 MB
   chunked body, long request lines and headers, the 30-second preview of issue 11, the
   slowest previews the work budgets still allow, the largest list that fits in 1 MiB), and
   ``/health`` while two of the slowest allowed previews run         target: 4xx within 1 s
3. load: 64 connections on validate and preview (two ``wrk`` runs of 32) while one worker is
   killed with SIGKILL mid-run; failed requests are counted, and the replacement worker is
   waited for. Every loop is bounded in time and count and talks to 127.0.0.1 only.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listbuilder.books.loader import load_registry  # noqa: E402
from listbuilder.combat import budget  # noqa: E402
from listbuilder.formats.lists import MAX_LIST_UPGRADES, MAX_UNITS  # noqa: E402
from tests.loopback import Server, raw_request, request  # noqa: E402  (gunicorn as make run starts it)

TARGET_RATIO = 0.6
LOAD_SECONDS = 8

PREVIEW = {
    "system": "age-of-fantasy",
    "attacker": {"book": "aof-ember-marches", "unit": "crossbowmen"},
    "defender": {"book": "aof-sunken-hollows", "unit": "mire-warriors"},
    "situation": {"attack": "shooting", "range": 18, "cover": True},
}


def golden_list() -> dict:
    """The legal 2000-point Grimdark Future golden list with the most entries."""
    best = None
    for path in sorted((ROOT / "tests" / "golden" / "grimdark-future").glob("*.json")):
        case = json.loads(path.read_text())
        if (
            case["valid"]
            and case["list"].get("points_limit") == 2000
            and (best is None or len(case["list"]["units"]) > len(best["units"]))
        ):
            best = case["list"]
    if best is None:
        raise SystemExit("no legal 2000-point Grimdark Future golden list")
    return best


# -- 1. throughput -------------------------------------------------------------------------


def wrk(port: int, path: str, body: bytes | None, seconds: int, connections: int = 8, threads: int = 2) -> dict:
    """wrk's figures for one path: requests/s, requests, non-2xx and socket errors."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "request.lua"
        lines = []
        if body is not None:
            (Path(folder) / "body.json").write_bytes(body)
            lines = [
                'wrk.method = "POST"',
                'wrk.headers["Content-Type"] = "application/json"',
                f'local f = io.open("{Path(folder) / "body.json"}", "rb"); wrk.body = f:read("*a"); f:close()',
            ]
        script.write_text("\n".join(lines) + "\n")
        out = subprocess.run(
            [
                "wrk",
                f"-t{threads}",
                f"-c{connections}",
                f"-d{seconds}s",
                "--timeout",
                "10s",
                "-s",
                str(script),
                f"http://127.0.0.1:{port}{path}",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=seconds + 60,
        ).stdout
    figures = {
        "rate": float(out.split("Requests/sec:")[1].split()[0]),
        "requests": int(out.split(" requests in ")[0].split()[-1]),
        "non2xx": 0,
        "socket": 0,
    }
    if "Non-2xx or 3xx responses:" in out:
        figures["non2xx"] = int(out.split("Non-2xx or 3xx responses:")[1].split()[0])
    if "Socket errors:" in out:
        parts = out.split("Socket errors:")[1].split("\n")[0]
        figures["socket"] = sum(int(p.strip().split()[-1]) for p in parts.split(","))
    return figures


def python_rate(port: int, path: str, body: bytes | None, seconds: float) -> float:
    """Requests per second from 4 Python clients (when wrk is missing; bounded to 50k requests)."""
    count = [0] * 4
    deadline = time.perf_counter() + seconds

    def client(i: int) -> None:
        while time.perf_counter() < deadline and count[i] < 50_000:
            if request(port, "POST" if body else "GET", path, body)[0] != 200:
                raise SystemExit(f"{path}: error response")
            count[i] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(4)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(count) / (time.perf_counter() - start)


def bench_throughput(server: Server) -> None:
    body = json.dumps(golden_list()).encode()
    preview = json.dumps(PREVIEW).encode()
    for path, payload in (("/api/v1/lists/validate", body), ("/api/v1/previews", preview)):
        assert request(server.port, "POST", path, payload)[0] == 200, path
    python_rate(server.port, "/api/v1/health", None, 1.0)  # warm both workers
    cases = (
        ("GET  /api/v1/health", "/api/v1/health", None),
        ("POST /api/v1/lists/validate", "/api/v1/lists/validate", body),
        ("POST /api/v1/previews", "/api/v1/previews", preview),
    )
    rates: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    if shutil.which("wrk"):
        client = "wrk, 2 threads, 8 connections, 4 s a run, runs interleaved"
        for _ in range(3):  # interleaved, so a change in the machine's load hits every path alike
            for name, path, payload in cases:
                figures = wrk(server.port, path, payload, 4)
                if figures["non2xx"] or figures["socket"]:
                    raise SystemExit(f"{path}: wrk saw errors: {figures}")
                rates[name].append(figures["rate"])
    else:
        client = "4 Python clients (install wrk for a load generator that is not the bottleneck)"
        for _ in range(3):
            for name, path, payload in cases:
                rates[name].append(python_rate(server.port, path, payload, 3.0))
    medians = {name: statistics.median(values) for name, values in rates.items()}
    trivial = medians["GET  /api/v1/health"]
    print(f"throughput: gunicorn as make run sets it (2 threaded workers here); load from {client}:")
    for name, rate in medians.items():
        print(f"  {name:29s} {rate:8.0f} req/s   (ratio to health {rate / trivial:.2f})")
    ratio = medians["POST /api/v1/lists/validate"] / trivial
    print(
        f"  validate / health ratio       {ratio:8.2f}   (target >= {TARGET_RATIO}: {'met' if ratio >= TARGET_RATIO else 'MISSED'})"
    )


# -- 2. hostile requests -------------------------------------------------------------------


def hostile_cases(registry) -> list[tuple[str, str, object]]:
    """(label, path, body bytes or ("raw", bytes)) for each hostile request."""
    army = golden_list()
    listing = lambda **changes: json.dumps({**army, **changes}).encode()  # noqa: E731
    horde = {
        "name": "Horde",
        "size": 5000,
        "quality": 3,
        "defense": 3,
        "rules": ["Tough(1000)"],
        "weapons": [{"name": "w", "attacks": 100}],
    }
    chunks = bytearray(b'{"name": "')
    chunks += b"x" * 20_000_000 + b'"}'
    chunked = (
        b"".join(
            b"%x\r\n%s\r\n" % (len(chunks[i : i + 65536]), chunks[i : i + 65536]) for i in range(0, len(chunks), 65536)
        )
        + b"0\r\n\r\n"
    )
    head = b"POST /api/v1/lists/validate HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    return [
        ("JSON nested 100,000 deep", "/api/v1/lists/validate", b"[" * 100_000 + b"]" * 100_000),
        ("lone surrogate in the name, PDF", "/api/v1/rosters/pdf", listing(name="Host \ud800")),
        ("lone surrogate in the name, text", "/api/v1/rosters/text", listing(name="Host \ud800")),
        ("a 5000-digit number", "/api/v1/lists/validate", b'{"points_limit": ' + b"9" * 5000 + b"}"),
        ("NaN and 1e999", "/api/v1/lists/validate", b'{"points_limit": NaN, "x": 1e999}'),
        ("bytes that are not UTF-8", "/api/v1/lists/validate", b'{"name": "\xff\xfe"}'),
        # Raw, as the server answers 413 from the length and closes while the body is still going out.
        (
            "a 2 MB body with a length",
            "",
            ("raw", with_length("/api/v1/lists/validate", listing(name="x" * 2_000_000))),
        ),
        ("a 20 MB chunked body", "", ("raw", head + chunked)),
        ("a 5000-byte request line", "", ("raw", b"GET /api/v1/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: bench\r\n\r\n")),
        (
            "a 9000-byte header",
            "",
            ("raw", b"GET /api/v1/health HTTP/1.1\r\nHost: bench\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n"),
        ),
        (
            "preview: 5000 models, A100, Tough(1000)",
            "/api/v1/previews",
            json.dumps(
                {
                    "system": "grimdark-future",
                    "attacker": {"profile": horde},
                    "defender": {"profile": horde},
                    "situation": {"attack": "melee"},
                }
            ).encode(),
        ),
        ("preview: OPR melee at every budget", "/api/v1/previews", json.dumps(slowest_opr_preview()).encode()),
        (
            "preview: ancients-hex at the dice budget",
            "/api/v1/previews",
            json.dumps(slowest_hex_preview(registry)).encode(),
        ),
        (
            f"preview: 40-model pair, {CROWD_HEROES} heroes joined",
            "/api/v1/previews",
            json.dumps(crowded_preview(registry)).encode(),
        ),
        ("largest list allowed (validate)", "/api/v1/lists/validate", largest_list(registry)),
        ("largest list allowed (text roster)", "/api/v1/rosters/text", largest_list(registry)),
        ("largest list allowed (HTML roster)", "/api/v1/rosters/html", largest_list(registry)),
        ("one upgrade row over the list budget", "/api/v1/lists/validate", largest_list(registry, extra_rows=1)),
    ]


def with_length(path: str, body: bytes) -> bytes:
    """A whole JSON POST request as bytes, its body's length in Content-Length."""
    return b"POST %s HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
        path.encode(),
        len(body),
        body,
    )


def slowest_opr_preview() -> dict:
    """Both sides at the model, wounds and hits budgets, Blast(6) against Regeneration, melee
    (the hits budget, dice x Blast, holds the dice to 130 of Blast(6))."""
    size = 10
    tough = budget.MAX_WOUNDS // size
    attacks = min(budget.MAX_DICE, budget.MAX_HITS // 6) // size
    side = {
        "name": "Edge",
        "size": size,
        "quality": 3,
        "defense": 3,
        "rules": [f"Tough({tough})", "Regeneration"],
        "weapons": [{"name": "w", "attacks": attacks, "rules": ["Blast(6)", "AP(1)"]}],
    }
    return {
        "system": "grimdark-future",
        "attacker": {"profile": side},
        "defender": {"profile": side},
        "situation": {"attack": "melee"},
    }


# More heroes than any 2000-point list can pay for; joined heroes have no budget of their own.
CROWD_HEROES = 12


def crowded_preview(registry) -> dict:
    """AoF 2.16 (no limit on joined heroes): the biggest combined unit of a book with
    CROWD_HEROES heroes joined, fighting itself in melee (the slowest shape measured)."""
    book = max(registry.books_of("age-of-fantasy"), key=lambda b: len(b.units))
    big = max((u for u in book.units if not u.is_hero), key=lambda u: u.size)
    heroes = [
        u for u in book.units if u.is_hero and not any(s.pick_min for s in map(book.sections.get, u.upgrades) if s)
    ]
    units = [{"key": "a", "unit": big.id, "combined_with": "b"}, {"key": "b", "unit": big.id}]
    units += [{"key": f"h{i}", "unit": heroes[i % len(heroes)].id, "joined_to": "a"} for i in range(CROWD_HEROES)]
    army = {"system": "age-of-fantasy", "book": book.id, "points_limit": 100000, "units": units}
    return {
        "system": "age-of-fantasy",
        "attacker": {"list": army, "key": "a"},
        "defender": {"list": army, "key": "a"},
        "situation": {"attack": "melee"},
    }


def slowest_hex_preview(registry) -> dict:
    """An ancients-hex card with attack dice and hit points at the stat budget, in melee."""
    book = registry.books_of("ancients-hex")[0]
    unit = max(book.units, key=lambda u: u.stats.get("attack", 0))
    stats = dict(unit.stats)
    profile = {
        "name": "Edge",
        "size": 1,
        "class": stats["unit_class"],
        "figures": stats["figures"],
        "move": f"{stats['move_first']}/{stats['move_total']}" if "move_first" in stats else "3/5",
        "attack": budget.MAX_STAT,
        "defence": stats.get("defence", 4),
        "willpower": stats.get("willpower", 4),
        "hit_points": budget.MAX_STAT,
    }
    return {
        "system": "ancients-hex",
        "attacker": {"profile": profile},
        "defender": {"profile": profile},
        "situation": {"attack": "melee"},
    }


def largest_list(registry, extra_rows: int = 0) -> bytes:
    """300 entries (the most a list may have) holding MAX_LIST_UPGRADES upgrade rows in all,
    each bought 1000 times (so every row is also a validation issue), plus *extra_rows*."""
    book = max(registry.books_of("age-of-fantasy"), key=lambda b: len(b.sections))
    unit = max(book.units, key=lambda u: len(u.upgrades))
    rows = [
        {"section": s, "option": o.id, "count": 1000} for s in unit.upgrades for o in book.sections[s].options
    ] * 100
    total = MAX_LIST_UPGRADES + extra_rows
    units = [
        {
            "key": f"k{i}",
            "unit": unit.id,
            "name": "n" * 200,
            "upgrades": rows[: total // MAX_UNITS + (i < total % MAX_UNITS)],
            "combined_with": f"k{i + 1}" if i % 2 == 0 else None,
        }
        for i in range(MAX_UNITS)
    ]
    return json.dumps({"system": book.system, "book": book.id, "points_limit": 100000, "units": units}).encode()


def send(port: int, path: str, body: object) -> tuple[int, float, bytes]:
    if isinstance(body, tuple):
        return raw_request(port, body[1])[:3]
    return request(port, "POST", path, body)[:3]


def bench_hostile(server: Server, registry) -> None:
    print("hostile requests, each over real HTTP to gunicorn (target: a 4xx in the JSON error shape within 1 s):")
    for label, path, body in hostile_cases(registry):
        status, seconds, data = send(server.port, path, body)
        try:
            shape = "JSON error" if set(json.loads(data)) == {"code", "status", "message", "errors"} else "JSON"
        except ValueError:
            shape = f"{len(data)} bytes" if status == 200 else "NOT JSON"
        flag = "" if (status < 500 and seconds < 1.0) else "   <- MISSED"
        print(f"  {label:42s} {status}  {seconds * 1000:8.1f} ms  {shape}{flag}")
    slow = json.dumps(slowest_opr_preview()).encode()
    results: list[float] = []
    threads = [
        threading.Thread(target=lambda: results.append(request(server.port, "POST", "/api/v1/previews", slow)[1]))
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    time.sleep(0.02)
    status, health = request(server.port, "GET", "/api/v1/health")[:2]
    for t in threads:
        t.join()
    print(
        f"  GET /health while two budget-edge previews run: {status} in {health * 1000:.1f} ms (previews {', '.join(f'{r * 1000:.0f}' for r in results)} ms)"
    )


# -- 3. load with a worker killed ----------------------------------------------------------


def kill_a_worker(server: Server) -> int:
    """SIGKILL to one of the master's workers, read at that moment: the throughput runs before
    may have recycled a worker (``max_requests``), so one listed a moment earlier may be gone."""
    for _ in range(100):
        for victim in server.workers():
            try:
                os.kill(victim, signal.SIGKILL)
                return victim
            except ProcessLookupError:
                continue
        time.sleep(0.05)
    raise RuntimeError("no gunicorn worker to kill")


def bench_load(server: Server) -> None:
    if not shutil.which("wrk"):
        print("load test: skipped (wrk is not installed; `make bench` installs it)")
        return
    body = json.dumps(golden_list()).encode()
    preview = json.dumps(PREVIEW).encode()
    results: dict[str, dict] = {}

    def load(name: str, path: str, payload: bytes) -> None:
        results[name] = wrk(server.port, path, payload, LOAD_SECONDS, connections=32, threads=2)

    runs = [
        threading.Thread(target=load, args=args)
        for args in (("validate", "/api/v1/lists/validate", body), ("preview", "/api/v1/previews", preview))
    ]
    for run in runs:
        run.start()
    time.sleep(LOAD_SECONDS / 2)
    victim = kill_a_worker(server)
    killed_at = time.monotonic()
    replaced = None
    while time.monotonic() - killed_at < 30:
        now = server.workers()
        if len(now) == 2 and victim not in now:
            replaced = time.monotonic() - killed_at
            break
        time.sleep(0.01)
    for run in runs:
        run.join()
    print(
        f"load: 64 connections for {LOAD_SECONDS} s (wrk: 32 on validate, 32 on preview), worker {victim} killed with SIGKILL at {LOAD_SECONDS / 2:.0f} s:"
    )
    total = failed = 0
    for name, figures in results.items():
        errors = figures["non2xx"] + figures["socket"]
        total += figures["requests"]
        failed += errors
        print(
            f"  {name:9s} {figures['requests']:7d} requests, {figures['rate']:7.0f} req/s, {figures['non2xx']} non-2xx, {figures['socket']} socket errors"
        )
    print(
        f"  failed requests: {failed} of {total} ({100 * failed / max(total, 1):.3f} %); "
        + (
            f"the master had forked a new worker {replaced * 1000:.0f} ms after the kill"
            if replaced is not None
            else "NO replacement worker within 30 s"
        )
    )
    status = request(server.port, "GET", "/api/v1/health")[0]
    print(f"  after the run: GET /health {status}")


def main() -> None:
    registry = load_registry()
    server = Server()
    try:
        bench_throughput(server)
        bench_hostile(server, registry)
        bench_load(server)
    finally:
        server.stop()


if __name__ == "__main__":
    main()

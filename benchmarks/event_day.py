"""Event-day benchmark (issues 35 and 36): results and standings that cost the same at 500 players as at 16.

    make bench            (or: .venv/bin/python benchmarks/event_day.py [--players 500] [--small 16] [--rounds 6])
    .venv/bin/python benchmarks/event_day.py --stack [--clients 64] [--database-url postgresql://…] [--redis-url redis://…]

Default: one gunicorn as ``make run`` starts it, on a throw-away SQLite file (or --database-url).
Two events, --small and --players players, each play --rounds Swiss rounds over HTTP: the
organiser starts each round, then at every table one player enters the result and the opponent
confirms it. In the last round the two events' entries are timed interleaved, one request at a
time (the figures are each request's own cost, on the same machine at the same moments): an
entry at a table of the big event, then one at a table of the small event (entered again while
it waits, which replaces it). Printed, as ratios in this one run, with their targets:

  - result entry, p50 at --players ÷ p50 at --small                                   <= 1.5
  - ``GET /standings`` with the ETag it gave (304), p50 ÷ ``/health`` p50              <= 2
  - starting the last round of the --players event, seconds over HTTP                  <= 1 s

--stack: the production stack (``deploy/stack.py``: nginx in front of two instances) with
--clients client threads at once. One --players event is made and its first round started; then
every table is one task: its first player fetches the pairing and enters the result, the
opponent fetches it and confirms. Meanwhile ``/health`` is asked every 20 ms and --viewers
phones poll the public standings every 0.2 s with their ETag. Printed: errors (anything but the expected 2xx/304; target
0), p99 per write ÷ ``/health`` p99 of the same run (target <= 5), and how the standings polls
were answered (304s, from the kept standings).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scale import GENEROUS, HEALTH, HealthPoller, auth, event_lists, ok, p99  # noqa: E402
from listbuilder.books.loader import load_registry  # noqa: E402
from tests.loopback import Server, request  # noqa: E402

RATIO_ENTRY, RATIO_ETAG, LAST_ROUND_S, RATIO_STACK = 1.5, 2.0, 1.0, 5.0


def make_event(port: int, players: int) -> tuple[dict, dict[str, str]]:
    """An event of *players* players, each submitting a list of their own: the event and each player's token."""
    registry = load_registry(None)
    body = {
        "name": f"Day of {players}",
        "system": "grimdark-future",
        "points_limit": 2000,
        "books": [{"book": b.id} for b in registry.books_of("grimdark-future")],
        "deadline": "2099-01-01T00:00:00+00:00",
        "allow_illegal": True,
    }
    event = ok(request(port, "POST", "/api/v1/events", body), 201).json()
    lists = event_lists()

    def enter(i: int) -> tuple[str, str]:
        made = ok(request(port, "POST", "/api/v1/lists", {**lists[i % len(lists)], "name": f"Army {i}"}), 201).json()
        name = f"Player {i:03d}"
        submission = {"list_id": made["id"], "player": name}
        answer = request(
            port, "POST", f"/api/v1/events/{event['id']}/submissions", submission, auth(made["edit_token"])
        )
        return name, ok(answer, 201).json()["player_token"]

    with ThreadPoolExecutor(4) as pool:
        tokens = dict(pool.map(enter, range(players)))
    return event, tokens


def path(event: dict, rest: str = "") -> str:
    return f"/api/v1/events/{event['id']}{rest}"


def start_round(port: int, event: dict) -> tuple[dict, float]:
    answer = ok(request(port, "POST", path(event, "/rounds"), {}, auth(event["organiser_token"])), 201)
    return answer.json(), answer.seconds


def play_table(port: int, event: dict, tokens: dict[str, str], number: int, table: int) -> list[float]:
    """One player of the table (either, drawn from the round and table) fetches the round's
    pairings and enters a win; the opponent fetches their table and confirms. The seconds of
    the two writes."""
    pairing = ok(request(port, "GET", path(event, f"/rounds/{number}"))).json()
    a, b = next(t["players"] for t in pairing["pairings"] if t["table"] == table)
    if random.Random(number * 100_003 + table).random() < 0.5:  # either may win, as in a real event
        a, b = b, a
    result = {"table": table, "outcome": {a: "win", b: "loss"}, "secondary": {a: 5, b: 3}}
    entered = ok(request(port, "POST", path(event, f"/rounds/{number}/results"), result, auth(tokens[a])), 201)
    ok(request(port, "GET", path(event, f"/rounds/{number}/tables/{table}")))  # the opponent sees the entry
    confirmed = ok(
        request(port, "POST", path(event, f"/rounds/{number}/confirmations"), {"table": table}, auth(tokens[b])), 201
    )
    return [entered.seconds, confirmed.seconds]


def games(paired: dict) -> list[int]:
    return [t["table"] for t in paired["pairings"] if None not in t["players"]]


def play_rounds(port: int, event: dict, tokens: dict[str, str], rounds: range) -> None:
    for number in rounds:
        paired, _ = start_round(port, event)
        for table in games(paired):
            play_table(port, event, tokens, number, table)


def enter(port: int, event: dict, tokens: dict[str, str], number: int, seat: dict) -> float:
    """The seconds of one result entry at *seat* by its first player (again: it replaces theirs)."""
    a, b = seat["players"]
    result = {"table": seat["table"], "outcome": {a: "win", b: "loss"}, "secondary": {a: 5, b: 3}}
    return ok(request(port, "POST", path(event, f"/rounds/{number}/results"), result, auth(tokens[a])), 201).seconds


def last_round(port: int, small: tuple, big: tuple, number: int) -> tuple[list[float], list[float], float]:
    """Round *number* of both events, their entries interleaved (one client, one request at a
    time, so both see the same machine): at each of the big event's tables, one entry there
    and one at a table of the small event (entered again while it waits). The entries'
    seconds of each event, and the seconds the big event's round took to start."""
    small_paired, _ = start_round(port, small[0])
    big_paired, started = start_round(port, big[0])
    small_seats = [t for t in small_paired["pairings"] if None not in t["players"]]
    big_seats = [t for t in big_paired["pairings"] if None not in t["players"]]
    small_times, big_times = [], []
    for i, seat in enumerate(big_seats):
        big_times.append(enter(port, *big, number, seat))
        small_times.append(enter(port, *small, number, small_seats[i % len(small_seats)]))
    return small_times, big_times, started


def etag_polls(port: int, event: dict, n: int = 300) -> tuple[float, float]:
    """p50 of ``GET /standings`` with its ETag (each a 304) and of ``/health``, interleaved."""
    etag = ok(request(port, "GET", path(event, "/standings"))).headers["ETag"]
    polls, health = [], []
    for _ in range(n):
        polls.append(ok(request(port, "GET", path(event, "/standings"), headers={"If-None-Match": etag}), 304).seconds)
        health.append(ok(request(port, "GET", HEALTH)).seconds)
    return statistics.median(polls), statistics.median(health)


def bench_scale(args: argparse.Namespace) -> None:
    with Server(args.database_url, env=GENEROUS) as server:
        port = server.port
        warm = make_event(port, args.small)
        play_rounds(port, *warm, range(1, 3))  # every path run once before anything is timed
        small, big = make_event(port, args.small), make_event(port, args.players)
        for event in (small, big):
            play_rounds(port, *event, range(1, args.rounds))
        small_times, big_times, started = last_round(port, small, big, args.rounds)
        etag, health = etag_polls(port, big[0])
    small_p50, big_p50 = statistics.median(small_times), statistics.median(big_times)
    ratio = big_p50 / small_p50
    print(f"event day, one gunicorn as make run starts it; round {args.rounds} of each event, entries interleaved:")
    print(
        f"  result entry p50: {args.small} players {small_p50 * 1000:.1f} ms, {args.players} players "
        f"{big_p50 * 1000:.1f} ms (p99 {p99(small_times) * 1000:.1f} / {p99(big_times) * 1000:.1f} ms): ratio {ratio:.2f} "
        f"(target <= {RATIO_ENTRY}) {'ok' if ratio <= RATIO_ENTRY else 'MISSED'}"
    )
    print(
        f"  GET /standings with its ETag (304) p50 {etag * 1000:.2f} ms, /health p50 {health * 1000:.2f} ms: "
        f"ratio {etag / health:.2f} (target <= {RATIO_ETAG}) {'ok' if etag / health <= RATIO_ETAG else 'MISSED'}"
    )
    print(
        f"  round {args.rounds} of {args.players} players started in {started:.2f} s over HTTP "
        f"(target <= {LAST_ROUND_S:g} s) {'ok' if started <= LAST_ROUND_S else 'MISSED'}"
    )


def bench_stack(args: argparse.Namespace) -> None:
    from deploy.stack import Stack  # only here: the stack needs nginx

    scratch = tempfile.TemporaryDirectory(prefix="listbuilder-bench-")
    database_url = args.database_url or f"sqlite:///{Path(scratch.name) / 'stack.sqlite3'}"
    with scratch, Stack(database_url=database_url, redis_url=args.redis_url, env=GENEROUS) as stack:
        port = stack.port
        event, tokens = make_event(port, args.players)
        paired, _ = start_round(port, event)
        tables = games(paired)
        errors: list[str] = []
        writes: list[float] = []
        polls = {"304": 0, "200": 0}
        versions: set[str] = set()
        stop = threading.Event()

        def poll_standings() -> None:
            """A phone on the public standings: asks every 0.2 s with the ETag it last got."""
            etag = None
            while not stop.is_set():
                answer = request(
                    port, "GET", path(event, "/standings"), headers={"If-None-Match": etag} if etag else {}
                )
                if answer.status in (200, 304):
                    polls[str(answer.status)] += 1
                    etag = answer.headers.get("ETag", etag)
                    versions.add(str(etag))
                else:
                    errors.append(f"standings {answer.status}")
                stop.wait(0.2)

        def task(table: int) -> None:
            try:
                writes.extend(play_table(port, event, tokens, 1, table))
            except (OSError, RuntimeError) as error:
                errors.append(str(error)[:200])

        pollers = [threading.Thread(target=poll_standings, daemon=True) for _ in range(args.viewers)]
        with HealthPoller(port) as health:
            for poller in pollers:
                poller.start()
            started = time.perf_counter()
            with ThreadPoolExecutor(args.clients) as pool:
                list(pool.map(task, tables))
            seconds = time.perf_counter() - started
            stop.set()
            for poller in pollers:
                poller.join()
        health_p99 = p99(health.times)
    ratio = p99(writes) / health_p99
    backends = (
        f"{'PostgreSQL' if database_url.startswith('postgres') else 'SQLite'}{', Redis' if args.redis_url else ''}"
    )
    print(f"event day through the stack (nginx + 2 instances, {backends}):")
    print(
        f"  {args.players} players, {len(tables)} tables by {args.clients} clients at once in {seconds:.1f} s: "
        f"{len(writes)} writes, {len(errors) + health.failures} errors (target 0)"
        + (f": {errors[:3]}" if errors else "")
    )
    print(
        f"  write p50 {statistics.median(writes) * 1000:.0f} ms p99 {p99(writes) * 1000:.0f} ms; /health p99 "
        f"{health_p99 * 1000:.0f} ms: ratio {ratio:.1f} (target <= {RATIO_STACK:g}) {'ok' if ratio <= RATIO_STACK else 'MISSED'}"
    )
    print(
        f"  standings polled meanwhile by {args.viewers} phones with their ETags: {polls['304']} x 304, "
        f"{polls['200']} x 200, {len(versions)} versions (so at most {len(versions)} computed, the rest kept)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--small", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--database-url", default=None, help="default: a throw-away SQLite file")
    parser.add_argument("--redis-url", default=None, help="--stack: the instances' REDIS_URL (default: none)")
    parser.add_argument("--stack", action="store_true", help="through nginx and two instances, many clients at once")
    parser.add_argument("--clients", type=int, default=64, help="--stack: client threads at once")
    parser.add_argument("--viewers", type=int, default=8, help="--stack: phones polling the standings meanwhile")
    args = parser.parse_args()
    (bench_stack if args.stack else bench_scale)(args)


if __name__ == "__main__":
    main()

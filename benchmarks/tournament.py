"""Swiss pairing benchmark (issue 28): round 6 of a 500-player event, after five rounds of random results.

    make bench            (or: .venv/bin/python benchmarks/tournament.py [--runs 5])

Five rounds are played first (random winners, standings by score); then round 6 is paired
--runs times from the same standings, and the median is printed beside the target (<= 2 s),
with the 64-player round 6 for scale, measured in the same run. Each pairing is checked:
everyone seated once, no rematch.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listbuilder.tournament.pairing import Entrant, pair_round  # noqa: E402
from tests.tournament.simulation import play_swiss  # noqa: E402

TARGET_S = 2.0


def timed_round(ranked: list[Entrant], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of pairing *ranked* (CPU too: on a shared machine the wall
    time includes waiting for a core)."""
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        tables = pair_round(ranked)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        seated = [p for t in tables for p in t.players if p is not None]
        assert sorted(seated) == sorted(e.key for e in ranked)
        history = {e.key: e.opponents for e in ranked}
        assert not any(b in history[a] for a, b in (t.players for t in tables) if b is not None), "a rematch"
    return statistics.median(times), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(28)
    big, small = play_swiss(500, 5, rng).ranked(), play_swiss(64, 5, rng).ranked()
    (big_s, big_cpu), (small_s, small_cpu) = timed_round(big, args.runs), timed_round(small, args.runs)
    ok = "ok" if big_s <= TARGET_S else "MISSED"
    print(
        f"tournament: round 6 pairing, 500 players: {big_s * 1000:.0f} ms wall, {big_cpu * 1000:.0f} ms CPU (target <= {TARGET_S * 1000:.0f} ms) {ok}"
    )
    print(
        f"tournament: round 6 pairing, 64 players: {small_s * 1000:.0f} ms wall, {small_cpu * 1000:.0f} ms CPU (500 ÷ 64 in CPU: {big_cpu / small_cpu:.1f})"
    )


if __name__ == "__main__":
    main()

"""Combat preview benchmark (issue 4).

    .venv/bin/python benchmarks/combat.py [--trials 100000]

Case: 10 models with a Deadly(3) gun (A2 each: 20 attacks, Quality 4+) shoot a 10-model
Tough(3) unit with Regeneration and Defense 4+ (Grimdark Future, rulebook 001). Prints:
  - the median time of a whole preview (request -> response dict, inline profiles), warm
    (caches filled, as in a running server) and cold (every cache cleared first);
                                                           target <= 2 ms
  - the time of a seeded 100,000-trial Monte Carlo of the same case (the independent
    simulator from tests/combat/montecarlo.py) and its ratio to the exact preview;
  - how far the Monte Carlo's averages sit from the exact values, in standard errors.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from listbuilder.books import load_registry  # noqa: E402
from listbuilder.combat import opr, preview  # noqa: E402
from listbuilder.combat.opr import GF, Situation  # noqa: E402
from listbuilder.combat.profiles import fighter_from  # noqa: E402
from listbuilder.combat.service import resolve_side  # noqa: E402
from listbuilder.dice import _binomial  # noqa: E402
from listbuilder.schemas.previews import load_request  # noqa: E402
from tests.combat.montecarlo import Sim  # noqa: E402

TARGET_MS = 2.0

REQUEST = {
    "system": "grimdark-future",
    "attacker": {"profile": {"name": "Gunners", "size": 10, "quality": 4, "defense": 4,
                             "weapons": [{"name": "Deadly Gun", "attacks": 2, "range": 24, "rules": ["Deadly(3)"]}]}},
    "defender": {"profile": {"name": "Brutes", "size": 10, "quality": 4, "defense": 4, "rules": ["Tough(3)", "Regeneration"],
                             "weapons": [{"name": "Claws", "attacks": 2}]}},
    "situation": {"attack": "shooting", "range": 18},
}


def clear_caches() -> None:
    for fn in (opr.per_attack, opr.per_attack_raw, opr.wounds_only, opr.group_2d, opr.advance_deadly, _binomial):
        fn.cache_clear()


def median_ms(fn, runs: int, cold: bool) -> float:
    times = []
    for _ in range(runs):
        if cold:
            clear_caches()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    registry = load_registry(ROOT / "army_books")
    request = load_request(registry, REQUEST)
    result = preview(registry, request)
    warm = median_ms(lambda: preview(registry, request), args.runs, cold=False)
    cold = median_ms(lambda: preview(registry, request), args.runs, cold=True)
    print("combat preview: 20 Deadly(3) attacks vs 10 x Tough(3) with Regeneration (001)")
    print(f"  exact expected wounds {result['expected']['wounds']:.6f}, models killed {result['expected']['models_killed']:.6f}, "
          f"P(destroyed) {result['p_destroyed']:.3e}")
    print(f"  preview median, warm caches : {warm:8.3f} ms   target <= {TARGET_MS} ms  ratio {warm / TARGET_MS:.2f} of budget")
    print(f"  preview median, cold caches : {cold:8.3f} ms   target <= {TARGET_MS} ms  ratio {cold / TARGET_MS:.2f} of budget")

    system = registry.systems["grimdark-future"]
    att = fighter_from(resolve_side(registry, system, request["attacker"], "attacker"))
    dfn = fighter_from(resolve_side(registry, system, request["defender"], "defender"))
    sit = Situation.of(request["situation"])
    start = time.perf_counter()
    sim = Sim(GF.code, att, dfn, sit, seed=4).run(args.trials)
    mc = time.perf_counter() - start
    print(f"  Monte Carlo, {args.trials} trials : {mc * 1000:8.1f} ms   "
          f"exact is {mc * 1000 / warm:,.0f}x faster warm, {mc * 1000 / cold:,.0f}x cold")
    for key, exact in (("wounds", result["expected"]["wounds"]), ("killed", result["expected"]["models_killed"])):
        mean, se = sim[key]
        print(f"  Monte Carlo {key:7s}: {mean:.4f} ± {se:.4f} (exact {exact:.4f}, {abs(mean - exact) / se:.2f} standard errors)")
    return 0 if cold <= TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())

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

Melee (issue 15), in process, warm caches, median of several runs of this process's CPU time
(time.process_time: other work on a shared machine does not count):
  - the Age of Fantasy biggest-vs-biggest melee: the largest book unit charging the largest
    (Phalanx, so the charger first takes dangerous-terrain wounds), with return strikes
                                                           target <= 20 ms (was 211 ms)
  - 40 models against 40 models in melee with return strikes    target <= 15 ms
  - the same preview as a whole HTTP request (Flask test client: WSGI, body parsing, the
    request schemas, the preview, JSON out) beside the same JSON body answered in process
    (load_request + preview, as the CLI does)                    target: within 1.5 ms
  - the scaling curve: melee of N vs N models (5/10/20/40) and shooting of 1-500 attacks,
    each with the exponent k of a least-squares fit time ~ size^k.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import math  # noqa: E402

from listbuilder.books.loader import load_registry  # noqa: E402
from listbuilder.combat import opr, preview  # noqa: E402
from listbuilder.combat.opr import GF, Situation  # noqa: E402
from listbuilder.combat.profiles import fighter_from  # noqa: E402
from listbuilder.combat.service import resolve_side  # noqa: E402
from listbuilder.dice import forget_binomials  # noqa: E402
from listbuilder.shapes.preview_requests import load_request  # noqa: E402
from tests.combat.montecarlo import Sim  # noqa: E402

TARGET_MS = 2.0
BIG_MELEE_MS = 20.0
FORTY_MS = 15.0
HTTP_OVERHEAD_MS = 1.5

REQUEST = {
    "system": "grimdark-future",
    "attacker": {
        "profile": {
            "name": "Gunners",
            "size": 10,
            "quality": 4,
            "defense": 4,
            "weapons": [{"name": "Deadly Gun", "attacks": 2, "range": 24, "rules": ["Deadly(3)"]}],
        }
    },
    "defender": {
        "profile": {
            "name": "Brutes",
            "size": 10,
            "quality": 4,
            "defense": 4,
            "rules": ["Tough(3)", "Regeneration"],
            "weapons": [{"name": "Claws", "attacks": 2}],
        }
    },
    "situation": {"attack": "shooting", "range": 18},
}


def clear_caches() -> None:
    for fn in (opr.per_attack, opr.per_attack_raw, opr.wounds_only, opr.group_2d, opr.advance_deadly):
        fn.cache_clear()
    forget_binomials()


def median_ms(fn, runs: int, cold: bool, clock=time.perf_counter) -> float:
    times = []
    for _ in range(runs):
        if cold:
            clear_caches()
        start = clock()
        fn()
        times.append(clock() - start)
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
    print(
        f"  exact expected wounds {result['expected']['wounds']:.6f}, models killed {result['expected']['models_killed']:.6f}, "
        f"P(destroyed) {result['p_destroyed']:.3e}"
    )
    print(
        f"  preview median, warm caches : {warm:8.3f} ms   target <= {TARGET_MS} ms  ratio {warm / TARGET_MS:.2f} of budget"
    )
    print(
        f"  preview median, cold caches : {cold:8.3f} ms   target <= {TARGET_MS} ms  ratio {cold / TARGET_MS:.2f} of budget"
    )

    system = registry.systems["grimdark-future"]
    att = fighter_from(resolve_side(registry, system, request["attacker"], "attacker"))
    dfn = fighter_from(resolve_side(registry, system, request["defender"], "defender"))
    sit = Situation.of(request["situation"])
    start = time.perf_counter()
    sim = Sim(GF.code, att, dfn, sit, seed=4).run(args.trials)
    mc = time.perf_counter() - start
    print(
        f"  Monte Carlo, {args.trials} trials : {mc * 1000:8.1f} ms   "
        f"exact is {mc * 1000 / warm:,.0f}x faster warm, {mc * 1000 / cold:,.0f}x cold"
    )
    for key, exact in (("wounds", result["expected"]["wounds"]), ("killed", result["expected"]["models_killed"])):
        mean, se = sim[key]
        print(
            f"  Monte Carlo {key:7s}: {mean:.4f} ± {se:.4f} (exact {exact:.4f}, {abs(mean - exact) / se:.2f} standard errors)"
        )
    bench_melee(registry, max(5, args.runs // 20))
    return 0  # a missed target is printed above; the other benchmarks still run (as pdf.py)


def biggest_melee(registry) -> dict:
    """The largest AoF book unit charging the largest one (ties: the Phalanx target)."""
    units = [(b.id, u) for b in registry.books_of("age-of-fantasy") for u in b.units]
    units.sort(key=lambda bu: (bu[1].size, any(r.name == "Phalanx" for r in bu[1].rules)), reverse=True)
    (db, defender), (ab, attacker) = units[0], units[1]
    return {
        "system": "age-of-fantasy",
        "attacker": {"book": ab, "unit": attacker.id},
        "defender": {"book": db, "unit": defender.id},
        "situation": {"attack": "melee", "charging": True},
    }


def horde(models: int, attacks: int = 1) -> dict:
    return {
        "name": f"Horde {models}",
        "size": models,
        "quality": 4,
        "defense": 4,
        "weapons": [{"name": "Blade", "attacks": attacks, "rules": ["AP(1)"]}],
    }


def melee_request(models: int) -> dict:
    return {
        "system": "age-of-fantasy",
        "attacker": {"profile": horde(models)},
        "defender": {"profile": horde(models)},
        "situation": {"attack": "melee", "charging": True},
    }


def shooting_fighters(registry, attacks: int):
    """``attacks`` Deadly(2) shots at 40 Tough(3) models (in process, past the API's dice budget)."""
    system = registry.systems["grimdark-future"]
    gun = {
        "name": "Gunner",
        "size": 1,
        "quality": 4,
        "defense": 4,
        "weapons": [{"name": "Gun", "attacks": attacks, "range": 24, "rules": ["Deadly(2)"]}],
    }
    target = {
        "name": "Wall",
        "size": 40,
        "quality": 4,
        "defense": 5,
        "rules": ["Tough(3)"],
        "weapons": [{"name": "Fist", "attacks": 1}],
    }
    req = load_request(
        registry,
        {
            "system": system.id,
            "attacker": {"profile": gun},
            "defender": {"profile": target},
            "situation": {"attack": "shooting"},
        },
    )
    return (
        fighter_from(resolve_side(registry, system, req["attacker"], "attacker")),
        fighter_from(resolve_side(registry, system, req["defender"], "defender")),
        Situation.of(req["situation"]),
    )


def paired_ms(first, second, runs: int) -> tuple[list[float], list[float]]:
    """CPU times of the two calls made one after the other in each run (so a change in the
    machine's load touches both alike)."""
    a, b = [], []
    for _ in range(runs):
        for fn, out in ((first, a), (second, b)):
            start = time.process_time()
            fn()
            out.append((time.process_time() - start) * 1000)
    return a, b


def exponent(sizes: list[int], times: list[float]) -> float:
    """Slope of the least-squares line through (log size, log time)."""
    xs, ys = [math.log(s) for s in sizes], [math.log(t) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def bench_melee(registry, runs: int) -> bool:
    from listbuilder.web import create_app

    print("melee previews (issue 15), in process, warm caches, CPU time")

    def cpu_ms(fn) -> float:
        return median_ms(fn, runs, cold=False, clock=time.process_time)

    big = biggest_melee(registry)
    big_req = load_request(registry, big)
    big_ms = cpu_ms(lambda: preview(registry, big_req))
    names = f"{big['attacker']['unit']} charging {big['defender']['unit']}"
    print(
        f"  AoF biggest vs biggest ({names}), return strikes: {big_ms:7.2f} ms   target <= {BIG_MELEE_MS} ms  ratio {big_ms / BIG_MELEE_MS:.2f}"
    )
    forty = load_request(registry, melee_request(40))
    forty_ms = cpu_ms(lambda: preview(registry, forty))
    print(
        f"  40 vs 40 models, charge and return strikes      : {forty_ms:7.2f} ms   target <= {FORTY_MS} ms  ratio {forty_ms / FORTY_MS:.2f}"
    )

    client = create_app({"TESTING": True, "REGISTRY": registry}).test_client()
    http_ok = True
    for label, body in (("biggest vs biggest", big), ("40 vs 40", melee_request(40))):
        assert client.post("/api/v1/previews", json=body).status_code == 200
        inner, whole = paired_ms(
            lambda: preview(registry, load_request(registry, body)),
            lambda: client.post("/api/v1/previews", json=body),
            runs,
        )
        gap = statistics.median(w - i for i, w in zip(inner, whole))
        http_ok &= gap <= HTTP_OVERHEAD_MS
        print(
            f"  whole HTTP preview, {label:18s}: {statistics.median(whole):7.2f} ms vs {statistics.median(inner):7.2f} ms in process: "
            f"+{gap:.2f} ms (median of paired runs)   target <= +{HTTP_OVERHEAD_MS} ms"
        )

    sizes = [5, 10, 20, 40]
    times = []
    for n in sizes:
        req = load_request(registry, melee_request(n))
        times.append(cpu_ms(lambda: preview(registry, req)))
    print(
        "  scaling, melee N vs N models: "
        + ", ".join(f"{n}: {t:.2f} ms" for n, t in zip(sizes, times))
        + f"   fitted exponent {exponent(sizes, times):.2f}"
    )
    counts = [1, 5, 20, 100, 500]
    shots = []
    for n in counts:
        att, dfn, sit = shooting_fighters(registry, n)
        shots.append(cpu_ms(lambda: opr.preview_fighters(GF, att, dfn, sit)))
    print(
        "  scaling, shooting 1-500 Deadly(2) attacks at 40 x Tough(3): "
        + ", ".join(f"{n}: {t:.2f} ms" for n, t in zip(counts, shots))
        + f"   fitted exponent {exponent(counts, shots):.2f}"
    )
    return big_ms <= BIG_MELEE_MS and forty_ms <= FORTY_MS and http_ok


if __name__ == "__main__":
    sys.exit(main())

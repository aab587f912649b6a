"""Work shared inside a melee must not change its answer (issue 15: the engine is memoised).

A strike-back at a deeper attacker position is the one already worked out, moved along, when
nothing in its dice reads the position (``Melee._back_shifts``). These tests run the same melee
with the shortcut and without it and ask for the same numbers, on charges that leave the
attacker at many positions before the strike-back (000 Phalanx's dangerous-terrain wounds, 001
Counter), including lines where the shortcut must stay off.
"""

from __future__ import annotations

import pytest

from listbuilder.combat.opr import preview_fighters
from listbuilder.combat.opr.melee import Melee
from tests.combat.helpers import DIALECT, situation, unit, weapon

PHALANX = unit("Spears", 20, 5, 6, "Phalanx", weapons=(weapon("Spear", 1, 0, count=20),))
OGRES = unit("Ogres", 6, 4, 4, "Tough(3)", weapons=(weapon("Club", 3, 0, "AP(1)", count=6),))
WARRIORS = unit("Warriors", 20, 5, 5, weapons=(weapon("Spear", 1, 0, count=20),))
CHAMPION = unit("Champion", 1, 3, 3, "Hero", "Tough(3)", weapons=(weapon("Blade", 3, 0, "AP(1)"),))
LED = unit("Warriors", 10, 5, 5, weapons=(weapon("Spear", 1, 0, count=10),), heroes=(CHAMPION,))
PIKES = unit("Pikes", 10, 4, 5, weapons=(weapon("Pike", 1, 0, "Counter", count=10),))
BLASTERS = unit("Spears", 10, 5, 6, "Phalanx", weapons=(weapon("Bomb", 1, 0, "Blast(6)", count=10),))

CASES = [
    ("000-warriors-into-phalanx", "000", WARRIORS, PHALANX, True),
    ("000-tough-into-phalanx", "000", OGRES, PHALANX, True),
    ("001-warriors-into-counter", "001", WARRIORS, PIKES, True),
    ("000-led-unit-into-phalanx", "000", LED, PHALANX, False),  # a joined hero: Defense changes along the line
    ("000-into-blast-phalanx", "000", OGRES, BLASTERS, False),  # Blast caps by models left
]


def flat(value, path=""):
    """Every number in an answer, by path."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flat(v, f"{path}/{k}")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, float(value)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_strike_back_moved_along_equals_the_one_recomputed(case, monkeypatch):
    _, code, att, dfn, shifts = case
    sit = situation("melee", charging=True)
    seen = []
    real = Melee._back_shifts
    monkeypatch.setattr(Melee, "_back_shifts", lambda self, groups: seen.append(real(self, groups)) or seen[-1])
    shared = dict(flat(preview_fighters(DIALECT[code], att, dfn, sit)))
    assert seen == [shifts]
    monkeypatch.setattr(Melee, "_back_shifts", lambda self, groups: False)
    recomputed = dict(flat(preview_fighters(DIALECT[code], att, dfn, sit)))
    for key in shared.keys() | recomputed.keys():
        assert abs(shared.get(key, 0.0) - recomputed.get(key, 0.0)) < 1e-12, key

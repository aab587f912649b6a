"""Where a side can end an attack (:class:`Outcomes`), and the response read off them."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from listbuilder.combat.profiles import WoundLine
from listbuilder.dice import Dist


@dataclass(frozen=True)
class Outcomes:
    """The states a side can end an attack in, as integer keys.

    Normally that is a position on the side's one wound line (key = position). After a
    Sniper/Takedown pick, the picked model may be left with any number of wounds, which no
    single position can express; each of those outcomes gets its own line, and the lines share
    one key space (key = the line's offset + position). Every reader of a result goes through
    :meth:`locate`, so the rest of the engine works on (line, position) pairs either way.
    """

    lines: tuple[WoundLine, ...]
    offsets: tuple[int, ...]
    dealt: tuple[int, ...]  # wounds this attack dealt, minus the position, on each line
    alive_before: int  # models standing before this attack

    @classmethod
    def one_line(cls, line: WoundLine, start: int) -> Outcomes:
        return cls((line,), (0,), (-start,), line.alive(start))

    @classmethod
    def of(cls, lines: list[WoundLine], dealt: list[int], alive_before: int) -> Outcomes:
        offsets, total = [], 0
        for line in lines:
            offsets.append(total)
            total += line.end + 1
        return cls(tuple(lines), tuple(offsets), tuple(dealt), alive_before)

    @property
    def untouched(self) -> int:
        """The key of the state the attack found the side in (no wounds dealt)."""
        return self.offsets[0] - self.dealt[0]

    def key(self, index: int, p: int) -> int:
        return self.offsets[index] + p

    def line_index(self, key: int) -> int:
        return bisect_right(self.offsets, key) - 1

    def locate(self, key: int) -> tuple[WoundLine, int]:
        """The line and position a key stands for."""
        if len(self.lines) == 1:
            return self.lines[0], key
        i = self.line_index(key)
        return self.lines[i], key - self.offsets[i]

    def wounds(self, key: int) -> int:
        i = self.line_index(key)
        return self.dealt[i] + key - self.offsets[i]

    def killed(self, key: int) -> int:
        line, p = self.locate(key)
        return self.alive_before - line.alive(p)

    def destroyed(self, key: int) -> bool:
        line, p = self.locate(key)
        return p >= line.end


def result(hits: Dist, ends: Dist, where: Outcomes) -> dict[str, Any]:
    """The response's expected values and distributions for one side's attack."""
    wounds = ends.map(where.wounds)
    killed = ends.map(where.killed)
    return {
        "expected": {"hits": hits.mean, "wounds": wounds.mean, "models_killed": killed.mean},
        "distributions": {"hits": hits.as_dict(), "wounds": wounds.as_dict(), "models_killed": killed.as_dict()},
        "p_destroyed": sum(w for k, w in ends.items() if where.destroyed(k)),
    }

"""The organiser's penalties and bonuses: points added to (or taken from) a player's score, with a reason.

An adjustment is an ``adjustment`` row of the day's log (player, points, reason, the round it
came after); the standings add each player's adjustments to their score
(``rounds.adjusted``, ``tournament/standings``) and show the sum as ``adjustment``. Nothing is
ever taken back in place: a mistaken penalty is answered with the opposite adjustment, so the
record shows both. The same player, points and reason again in the same round is taken as a
retried request and changes nothing; to give the same penalty twice, say so in the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from listbuilder.events.organiser import organiser_only
from listbuilder.events.rounds import find_player, names
from listbuilder.lists.documents import ListError
from listbuilder.store.rounds import AddLog, Change, Day, Plan


def plan_adjustment(name: str, points: float, reason: str) -> Plan:
    """Add *points* (negative: a penalty) to *name*'s score, for *reason* (the organiser only)."""

    def plan(day: Day) -> Sequence[Change]:
        organiser_only(day, "adjust a score")
        if points == 0:
            raise ListError("invalid_adjustment", "an adjustment of 0 points changes nothing", {"points": ["not 0"]})
        player = find_player(day, name)
        given = {"player": player.name, "points": points, "reason": reason.strip(), "round": len(day.rounds)}
        if any(_same(entry.data, given, day) for entry in day.log if entry.kind == "adjustment"):
            return []
        return [AddLog("adjustment", given)]

    return plan


def _same(logged: Any, given: dict[str, Any], day: Day) -> bool:
    key_of = names(day).key_of
    return (
        key_of(logged["player"]) == key_of(given["player"])
        and float(logged["points"]) == float(given["points"])
        and logged["reason"] == given["reason"]
        and logged["round"] == given["round"]
    )


def adjustments(day: Day) -> list[dict[str, Any]]:
    """Every adjustment, oldest first, its player as shown now."""
    show = names(day).show
    return [
        {
            "player": show(e.data["player"]),
            "points": e.data["points"],
            "reason": e.data["reason"],
            "round": e.data["round"],
            "at": e.at,
        }
        for e in day.log
        if e.kind == "adjustment"
    ]

"""Undoing a round started by mistake: the last round goes while nothing is entered at its tables.

The organiser's undo removes the round as paired (its tables) and logs it, so the record keeps
what was undone; swaps logged for it no longer apply (``rounds.tables`` starts again from the
round paired next under that number). A round with any result row (an entry waiting for
confirmation included) is played: its results are changed by override, never undone.
"""

from __future__ import annotations

from collections.abc import Sequence

from listbuilder.events.organiser import organiser_only
from listbuilder.store.errors import DayConflict, RoundNotFound
from listbuilder.store.rounds import AddLog, Change, Day, DeleteRound, Plan


def plan_undo_round(number: int) -> Plan:
    """Remove round *number*: the last round, while none of its tables has a result."""

    def plan(day: Day) -> Sequence[Change]:
        organiser_only(day, "undo a round")
        paired = next((r for r in day.rounds if r.number == number), None)
        if paired is None:
            raise RoundNotFound(day.event.id, f"round {number} has not started (rounds so far: {len(day.rounds)})")
        if number != len(day.rounds):
            raise DayConflict(day.event.id, f"only the last round ({len(day.rounds)}) can be undone", field="round")
        entered = sorted({r.table for r in day.results if r.round == number})
        if entered:
            raise DayConflict(
                day.event.id,
                f"round {number} has results at table(s) {entered}: change them by override, it cannot be undone",
                field="round",
            )
        undone = {"round": number, "seed": paired.seed, "tables": [list(t) for t in paired.tables]}
        return [AddLog("undo_round", undone), DeleteRound(number)]

    return plan

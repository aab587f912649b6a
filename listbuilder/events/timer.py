"""The round timer: when the current round's time is up, shown on every page of the event.

The organiser starts it with a length in minutes (or stops it); it is a ``timer`` row of the
day's log holding the round it was set in and the moment it ends, so every page computes the
same countdown from the server's clock, and a reload or another device loses nothing. A timer
belongs to its round: once the next round starts, there is none until the organiser sets one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from listbuilder.events.organiser import organiser_only
from listbuilder.store.errors import DayConflict
from listbuilder.store.rounds import AddLog, Change, Day, Plan


def timer(day: Day) -> dict[str, Any]:
    """The current round's timer: its round and end (None: not set, or stopped)."""
    ends = None
    for entry in day.log:
        if entry.kind == "timer" and entry.data["round"] == len(day.rounds):
            ends = entry.data["ends_at"]
    return {"round": len(day.rounds), "ends_at": ends}


def plan_timer(minutes: int | None, now: dt.datetime) -> Plan:
    """Set the current round to end *minutes* from *now* (None: stop the timer). The organiser only."""

    def plan(day: Day) -> Sequence[Change]:
        organiser_only(day, "set the round timer")
        if not day.rounds:
            raise DayConflict(day.event.id, "no round has started: start one, then set its timer", field="minutes")
        ends = None if minutes is None else (now + dt.timedelta(minutes=minutes)).isoformat()
        return [AddLog("timer", {"round": len(day.rounds), "ends_at": ends})]

    return plan

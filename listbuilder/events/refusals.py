"""Refused submissions, kept for the organiser: a player whose illegal list the event turned
away is otherwise invisible to them until the player asks for help.

A refusal is a ``refusal`` row of the day's log, written when the event answers a submission
422 for an illegal list (``web/events``): the player's name as typed, the saved list, and each
problem by its place in the list. Only the organiser reads them (``GET /refusals``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from listbuilder.store.rounds import Day

MAX_PROBLEMS = 50  # a refusal names at most this many problems: enough to help, never a large row


def refusal_record(player: str, list_id: str, errors: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """What the log keeps of a refused submission."""
    problems = [f"{where}: {message}" for where, messages in errors.items() for message in messages]
    return {
        "player": player,
        "list_id": list_id,
        "problems": problems[:MAX_PROBLEMS],
        "more": len(problems) > MAX_PROBLEMS,
    }


def refusals(day: Day) -> list[dict[str, Any]]:
    """Every refused submission, newest first."""
    return [
        {"player": e.data["player"], "list_id": e.data["list_id"], "problems": list(e.data["problems"]), "at": e.at}
        for e in reversed(day.log)
        if e.kind == "refusal"
    ]

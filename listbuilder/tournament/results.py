"""A table's result as it is entered: a player enters it, the opponent confirms, the organiser decides.

Every step is kept (the store only adds rows); what counts is worked out from all of them
(:func:`settle`), in the order they were written:

- ``entry``: a player's result, waiting for their opponent. A player may enter again while
  theirs waits (the new one replaces it); an opponent who enters the same result confirms it.
- ``confirmation``: the opponent agrees with the waiting entry; it counts from then on.
- ``override``: the organiser's result; it counts whatever came before, and after it the
  players can change nothing.

:func:`next_step` says which of these a request is, or refuses it (:class:`ResultRefused`),
against the steps already written. The store runs it with the event locked, so two players
entering at once, or a confirmation racing an override, are decided one after the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ENTRY, CONFIRMATION, OVERRIDE = "entry", "confirmation", "override"


class ResultRefused(ValueError):
    """The step cannot be taken now (a 409: the message says what to do instead)."""


@dataclass(frozen=True)
class Step:
    seq: int
    kind: str
    by: str
    result: Mapping[str, Any]


@dataclass(frozen=True)
class TableResult:
    """What counts at a table (``final``) and what waits for the opponent (``pending``)."""

    final: Step | None = None
    pending: Step | None = None
    confirmed_by: str | None = None

    @property
    def decided_by_organiser(self) -> bool:
        return self.final is not None and self.final.kind == OVERRIDE


def settle(steps: Sequence[Step]) -> TableResult:
    """The table's state after *steps*, oldest first."""
    state = TableResult()
    for step in steps:
        if step.kind == OVERRIDE:
            state = TableResult(final=step)
        elif step.kind == ENTRY:
            state = TableResult(final=state.final, pending=step)
        elif step.kind == CONFIRMATION and state.pending is not None:
            state = TableResult(final=state.pending, confirmed_by=step.by)
    return state


def next_step(
    state: TableResult, *, organiser: bool, player: str | None, result: Mapping[str, Any] | None
) -> tuple[str, Mapping[str, Any]]:
    """The kind of step a request makes and the result it records. *result* None asks to
    confirm what the opponent entered. Raises ResultRefused."""
    if organiser:
        if result is None:
            if state.pending is None:
                raise ResultRefused("nothing waits for confirmation at this table: enter the result")
            return OVERRIDE, state.pending.result
        return OVERRIDE, result
    if state.decided_by_organiser:
        raise ResultRefused("the organiser decided this table's result; ask the organiser to change it")
    if state.final is not None:
        raise ResultRefused("this table's result is confirmed; ask the organiser to change it")
    waiting = state.pending
    if result is None:
        if waiting is None or waiting.by == player:
            raise ResultRefused("there is no result from your opponent to confirm")
        return CONFIRMATION, waiting.result
    if waiting is not None and waiting.by != player:
        if dict(waiting.result) == dict(result):
            return CONFIRMATION, waiting.result
        raise ResultRefused("your opponent entered a different result: confirm theirs, or ask the organiser to decide")
    return ENTRY, result

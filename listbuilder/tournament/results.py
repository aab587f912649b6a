"""A table's result as it is entered: a player enters it, the opponent confirms, the organiser decides.

Every step is kept (the store only adds rows); what counts is worked out from all of them
(:func:`settle`), in the order they were written:

- ``entry``: a player's result, waiting for their opponent. A player may enter again while
  theirs waits (the new one replaces it); an opponent who enters the same result confirms it.
- ``confirmation``: the opponent agrees with the waiting entry; it counts from then on.
- ``dispute``: the opponent enters a result that contradicts the waiting entry. Both stay
  on record and the table is disputed: nothing counts until either player confirms the
  other's entry (or enters the same), or the organiser decides with an override. Either
  player may enter again meanwhile (theirs is replaced; the table stays disputed).
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

ENTRY, CONFIRMATION, DISPUTE, OVERRIDE = "entry", "confirmation", "dispute", "override"


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
    """What counts at a table (``final``), what waits for the opponent (``pending``) and, when
    the opponent contradicted it, their entry (``disputed``)."""

    final: Step | None = None
    pending: Step | None = None
    confirmed_by: str | None = None
    disputed: Step | None = None

    def entry_of_other(self, player: str | None) -> Step | None:
        """The waiting entry that is not *player*'s (in a dispute: the opponent's), or None."""
        return next((s for s in (self.pending, self.disputed) if s is not None and s.by != player), None)

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
        elif step.kind == DISPUTE and state.pending is not None:
            # the step replaces its own author's entry of the two
            if step.by == state.pending.by:
                state = TableResult(final=state.final, pending=step, disputed=state.disputed)
            else:
                state = TableResult(final=state.final, pending=state.pending, disputed=step)
        elif step.kind == CONFIRMATION and (agreed := state.entry_of_other(step.by)) is not None:
            state = TableResult(final=agreed, confirmed_by=step.by)
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
            if state.disputed is not None:
                raise ResultRefused("the players entered different results: enter the one that counts")
            return OVERRIDE, state.pending.result
        return OVERRIDE, result
    if state.decided_by_organiser:
        raise ResultRefused("the organiser decided this table's result; ask the organiser to change it")
    if state.final is not None:
        raise ResultRefused("this table's result is confirmed; ask the organiser to change it")
    theirs = state.entry_of_other(player)
    if result is None:
        if theirs is None:
            raise ResultRefused("there is no result from your opponent to confirm")
        return CONFIRMATION, theirs.result
    if theirs is not None:
        if dict(theirs.result) == dict(result):
            return CONFIRMATION, theirs.result
        # a contradiction is kept, not refused: the organiser sees both entries and decides
        return DISPUTE, result
    return ENTRY, result

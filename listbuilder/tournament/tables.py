"""Which table each game of a paired round is played at, when the organiser fixes some
players to a table (a wheelchair user at the step-free table, a player who runs a stall at
the table beside it).

The pairing (``pairing``) decides who plays whom and numbers its games top boards first; this
renumbers them so that a game with a fixed player is at that player's table, and every other
game takes the lowest table still free, in the pairing's order (top boards first, as before).
A bye is no table anyone sits at: it keeps the number after the highest table.

When both players of a game are fixed to different tables, the game is played at the lower
of the two numbers (the higher one is free that round): a rule anyone can check, and one that
never depends on who is first in the pairing. When two games want one table (the organiser
fixed two players to it who do not meet), the higher board of the two takes it and the other
game takes a free table. Nothing is refused (a round is always seated); :func:`fixed_notes`
says in words where a fixed player is not at their table, for the round's answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from listbuilder.tournament.pairing import Table


def seat_fixed(tables: Sequence[Table], fixed: Mapping[str, int]) -> list[Table]:
    """*tables* (the pairing's, top boards first, a bye last) renumbered so that each player of
    *fixed* (player -> table number) sits at their table; see the module's doc. In table order."""
    games = [t for t in tables if t.players[1] is not None]
    byes = [t for t in tables if t.players[1] is None]
    taken: dict[int, int] = {}  # table number -> the game (its index in games) seated there
    for i, game in enumerate(games):
        free = sorted({fixed[p] for p in game.players if p is not None and p in fixed} - set(taken))
        if free:
            taken[free[0]] = i
    numbers = iter(n for n in range(1, len(games) + len(taken) + 1) if n not in taken)
    at = {i: n for n, i in taken.items()}
    seated = [Table(at[i] if i in at else next(numbers), game.players) for i, game in enumerate(games)]
    last = max((t.number for t in seated), default=0)
    seated += [Table(last + k, bye.players) for k, bye in enumerate(byes, start=1)]
    return sorted(seated, key=lambda t: t.number)


def fixed_notes(tables: Sequence[Table], fixed: Mapping[str, int]) -> list[str]:
    """Where *tables* as they stand (after swaps, or with the fixed tables changed since the
    round was paired) do not keep *fixed*, in words: each game of two players fixed to
    different tables, and each fixed player of a game who is not at their table; in table order."""
    notes = []
    for t in sorted(tables, key=lambda t: t.number):
        if t.players[1] is None:
            continue
        here = [p for p in t.players if p is not None and p in fixed]
        if len(here) == 2 and fixed[here[0]] != fixed[here[1]]:
            a, b = here
            notes.append(
                f"{a} (table {fixed[a]}) and {b} (table {fixed[b]}) are both fixed and play each other at table"
                f" {t.number}"
            )
        elif here and all(fixed[p] != t.number for p in here):
            notes.append(f"{here[0]} is fixed to table {fixed[here[0]]} but plays at table {t.number}")
    return notes

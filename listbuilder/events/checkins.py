"""Check-in before (and during) the day: who is in the room, the no-shows, and late arrivals.

A check-in is a ``checkin`` row of the day's log, made by the player (their token) or by the
organiser for them; checking in again changes nothing, so a retried request is harmless. The
organiser withdraws every player who has not checked in with one request (``no_show``: a
``withdraw`` row marked so); a player withdrawn that way who then checks in is back from the
next round (a ``reinstate`` row with the check-in), with nothing for the rounds they missed.
The organiser, checking a late arrival in, chooses how the rounds they missed count: nothing
(``missed: "none"``, the default) or a loss each (``"loss"``: in their record, 0 points). A
player the organiser withdrew for another reason stays withdrawn when they check in.
"""

from __future__ import annotations

from collections.abc import Sequence

from listbuilder.events.organiser import organiser_only
from listbuilder.events.rounds import Player, find_player, names, players
from listbuilder.store.errors import TokenWrong
from listbuilder.store.rounds import AddLog, Change, Day, Plan


def checked_in(day: Day) -> set[str]:
    """The keys of the players who have checked in."""
    key_of = names(day).key_of
    return {str(key_of(e.data["player"])) for e in day.log if e.kind == "checkin"}


def withdrawn_as_no_show(day: Day) -> set[str]:
    """The keys of the players whose latest withdrawal was the organiser's no-show sweep, still withdrawn."""
    key_of, found = names(day).key_of, {}
    for entry in day.log:
        if entry.kind in ("withdraw", "reinstate"):
            found[key_of(entry.data["player"])] = entry.kind == "withdraw" and bool(entry.data.get("no_show"))
    return {str(key) for key, swept in found.items() if swept}


def plan_checkin(name: str, missed: str = "none") -> Plan:
    """Check *name* in: the organiser, or that player with their own token. A late arrival
    withdrawn as a no-show is reinstated with it; the rounds they missed count nothing, or (the
    organiser's choice, *missed* "loss") a loss each."""

    def plan(day: Day) -> Sequence[Change]:
        player = find_player(day, name)
        caller = day.caller
        if not caller.organiser and (caller.player is None or names(day).key_of(caller.player) != player.key):
            raise TokenWrong(day.event.id, "a player checks in themselves only (or the organiser checks them in)")
        if missed != "none" and not caller.organiser:
            raise TokenWrong(day.event.id, "only the organiser chooses how the rounds a late arrival missed count")
        if player.key in checked_in(day):
            return []
        changes: list[Change] = [AddLog("checkin", {"player": player.name, "after_round": len(day.rounds)})]
        if player.withdrawn and player.key in withdrawn_as_no_show(day):
            late = {"player": player.name, "after_round": len(day.rounds), "late": True, "missed": missed}
            changes.append(AddLog("reinstate", late))
        return changes

    return plan


def plan_no_shows() -> Plan:
    """Withdraw every player still in who has not checked in (the organiser, before a round)."""

    def plan(day: Day) -> Sequence[Change]:
        organiser_only(day, "withdraw the no-shows")
        here = checked_in(day)
        return [
            AddLog("withdraw", {"player": p.name, "after_round": len(day.rounds), "no_show": True})
            for p in players(day)
            if not p.withdrawn and p.key not in here
        ]

    return plan


def roll_call(day: Day) -> list[dict[str, object]]:
    """Every player with whether they have checked in, whether they play on, and whether they
    are out as a no-show (a late arrival to check in)."""
    here, swept = checked_in(day), withdrawn_as_no_show(day)
    return [_called(p, p.key in here, p.key in swept) for p in players(day)]


def _called(player: Player, here: bool, no_show: bool) -> dict[str, object]:
    return {"player": player.name, "checked_in": here, "withdrawn": player.withdrawn, "no_show": no_show}

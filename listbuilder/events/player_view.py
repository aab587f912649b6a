"""One player's view of the day, for their own page: their entry, check-in, this round's table
and opponent, and what waits for them there.

Read with the player's token (``Day.caller``); nothing here is another player's secret: the
opponent's locked list is what the table sees anyway (its verification code, its units to
tick as destroyed or crippled, and a read-only link to it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from listbuilder.events.checkins import checked_in
from listbuilder.events.rounds import Player, find_player, players, round_body, tables
from listbuilder.lists.diff import format_cost
from listbuilder.model import Cost
from listbuilder.store.errors import TokenMissing, TokenWrong
from listbuilder.store.lists import SavedVersion
from listbuilder.store.rounds import Day
from listbuilder.validation import ERROR

UnitNames = Callable[[str, str], str]  # (book, unit id) -> the unit's name


def me(day: Day) -> Player:
    """The player whose token was sent. Raises TokenMissing (401), TokenWrong (403: the organiser's)."""
    if day.caller.player is None:
        if day.caller.organiser:
            raise TokenWrong(day.event.id, "this page is a player's: open it with your player token")
        raise TokenMissing(day.event.id, "send your player token (Authorization: Bearer <token>)")
    return find_player(day, day.caller.player)


def entry_body(day: Day, player: Player) -> dict[str, Any]:
    """A player's entry as their page shows it: list, points, legality, code, problems."""
    s = player.submission
    report = s.report
    problems = [f"{i['message']}" for i in report.get("issues", ()) if i.get("severity") == ERROR]
    return {
        "number": s.number,
        "list_id": s.list_id,
        "list_version": s.list_version,
        "book": day.book_of(s),
        "points": format_cost(Cost.total(Cost(e["cost"]) for e in report.get("entries", {}).values())),
        "valid": s.valid,
        "verification_code": s.verification_code,
        "problems": problems,
    }


def current_table(
    day: Day, player: Player, scoring: str, lists: Mapping[str, SavedVersion], unit_name: UnitNames
) -> dict[str, Any] | None:
    """The player's table of the latest round (None: no round yet, or not seated in it), with
    the opponent's locked list (*lists*: locked lists by player name, the opponent's among them)."""
    if not day.rounds:
        return None
    number = len(day.rounds)
    seat = next(((n, a, b) for n, a, b in tables(day, number) if player.name in (a, b)), None)
    if seat is None:
        return None
    n, a, b = seat
    item = next(p for p in round_body(day, number, scoring)["pairings"] if p["table"] == n)
    opponent = b if a == player.name else a
    found: dict[str, Any] = {"round": number, **item, "opponent": opponent, "opponent_list": None}
    if opponent is not None and opponent in lists:
        other = next(p for p in players(day) if p.name == opponent)
        book = day.book_of(other.submission)
        found["opponent_list"] = {
            **{k: v for k, v in entry_body(day, other).items() if k != "problems"},
            "units": units(lists[opponent], book, unit_name),
        }
    return found


def units(version: SavedVersion, book: str, unit_name: UnitNames) -> list[dict[str, str]]:
    """A locked list's units, by key and name, for ticking destroyed or crippled."""
    return [{"key": u["key"], "name": u.get("name") or unit_name(book, u["unit"])} for u in version.document["units"]]


def opponent(day: Day, player: Player) -> Player | None:
    """The player's opponent in the latest round (None: no round, not seated, or a bye)."""
    if not day.rounds:
        return None
    seat = next(((a, b) for _, a, b in tables(day, len(day.rounds)) if player.name in (a, b)), None)
    if seat is None or seat[1] is None:
        return None
    return find_player(day, seat[1] if seat[0] == player.name else seat[0])


def player_body(day: Day, scoring: str, lists: Mapping[str, SavedVersion], unit_name: UnitNames) -> dict[str, Any]:
    """Everything the player's page shows but the standings (see ``web/day_api``)."""
    player = me(day)
    return {
        "player": player.name,
        "entry": {
            **entry_body(day, player),
            "units": units(lists[player.name], day.book_of(player.submission), unit_name)
            if player.name in lists
            else [],
        },
        "checked_in": player.key in checked_in(day),
        "withdrawn": player.withdrawn,
        "rounds": len(day.rounds),
        "table": current_table(day, player, scoring, lists, unit_name),
    }

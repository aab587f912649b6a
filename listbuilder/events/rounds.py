"""An event's tournament day: who plays, the rounds' tables, what the results are worth, the standings.

The edge between the day's records (``store/rounds.py``), the submitted lists and the
tournament core (``listbuilder/tournament``), as ``submissions.py`` is for submissions: no SQL and
no Flask here. Reading functions take a :class:`~listbuilder.store.rounds.Day` and derive
everything from its rows; the ``plan_*`` functions return plans the store runs with the event
locked (each plan checks the day as it stands then, and refuses by raising).

Errors: :class:`~listbuilder.lists.documents.ListError` (422: a body that does not fit the day, naming
the field), the store's DayConflict (409), RoundNotFound (404) and TokenWrong (403: only the
organiser may, or only a player of that table).

**One identity per player** (issue 35). The day knows a player by their key: the folded name
(``store.events.player_key``) of their first submission, stored with every submission of
theirs. The name shown is the spelling of that first submission, or the latest name the
organiser gave them (a ``rename`` in the log). Every name the day stored or is sent (tables,
result rows and their bodies, confirmations, withdrawals, swaps, clubs, seed orders) is read
through :func:`names`: any spelling of the key, or of a name the player was shown under, is
that player, and it is shown as their name now. So a resubmission under ``"cid"`` or a
rename changes no table, result or standing, and a token never acts as another spelling of
its own player.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from listbuilder.events.submissions import latest_submissions
from listbuilder.lists.documents import ListError
from listbuilder.store.errors import DayConflict, RoundNotFound, TokenWrong
from listbuilder.store.events import Submission, player_key
from listbuilder.store.rounds import ORGANISER, AddLog, AddResult, AddRound, Change, Day, Plan, ResultEntry
from listbuilder.tournament.pairing import Entrant, Options, PairingError, Table, pair_first_round, pair_round
from listbuilder.tournament.results import ResultRefused, Step, TableResult, next_step, settle
from listbuilder.tournament.scoring import (
    GameScore,
    Losses,
    ScoringError,
    armour_hex_bye,
    armour_hex_result,
    opr_result,
)
from listbuilder.tournament.standings import DEFAULT_TIEBREAKERS, Game, Standing, standings
from listbuilder.tournament.tables import fixed_notes, seat_fixed
from listbuilder.util.words import counted

DAY_DEFAULTS: Mapping[str, Any] = {
    "tiebreakers": list(DEFAULT_TIEBREAKERS),
    "avoid_same_club": False,
    "avoid_same_faction_first_round": False,
    "clubs": {},
    "lists_after_start": False,
    "fixed_tables": {},  # player key -> table number (events/admin.py stores keys, never spellings)
    "table_names": {},  # table number (a string, as JSON keys are) -> its name
}
VICTORY_POINTS = "victory-points"


# --------------------------------------------------------------------------------------------
# Reading the day


@dataclass(frozen=True)
class Names:
    """Who is who: each player's name shown, by key, and every spelling that names them."""

    shown: Mapping[str, str]  # key -> the name shown
    keys: Mapping[str, str]  # folded: the key itself and every name shown since -> key
    seen: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)  # key_of's answers

    def key_of(self, name: str) -> str | None:
        """The key of the player *name* names (any spelling), or None."""
        if name not in self.seen:  # the standings and pairings ask for each name many times
            self.seen[name] = self.keys.get(player_key(name))
        return self.seen[name]

    def show(self, name: str) -> str:
        """*name* as the player is shown now (a name no player has: as it is)."""
        key = self.key_of(name)
        return self.shown[key] if key is not None else name


def names(day: Day) -> Names:
    """The day's players by key (computed once per Day): first spellings, then renames in order."""
    if "names" not in day.derived:
        shown: dict[str, str] = {}
        for s in day.submissions:
            shown.setdefault(s.player_key, s.player)
        keys = {key: key for key in shown}
        for entry in day.log:
            if entry.kind == "rename" and entry.data["player"] in shown:
                shown[entry.data["player"]] = entry.data["after"]
                keys.setdefault(player_key(entry.data["after"]), entry.data["player"])
        day.derived["names"] = Names(shown, keys)
    found: Names = day.derived["names"]
    return found


def _shown(found: Names, result: Mapping[str, Any]) -> dict[str, Any]:
    """A stored result body with its players (the keys of each part) named as shown now."""
    return {
        part: {found.show(name): value for name, value in by_player.items()}
        if isinstance(by_player, Mapping)
        else by_player
        for part, by_player in result.items()
    }


@dataclass(frozen=True)
class Player:
    """A player of the event: their name shown, their newest submission, whether they still play, their key."""

    name: str
    submission: Submission
    withdrawn: bool
    key: str


def _whole(day: Day) -> None:
    """Refuse a day read for one table where every player's rows are needed (a bug, not a request)."""
    if day.table is not None:
        raise AssertionError(f"this needs the whole day, not one table's (round, table {day.table})")


def day_settings(day: Day) -> dict[str, Any]:
    """The day's settings: the defaults, then each of the organiser's edits in turn (computed
    once per Day: every table of a round asks for its name)."""
    if "settings" not in day.derived:
        found = dict(DAY_DEFAULTS)
        for entry in day.log:
            if entry.kind == "settings":
                found.update(entry.data.get("after", {}).get("day", {}))
        day.derived["settings"] = found
    settings: dict[str, Any] = day.derived["settings"]
    return settings


def fixed_tables(day: Day) -> dict[str, int]:
    """The organiser's fixed tables by the name each player is shown under now (a player who
    has not submitted yet is left out: they sit nowhere)."""
    shown = names(day).shown
    return {shown[key]: table for key, table in day_settings(day)["fixed_tables"].items() if key in shown}


def table_name(day: Day, table: int) -> str | None:
    """The name the organiser gave table *table*, or None."""
    found: str | None = day_settings(day)["table_names"].get(str(table))
    return found


def players(day: Day) -> list[Player]:
    """Every player who submitted, in the order they first did, with their withdrawals applied."""
    found = names(day)
    withdrawn: set[str | None] = set()
    for entry in day.log:
        if entry.kind in ("withdraw", "reinstate"):
            key = found.key_of(entry.data["player"])
            (withdrawn.add if entry.kind == "withdraw" else withdrawn.discard)(key)
    return [
        Player(found.shown[s.player_key], s, s.player_key in withdrawn, s.player_key)
        for s, _ in latest_submissions(day.submissions)
    ]


def find_player(day: Day, name: str, field: str = "player") -> Player:
    """The player called *name* (case and spacing aside; any name they were shown under). Raises ListError (422)."""
    key = names(day).key_of(name)
    found = next((p for p in players(day) if p.key == key), None)
    if found is None:
        raise ListError(
            "unknown_player", f"no player {name!r} submitted a list to this event", {field: ["unknown player"]}
        )
    return found


def tables(day: Day, number: int) -> list[tuple[int, str, str | None]]:
    """Round *number*'s tables as they stand: as paired, then each logged swap applied; players
    as they are shown now."""
    paired = next((r for r in day.rounds if r.number == number), None)
    if paired is None:
        raise RoundNotFound(day.event.id, f"round {number} has not started (rounds so far: {len(day.rounds)})")
    found = names(day)
    as_paired = [(n, found.show(a), None if b is None else found.show(b)) for n, a, b in paired.tables]
    seats = as_paired
    for entry in day.log:
        if entry.kind == "undo_round" and entry.data["round"] == number:
            seats = as_paired  # the swaps logged before were of the round undone (events/round_undo.py)
        if entry.kind == "swap" and entry.data["round"] == number:
            first, second = (found.show(p) for p in entry.data["players"])
            swapped = {first: second, second: first}
            seats = [(n, swapped.get(a, a), None if b is None else swapped.get(b, b)) for n, a, b in seats]
    return seats


def table_result(day: Day, number: int, table: int) -> TableResult:
    found = names(day)
    return settle([_step(found, r) for r in day.results_by_table.get((number, table), ())])


def _step(found: Names, entry: ResultEntry) -> Step:
    """A result row as the rules read it: who entered it and the players of its body as shown
    now, so that two spellings of one player are one player (never their own opponent)."""
    by = entry.by if entry.by == ORGANISER else found.show(entry.by)
    return Step(entry.seq, entry.kind, by, _shown(found, entry.result))


def round_complete(day: Day, number: int) -> list[int]:
    """The tables of round *number* still without a result (empty: the round is complete)."""
    _whole(day)
    return [n for n, _, b in tables(day, number) if b is not None and table_result(day, number, n).final is None]


# --------------------------------------------------------------------------------------------
# Scores and standings


def unit_costs(player: Player) -> dict[str, Mapping[str, float]]:
    """Each unit of the player's locked list with its cost, as checked when it was submitted."""
    return {key: entry["cost"] for key, entry in player.submission.report.get("entries", {}).items()}


def scores(
    scoring: str, day: Day, seat: tuple[str, str], result: Mapping[str, Any], lists: Mapping[str, Player] | None = None
) -> dict[str, GameScore]:
    """What *result* gives each player at *seat* (*lists*: the players by key, when the caller
    scores many games). Raises ScoringError."""
    if scoring == VICTORY_POINTS:
        key_of = names(day).key_of
        costs = {name: unit_costs(lists[str(key_of(name))] if lists else find_player(day, name)) for name in seat}
        sides = {
            name: Losses(frozenset(side.get("destroyed", ())), frozenset(side.get("crippled", ())))
            for name, side in result["sides"].items()
        }
        return armour_hex_result(seat, costs, sides)
    return opr_result(seat, result["outcome"], result["secondary"])


def bye_score(scoring: str, day: Day, name: str) -> GameScore:
    if scoring == VICTORY_POINTS:
        return armour_hex_bye(unit_costs(find_player(day, name)))
    return GameScore(3, 0.0, "win")


def games(day: Day, scoring: str) -> list[Game]:
    """Every game with a result that counts, round by round (byes included)."""
    _whole(day)
    lists = {p.key: p for p in players(day)}
    found = []
    for paired in day.rounds:
        for n, a, b in tables(day, paired.number):
            if b is None:
                found.append(Game(paired.number, (a, None), {a: bye_score(scoring, day, a)}))
                continue
            final = table_result(day, paired.number, n).final
            if final is not None:
                found.append(Game(paired.number, (a, b), scores(scoring, day, (a, b), final.result, lists)))
    return found + missed_losses(day)


def missed_losses(day: Day) -> list[Game]:
    """A loss with no opponent for each round a late arrival missed, where the organiser chose
    so at their check-in (``events/checkins.py``); otherwise a missed round counts nothing."""
    show, found = names(day).show, []
    late = [e for e in day.log if e.kind == "reinstate" and e.data.get("missed") == "loss"]
    if late:
        seated = {(r.number, p) for r in day.rounds for _, a, b in tables(day, r.number) for p in (a, b) if p}
        for entry in late:
            name = show(entry.data["player"])
            for number in range(1, entry.data["after_round"] + 1):
                if (number, name) not in seated:
                    found.append(Game(number, (name, None), {name: GameScore(0, 0.0, "loss")}))
    return found


def ranked_players(day: Day) -> list[Player]:
    """The players the standings rank: every player, less those withdrawn before they were
    seated at any table (a game or a bye) of a round started; a withdrawn player who played
    stays, their games counting. A player reinstated before playing (a late arrival) is back."""
    _whole(day)
    key_of = names(day).key_of
    seated = {key_of(p) for paired in day.rounds for _, a, b in paired.tables for p in (a, b) if p is not None}
    return [p for p in players(day) if not p.withdrawn or p.key in seated]


def current_standings(day: Day, scoring: str) -> list[Standing]:
    return standings(
        [p.name for p in ranked_players(day)], games(day, scoring), day_settings(day)["tiebreakers"], adjusted(day)
    )


def adjusted(day: Day) -> dict[str, float]:
    """The organiser's adjustments (``events/adjustments.py``) summed per player, by the name shown."""
    found, total = names(day), {}
    for entry in day.log:
        if entry.kind == "adjustment":
            name = found.show(entry.data["player"])
            total[name] = total.get(name, 0.0) + float(entry.data["points"])
    return total


# --------------------------------------------------------------------------------------------
# Plans: what the store writes, decided with the event locked


def _organiser_only(day: Day) -> None:
    if not day.caller.organiser:
        raise TokenWrong(day.event.id, "only the organiser may do this: send the organiser token")


def plan_round(scoring: str, *, seed: int | None, seed_order: Sequence[str] | None) -> Plan:
    """Start the next round: every table of the last round has a result (else 409), then
    pair the players still in. Round 1 takes a *seed* (drawn when None) or a *seed_order*."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser_only(day)
        number = len(day.rounds) + 1
        if day.rounds and (open_tables := round_complete(day, number - 1)):
            raise DayConflict(
                day.event.id, f"round {number - 1} has tables without a result: {open_tables}", field="round"
            )
        if number > 1 and (seed is not None or seed_order is not None):
            raise ListError(
                "invalid_round",
                "seed and seed_order choose round 1 only; later rounds are paired by the standings",
                {"seed" if seed is not None else "seed_order": ["round 1 only"]},
            )
        entrants = _entrants(day, scoring)
        if len(entrants) < 2:
            raise DayConflict(
                day.event.id, f"{counted(len(entrants), 'player')} still in: a round needs two", field="players"
            )
        settings = day_settings(day)
        options = Options(bool(settings["avoid_same_club"]), bool(settings["avoid_same_faction_first_round"]))
        drawn = None
        try:
            if number == 1:
                order = _seed_keys(day, seed_order, entrants) if seed_order is not None else None
                drawn = seed if seed is not None or order is not None else secrets.randbelow(2**31)
                paired = pair_first_round(entrants, options=options, seed=drawn, seed_order=order)
            else:
                paired = pair_round(entrants, options=options)
        except PairingError as error:
            raise ListError("invalid_round", str(error), {"seed_order": [str(error)]}) from None
        paired = seat_fixed(paired, settings["fixed_tables"])
        shown = {p.key: p.name for p in players(day)}
        return [
            AddRound(
                number,
                drawn,
                [(t.number, shown[t.players[0]], shown[t.players[1]] if t.players[1] else None) for t in paired],
            )
        ]

    return plan


def _entrants(day: Day, scoring: str) -> list[Entrant]:
    """The players still in, in standings order, as the pairing sees them (keys, not names;
    their faction: the army book of their newest list)."""
    key_of = names(day).key_of
    clubs = {key_of(k) or player_key(k): v for k, v in day_settings(day)["clubs"].items()}
    still_in = {p.key for p in players(day) if not p.withdrawn}
    factions = {p.key: day.book_of(p.submission) for p in players(day)}
    found = []
    for s in current_standings(day, scoring):
        key = key_of(s.player)
        if key is not None and key in still_in:
            found.append(
                Entrant(
                    key,
                    s.score,
                    clubs.get(key),
                    factions.get(key),
                    s.byes > 0,
                    frozenset(str(key_of(o)) for o in s.opponents),
                )
            )
    return found


def _seed_keys(day: Day, seed_order: Sequence[str], entrants: Sequence[Entrant]) -> list[str]:
    keys = [find_player(day, name, "seed_order").key for name in seed_order]
    if sorted(keys) != sorted(e.key for e in entrants):
        raise ListError(
            "invalid_round",
            "seed_order must name every player still in exactly once",
            {"seed_order": ["not every player, or one twice"]},
        )
    return keys


def plan_result(scoring: str, number: int, table: int, body: Mapping[str, Any] | None) -> Plan:
    """Record a result at *table* (*body* None: confirm the opponent's). A player enters or
    confirms for their own table in the current round; the organiser overrides any table."""

    def plan(day: Day) -> Sequence[Change]:
        seat = _seat(day, number, table)
        caller, found = day.caller, names(day)
        me = None  # the calling player as shown: whatever spelling their token's submission has
        if not caller.organiser:
            if number != len(day.rounds):
                raise DayConflict(
                    day.event.id, f"round {number} is over: ask the organiser to change its results", field="round"
                )
            me = None if caller.player is None else found.show(caller.player)
            if me is None or me not in seat:
                raise TokenWrong(day.event.id, f"you do not play at table {table} of round {number}")
        result = None if body is None else canonical_result(scoring, day, seat, body)
        try:
            kind, recorded = next_step(
                table_result(day, number, table), organiser=caller.organiser, player=me, result=result
            )
        except ResultRefused as refused:
            raise DayConflict(day.event.id, str(refused), field="table") from None
        return [AddResult(number, table, kind, ORGANISER if caller.organiser else str(me), recorded)]

    return plan


def _seat(day: Day, number: int, table: int) -> tuple[str, str]:
    found = next(((a, b) for n, a, b in tables(day, number) if n == table), None)
    if found is None:
        raise RoundNotFound(day.event.id, f"round {number} has no table {table}")
    a, b = found
    if b is None:
        raise ListError(
            "invalid_result", f"table {table} is {a}'s bye: there is no game to report", {"table": ["a bye"]}
        )
    return a, b


def canonical_result(scoring: str, day: Day, seat: tuple[str, str], body: Mapping[str, Any]) -> dict[str, Any]:
    """*body* with players named as the table names them, checked by scoring it. Raises ListError."""
    key_of = names(day).key_of
    seated = {key_of(p): p for p in seat}

    def by_seat(given: Mapping[str, Any], field: str) -> dict[str, Any]:
        unknown = [k for k in given if key_of(k) not in seated]
        if unknown:
            raise ListError(
                "invalid_result",
                f"{unknown} do not play at this table ({list(seat)})",
                {field: [f"players at this table: {list(seat)}"]},
            )
        return {seated[key_of(k)]: v for k, v in given.items()}

    if scoring == VICTORY_POINTS:
        if "sides" not in body:
            raise ListError(
                "invalid_result",
                "an armour-hex result gives each side's destroyed and crippled enemy units",
                {"sides": ["required"]},
            )
        result = {
            "sides": {
                p: {"destroyed": sorted(set(s.get("destroyed", []))), "crippled": sorted(set(s.get("crippled", [])))}
                for p, s in by_seat(body["sides"], "sides").items()
            }
        }
    else:
        if "outcome" not in body:
            raise ListError(
                "invalid_result", "give each player's outcome (win, draw or loss)", {"outcome": ["required"]}
            )
        secondary = body.get("secondary") or dict.fromkeys(seat, 0)
        result = {"outcome": by_seat(body["outcome"], "outcome"), "secondary": by_seat(secondary, "secondary")}
    try:
        scores(scoring, day, seat, result)
    except ScoringError as error:
        raise ListError("invalid_result", error.message, {error.field: [error.message]}) from None
    return result


def plan_swap(number: int, first: str, second: str) -> Plan:
    """Swap two players of the current round between their tables, before either table has a result."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser_only(day)
        if number != len(day.rounds):
            raise DayConflict(
                day.event.id, f"only the current round ({len(day.rounds)}) can change its tables", field="round"
            )
        a, b = find_player(day, first, "players[0]"), find_player(day, second, "players[1]")
        key_of = names(day).key_of
        seats = {key_of(p): n for n, *pair in tables(day, number) for p in pair if p is not None}
        for i, p in enumerate((a, b)):
            if p.key not in seats:
                raise ListError(
                    "invalid_swap",
                    f"{p.name} does not play in round {number}",
                    {f"players[{i}]": ["not in this round"]},
                )
        if seats[a.key] == seats[b.key]:
            raise ListError(
                "invalid_swap", f"{a.name} and {b.name} already play each other", {"players": ["same table"]}
            )
        played = sorted({seats[a.key], seats[b.key]} & {r.table for r in day.results if r.round == number})
        if played:
            raise DayConflict(
                day.event.id, f"table(s) {played} have results already: their games have started", field="players"
            )
        return [AddLog("swap", {"round": number, "players": [a.name, b.name]})]

    return plan


def plan_withdrawal(name: str, *, withdraw: bool) -> Plan:
    """Withdraw a player from the rounds still to come (their games so far stay), or reinstate them."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser_only(day)
        player = find_player(day, name)
        if player.withdrawn == withdraw:
            raise DayConflict(
                day.event.id, f"{player.name} is {'already withdrawn' if withdraw else 'playing'}", field="player"
            )
        return [
            AddLog("withdraw" if withdraw else "reinstate", {"player": player.name, "after_round": len(day.rounds)})
        ]

    return plan


def round_body(day: Day, number: int, scoring: str) -> dict[str, Any]:
    """A round as the API shows it: the issue's ``pairings`` and, per table, where its result stands."""
    _whole(day)
    seats = tables(day, number)
    pairings = [table_body(day, number, seat, scoring) for seat in seats]
    started = next(r for r in day.rounds if r.number == number)
    return {
        "number": number,
        "pairings": pairings,
        "notes": fixed_notes([Table(n, (a, b)) for n, a, b in seats], fixed_tables(day)),
        "complete": not round_complete(day, number),
        "seed": started.seed,
        "started_at": started.started_at,
    }


def table_body(day: Day, number: int, seat: tuple[int, str, str | None], scoring: str) -> dict[str, Any]:
    """One table of round *number* (*seat*: table, player, opponent) as the API shows it: who
    plays, where its result stands, what it scores. A day read for that table is enough."""
    n, a, b = seat
    item: dict[str, Any] = {"table": n, "table_name": table_name(day, n), "players": [a, b]}
    if b is None:
        item.update(status="bye", result=None, scores=None)
    else:
        state = table_result(day, number, n)
        counted = state.final
        item["status"] = (
            "decided"
            if state.decided_by_organiser
            else "confirmed"
            if counted
            else "disputed"
            if state.disputed
            else "waiting"
            if state.pending
            else "open"
        )
        shown = counted or (None if state.disputed else state.pending)
        item["result"] = dict(shown.result) if shown else None
        item["entered_by"] = state.pending.by if state.pending else None
        if state.disputed and state.pending:  # both entries, for the organiser to choose from
            item["entries"] = [{"by": s.by, "result": dict(s.result)} for s in (state.pending, state.disputed)]
        item["scores"] = (
            {p: _score_dict(s) for p, s in scores(scoring, day, (a, b), counted.result).items()} if counted else None
        )
    return item


def _score_dict(score: GameScore) -> dict[str, Any]:
    return {"points": round(score.points, 3), "secondary": score.secondary, "outcome": score.outcome}


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)

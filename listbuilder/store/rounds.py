"""The tournament day's records: rounds and their tables, results as entered, the organiser's log.

Tables::

    event_rounds    (event_id, number) -> seed (round 1 drawn at random), started_at
    event_tables    (event_id, round, number) -> player_a, player_b (NULL: a bye), as paired
    event_results   (event_id, round, seq) -> table_number, kind (entry | confirmation |
                    override), entered_by (a player's name, or "organiser"), result (JSON,
                    as given), entered_at
    event_log       (event_id, seq) -> kind (settings | withdraw | reinstate | swap | rename |
                    undo_submission | delete), data (JSON), logged_at

Rows are only ever added: a changed result is a new row, a swap is a log row applied to the
tables as paired, and the standings are recomputed from all of it (``listbuilder/events/rounds.py``).
The one removal: the organiser's undo of the last round while it has no result row, which
deletes its ``event_rounds`` and ``event_tables`` rows after logging them (``undo_round``).
The one thing written in place is the ``events`` row itself (name, deadline, settings before
round 1; ``deleted_at``), and each such change is logged with the values before and after;
and a submission the organiser undoes (before round 1) gets its ``undone_at``, logged with
what it was.

Every write is one transaction that locks the event's row (``FOR UPDATE`` on PostgreSQL; on
SQLite the write lock), reads the day as it stands, asks the caller's *plan* what to write
(the plan raises to refuse) and writes it. Two writers of one event take turns, so each sees
the other's rows: two players entering a table's result at once, or a confirmation racing the
organiser's override, end in one consistent order.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    column,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import table as sql_table
from sqlalchemy.engine import Connection

from listbuilder.store import handover, rendered
from listbuilder.store.database import Database, as_utc, metadata, utcnow
from listbuilder.store.errors import TokenMissing, TokenWrong
from listbuilder.store.events import (
    LIVE,
    Event,
    Submission,
    count_change,
    event_from_row,
    event_submissions,
    events,
    known_shape,
    live_row,
    player_key,
    submission_from_row,
)
from listbuilder.store.lists import list_versions
from listbuilder.store.tokens import hash_token, token_matches

ORGANISER = "organiser"
# The kept answers (``store/kept.py``, which reads days from here): only removed here.
_KEPT = sql_table("event_answers", column("event_id"))

event_rounds = Table(
    "event_rounds",
    metadata,
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("event_id", "number"),
)

event_tables = Table(
    "event_tables",
    metadata,
    Column("event_id", String(32), nullable=False),
    Column("round", Integer, nullable=False),
    Column("number", Integer, nullable=False),
    Column("player_a", String(100), nullable=False),
    Column("player_b", String(100), nullable=True),
    ForeignKeyConstraint(["event_id", "round"], ["event_rounds.event_id", "event_rounds.number"]),
    PrimaryKeyConstraint("event_id", "round", "number"),
)

event_results = Table(
    "event_results",
    metadata,
    Column("event_id", String(32), nullable=False),
    Column("round", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("table_number", Integer, nullable=False),
    Column("kind", String(20), nullable=False),
    Column("entered_by", String(100), nullable=False),
    Column("result", Text, nullable=False),
    Column("entered_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["event_id", "round"], ["event_rounds.event_id", "event_rounds.number"]),
    PrimaryKeyConstraint("event_id", "round", "seq"),
)

event_log = Table(
    "event_log",
    metadata,
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(20), nullable=False),
    Column("data", Text, nullable=False),
    Column("logged_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("event_id", "seq"),
)


@dataclass(frozen=True)
class Caller:
    """Who sent the request: the organiser, a player (their name as submitted), or nobody."""

    organiser: bool = False
    player: str | None = None


@dataclass(frozen=True)
class LogEntry:
    seq: int
    kind: str
    data: Mapping[str, Any]
    at: dt.datetime


@dataclass(frozen=True)
class PairedRound:
    """A round as it was paired: (table, player, opponent or None) in table order."""

    number: int
    seed: int | None
    started_at: dt.datetime
    tables: tuple[tuple[int, str, str | None], ...]


@dataclass(frozen=True)
class ResultEntry:
    round: int
    seq: int
    table: int
    kind: str
    by: str
    result: Mapping[str, Any]
    at: dt.datetime


@dataclass(frozen=True)
class Day:
    """Everything recorded about an event's day, read in one transaction.

    A day read for one *table* (round, number) holds only what that table's result needs: the
    rounds (the table's own pairing alone), the swaps and renames of the log, that table's
    results and the submissions of its players and the caller, and no army books. Readers that
    need every player (standings, pairings) refuse it (``events/rounds.py``).
    """

    event: Event
    submissions: tuple[Submission, ...]
    rounds: tuple[PairedRound, ...]
    results: tuple[ResultEntry, ...]
    log: tuple[LogEntry, ...]
    caller: Caller = field(default_factory=Caller)
    books: Mapping[int, str] = field(default_factory=dict)  # submission number -> its list's army book
    table: tuple[int, int] | None = None  # read for this table (round, number) only; None: the whole day
    changes: int = 0  # the event's count of changes when read (``store/kept.py``)
    # what the day's readers derive from these rows, computed once per Day (events/rounds.py)
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def book_of(self, submission: Submission) -> str:
        return self.books.get(submission.number, "")

    @cached_property
    def results_by_table(self) -> Mapping[tuple[int, int], tuple[ResultEntry, ...]]:
        """Each table's result rows, oldest first, by (round, table): the standings look every
        table up, and a scan of all results per table grows with the square of the field."""
        found: dict[tuple[int, int], list[ResultEntry]] = {}
        for entry in self.results:
            found.setdefault((entry.round, entry.table), []).append(entry)
        return {key: tuple(rows) for key, rows in found.items()}


# What a plan asks to write.


@dataclass(frozen=True)
class AddLog:
    kind: str
    data: Mapping[str, Any]


@dataclass(frozen=True)
class AddRound:
    number: int
    seed: int | None
    tables: Sequence[tuple[int, str, str | None]]


@dataclass(frozen=True)
class AddResult:
    round: int
    table: int
    kind: str
    by: str
    result: Mapping[str, Any]


@dataclass(frozen=True)
class UpdateEvent:
    """New values for the event's own row (name, deadline, settings, allow_illegal, deleted_at)."""

    values: Mapping[str, Any]


@dataclass(frozen=True)
class UndoSubmission:
    """Mark submission *number* undone (the organiser, before round 1): it counts nowhere after."""

    number: int


@dataclass(frozen=True)
class DeleteRound:
    """Remove round *number* and its tables (the organiser's undo: no result row names it)."""

    number: int


@dataclass(frozen=True)
class ForgetRendered:
    """Remove the event's rendered rosters and packs and its kept answers (it is being
    deleted: nothing prints or shows them again)."""


Change = AddLog | AddRound | AddResult | UpdateEvent | UndoSubmission | DeleteRound | ForgetRendered
Plan = Callable[[Day], Sequence[Change]]


def read_day(db: Database, event_id: str, token: str | None = None) -> Day:
    """The day as it stands; with a *token*, who holds it (a wrong token is TokenWrong).
    Raises EventNotFound, EventGone."""
    known_shape(event_id)
    with db.reading() as conn:
        return _load(conn, event_id, token, lock=False)


def load_day(conn: Connection, event_id: str) -> Day:
    """The day as it stands, read on *conn* (in the caller's transaction), for nobody in particular."""
    return _load(conn, event_id, None, lock=False)


def read_table(db: Database, event_id: str, table: tuple[int, int]) -> Day:
    """The day as one table (*table*: round, number) sees it: see :class:`Day`'s ``table``."""
    known_shape(event_id)
    with db.reading() as conn:
        return _load_table(conn, event_id, None, table, lock=False)


def change_day(
    db: Database, event_id: str, token: str | None, plan: Plan, *, table: tuple[int, int] | None = None
) -> Sequence[Change]:
    """Run *plan* on the day, with the event locked, and write what it returns; returns that.

    The plan sees the caller (organiser or player, from *token*) and refuses by raising. With
    *table* (round, number) it sees only that table's day (:class:`Day`'s ``table``): a result
    costs the same in an event of 16 players as in one of 500.
    Raises EventNotFound, EventGone, TokenMissing, TokenWrong and what the plan raises.
    """
    known_shape(event_id)
    if not token:
        raise TokenMissing(event_id, "this needs the organiser's or a player's token (Authorization: Bearer <token>)")
    with db.writing() as conn:
        if table is None:
            day = _load(conn, event_id, token, lock=True)
        else:
            day = _load_table(conn, event_id, token, table, lock=True)
        changes = plan(day)
        now = utcnow()
        for change in changes:
            _write(conn, event_id, change, now)
        if changes:
            count_change(conn, event_id)
    return changes


def _event_row(conn: Connection, event_id: str, *, lock: bool) -> Any:
    query = select(events).where(events.c.id == event_id)
    return live_row(conn.execute(query.with_for_update() if lock else query).first(), event_id)


def _load(conn: Connection, event_id: str, token: str | None, *, lock: bool) -> Day:
    row = _event_row(conn, event_id, lock=lock)
    where_event = lambda table: table.c.event_id == event_id  # noqa: E731 - one filter, five tables
    submissions = tuple(
        submission_from_row(r)
        for r in conn.execute(
            select(event_submissions).where(where_event(event_submissions), LIVE).order_by(event_submissions.c.number)
        )
    )
    caller = _caller(conn, event_id, token, row.token_hash)
    tables: dict[int, list[tuple[int, str, str | None]]] = {}
    for t in conn.execute(
        select(event_tables).where(where_event(event_tables)).order_by(event_tables.c.round, event_tables.c.number)
    ):
        tables.setdefault(t.round, []).append((t.number, t.player_a, t.player_b))
    rounds = _rounds(conn, event_id, tables)
    results = _results(conn, where_event(event_results))
    log = _log(conn, where_event(event_log))
    books = dict(
        conn.execute(
            select(event_submissions.c.number, list_versions.c.book_id)
            .join(
                list_versions,
                (list_versions.c.list_id == event_submissions.c.list_id)
                & (list_versions.c.number == event_submissions.c.list_version),
            )
            .where(where_event(event_submissions))
        ).all()
    )
    return Day(event_from_row(row), submissions, rounds, results, log, caller, books, changes=int(row.changes))


def _load_table(conn: Connection, event_id: str, token: str | None, table: tuple[int, int], *, lock: bool) -> Day:
    """The rows one table's result depends on, each read by its key: the event, its rounds,
    the table as paired, the swaps and renames, the settings (the table's name), that table's
    results, and the submissions of the players seated there or calling (and no army books)."""
    number, table_number = table
    row = _event_row(conn, event_id, lock=lock)
    caller = _caller(conn, event_id, token, row.token_hash)
    paired = conn.execute(
        select(event_tables).where(
            event_tables.c.event_id == event_id, event_tables.c.round == number, event_tables.c.number == table_number
        )
    ).first()
    seated = {} if paired is None else {number: [(paired.number, paired.player_a, paired.player_b)]}
    rounds = _rounds(conn, event_id, seated)
    log = _log(
        conn, (event_log.c.event_id == event_id) & event_log.c.kind.in_(("rename", "swap", "undo_round", "settings"))
    )
    # Whoever a swap of this round moves may sit here now; a rename's new spelling names its key.
    named = {p for t in seated.get(number, ()) for p in t[1:] if p is not None}
    named |= {p for e in log if e.kind == "swap" and e.data["round"] == number for p in e.data["players"]}
    renamed = {player_key(e.data["after"]): e.data["player"] for e in log if e.kind == "rename"}
    keys = {renamed.get(player_key(p), player_key(p)) for p in named}
    keys |= {player_key(caller.player)} if caller.player is not None else set()
    submissions = tuple(
        submission_from_row(r)
        for r in conn.execute(
            select(event_submissions)
            .where(event_submissions.c.event_id == event_id, event_submissions.c.player_key.in_(sorted(keys)), LIVE)
            .order_by(event_submissions.c.number)
        )
    )
    results = _results(
        conn,
        (event_results.c.event_id == event_id)
        & (event_results.c.round == number)
        & (event_results.c.table_number == table_number),
    )
    return Day(event_from_row(row), submissions, rounds, results, log, caller, table=table, changes=int(row.changes))


def _rounds(
    conn: Connection, event_id: str, tables: Mapping[int, Sequence[tuple[int, str, str | None]]]
) -> tuple[PairedRound, ...]:
    return tuple(
        PairedRound(r.number, r.seed, as_utc(r.started_at), tuple(tables.get(r.number, ())))
        for r in conn.execute(
            select(event_rounds).where(event_rounds.c.event_id == event_id).order_by(event_rounds.c.number)
        )
    )


def _results(conn: Connection, where: Any) -> tuple[ResultEntry, ...]:
    return tuple(
        ResultEntry(r.round, r.seq, r.table_number, r.kind, r.entered_by, json.loads(r.result), as_utc(r.entered_at))
        for r in conn.execute(select(event_results).where(where).order_by(event_results.c.round, event_results.c.seq))
    )


def _log(conn: Connection, where: Any) -> tuple[LogEntry, ...]:
    return tuple(
        LogEntry(r.seq, r.kind, json.loads(r.data), as_utc(r.logged_at))
        for r in conn.execute(select(event_log).where(where).order_by(event_log.c.seq))
    )


def record(db: Database, event_id: str, change: AddLog) -> None:
    """Add *change* to the log with the event locked, for no caller: a refused submission is
    recorded for the organiser by the request it refuses. Raises EventNotFound, EventGone."""
    known_shape(event_id)
    with db.writing() as conn:
        live_row(conn.execute(select(events).where(events.c.id == event_id).with_for_update()).first(), event_id)
        _write(conn, event_id, change, utcnow())


def _caller(conn: Connection, event_id: str, token: str | None, organiser_hash: str) -> Caller:
    """Who holds *token*: the organiser, or the player whose submissions carry its hash (one
    indexed lookup, however many players). None: nobody (a public read)."""
    if not token:
        return Caller()
    if token_matches(token, organiser_hash):
        return Caller(organiser=True)
    player = conn.scalar(
        select(event_submissions.c.player)
        .where(
            event_submissions.c.event_id == event_id,
            event_submissions.c.player_token_hash == hash_token(token),
            LIVE,
        )
        .order_by(event_submissions.c.number.desc())
        .limit(1)
    )
    if player is None:
        if handover.handed_over(conn, event_id, token):  # an organiser token handed to another device
            return Caller(organiser=True)
        raise TokenWrong(event_id, f"that is neither the organiser's token nor a player's token of event {event_id!r}")
    return Caller(player=player)


def _write(conn: Connection, event_id: str, change: Change, now: dt.datetime) -> None:
    if isinstance(change, AddLog):
        seq = (conn.scalar(select(func.max(event_log.c.seq)).where(event_log.c.event_id == event_id)) or 0) + 1
        conn.execute(
            insert(event_log).values(
                event_id=event_id,
                seq=seq,
                kind=change.kind,
                data=json.dumps(change.data, sort_keys=True, default=str),
                logged_at=now,
            )
        )
    elif isinstance(change, AddRound):
        conn.execute(
            insert(event_rounds).values(event_id=event_id, number=change.number, seed=change.seed, started_at=now)
        )
        if change.tables:
            conn.execute(
                insert(event_tables),
                [
                    {"event_id": event_id, "round": change.number, "number": n, "player_a": a, "player_b": b}
                    for n, a, b in change.tables
                ],
            )
    elif isinstance(change, AddResult):
        where = (event_results.c.event_id == event_id) & (event_results.c.round == change.round)
        seq = (conn.scalar(select(func.max(event_results.c.seq)).where(where)) or 0) + 1
        conn.execute(
            insert(event_results).values(
                event_id=event_id,
                round=change.round,
                seq=seq,
                table_number=change.table,
                kind=change.kind,
                entered_by=change.by,
                result=json.dumps(change.result, sort_keys=True),
                entered_at=now,
            )
        )
    elif isinstance(change, UndoSubmission):
        conn.execute(
            update(event_submissions)
            .where(event_submissions.c.event_id == event_id, event_submissions.c.number == change.number, LIVE)
            .values(undone_at=now)
        )
    elif isinstance(change, DeleteRound):
        conn.execute(
            delete(event_tables).where(event_tables.c.event_id == event_id, event_tables.c.round == change.number)
        )
        conn.execute(
            delete(event_rounds).where(event_rounds.c.event_id == event_id, event_rounds.c.number == change.number)
        )
    elif isinstance(change, ForgetRendered):
        rendered.forget_event(conn, event_id)
        conn.execute(delete(_KEPT).where(_KEPT.c.event_id == event_id))
    else:
        values = dict(change.values)
        if "settings" in values:
            values["settings"] = json.dumps(values["settings"], sort_keys=True)
        conn.execute(update(events).where(events.c.id == event_id).values(**values))

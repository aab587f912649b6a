"""Answers of an event's day computed at most once per change of the day, and kept: the
standings, and each round as the API shows it.

Table::

    event_answers   (event_id, part: "standings" | "round <n>") -> changes (the event's
                    ``changes`` the answer was computed at), code (a digest of the code that
                    computed it), body (JSON), computed_at

Every write to a day adds one to ``events.changes`` with the event's row locked
(``count_change``). A read compares the kept row's count with the event's: equal (and the
same code computed it: a new release computes again), the kept body is the answer; else the
day is read, the caller's *compute* makes the body and it is kept, unless a newer count was
kept meanwhile. The count is also the answer's version: a client holding it (an ETag) is
answered after one read of the event's row, before anything else.

A body computed from a day read at count *n* is kept under *n*, even when a write landed while
it was being computed: a read that sees the newer count never takes the older row. So a room
of phones asking for the standings, or for the round that has just been paired, costs one
computation per change, not one per phone.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Column, DateTime, ForeignKey, Integer, PrimaryKeyConstraint, String, Table, Text, select
from sqlalchemy.engine import Connection

from listbuilder.store.database import Database, as_utc, insert_or_merge, metadata, utcnow
from listbuilder.store.events import Event, event_from_row, events, known_shape, live_row
from listbuilder.store.rounds import Day, load_day

event_answers = Table(
    "event_answers",
    metadata,
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("part", String(40), nullable=False),
    Column("changes", Integer, nullable=False),
    Column("code", String(64), nullable=False),
    Column("body", Text, nullable=False),
    Column("computed_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("event_id", "part"),
)


def day_version(db: Database, event_id: str) -> tuple[int, dt.datetime]:
    """The event's count of changes (its answers' version) and its deadline, from three
    columns of its row. Raises EventNotFound, EventGone."""
    known_shape(event_id)
    with db.reading() as conn:
        query = select(events.c.changes, events.c.deadline, events.c.deleted_at).where(events.c.id == event_id)
        row = live_row(conn.execute(query).first(), event_id)
    return int(row.changes), as_utc(row.deadline)


def kept_answer(
    db: Database, event_id: str, part: str, code: str, compute: Callable[[Day], Mapping[str, Any]]
) -> tuple[Event, int, dict[str, Any]]:
    """The event, the day's count of changes and the *part*'s body: the body kept at this count
    by this *code*, else *compute* of the day read now (JSON-ready), then kept.
    Raises EventNotFound, EventGone and what *compute* raises."""
    known_shape(event_id)
    with db.reading() as conn:
        row = live_row(conn.execute(select(events).where(events.c.id == event_id)).first(), event_id)
        kept = conn.execute(
            select(event_answers.c.body).where(
                event_answers.c.event_id == event_id,
                event_answers.c.part == part,
                event_answers.c.changes == row.changes,
                event_answers.c.code == code,
            )
        ).scalar()
        if kept is not None:
            return event_from_row(row), int(row.changes), json.loads(kept)
        day = load_day(conn, event_id)
    body = dict(compute(day))
    with db.writing() as conn:
        _keep(conn, event_id, part, day.changes, code, json.dumps(body, sort_keys=True), utcnow())
    return day.event, day.changes, body


def _keep(conn: Connection, event_id: str, part: str, changes: int, code: str, body: str, now: dt.datetime) -> None:
    """Keep *body* as *part* at *changes* by *code*, unless a later count is kept already
    (one statement: two readers keeping at once cannot interleave)."""
    statement = insert_or_merge(conn, event_answers).values(
        event_id=event_id, part=part, changes=changes, code=code, body=body, computed_at=now
    )
    conn.execute(
        statement.on_conflict_do_update(
            index_elements=["event_id", "part"],
            set_={"changes": changes, "code": code, "body": body, "computed_at": now},
            where=event_answers.c.changes <= changes,
        )
    )

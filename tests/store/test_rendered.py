"""Rendered rosters and packs do not outlive their event (issue 25), even when a render
finishes while the organiser is deleting the event (PostgreSQL: READ COMMITTED lets a plain
read miss a delete that has not committed yet)."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from sqlalchemy import func, select, text

from listbuilder.events.admin import plan_delete
from listbuilder.store import rendered
from listbuilder.store.rounds import change_day
from tests.store.test_lists import new_event


def rows(db, table, event_id: str) -> int:
    with db.reading() as conn:
        return conn.scalar(select(func.count()).select_from(table).where(table.c.event_id == event_id))


def wait_for_a_lock_waiter(db) -> None:
    """Until another session of this database waits for a row lock (10 s at most)."""
    stop = time.monotonic() + 10
    with db.engine.connect() as conn:
        while time.monotonic() < stop:
            query = (
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if conn.execute(text(query)).scalar():
                return
            conn.rollback()
            time.sleep(0.01)
    raise AssertionError("the roster's write never waited for the delete's lock on the event")


@pytest.mark.parametrize("keep", ["roster", "pack"])
def test_a_render_kept_while_its_event_is_being_deleted_is_removed_with_it(db, registry, keep):
    if db.backend != "postgresql":
        pytest.skip("SQLite: the delete holds the one write lock, so a render's write comes wholly before or after it")
    made = new_event(db, registry)
    event_id = made.event.id
    rendered.keep(db, rendered.RosterRef(event_id, 1, "a4", "r1"), b"%PDF-before")
    if keep == "roster":
        late = lambda: rendered.keep(db, rendered.RosterRef(event_id, 2, "a4", "r1"), b"%PDF-late")  # noqa: E731
    else:
        late = lambda: rendered.keep_pack(db, rendered.PackKey(event_id, "a4", "r1", (1, 2)), b"%PDF-late")  # noqa: E731
    keeper = threading.Thread(target=late)
    delete = plan_delete(dt.datetime.now(dt.timezone.utc))

    def deleting(day):
        keeper.start()  # its write starts while this transaction holds the event's row
        wait_for_a_lock_waiter(db)
        return delete(day)

    change_day(db, event_id, made.token, deleting)
    keeper.join(30)
    assert (rows(db, rendered.event_rosters, event_id), rows(db, rendered.event_packs, event_id)) == (0, 0)

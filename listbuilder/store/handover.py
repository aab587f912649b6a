"""Handing the organiser's role to another device: a short code, used once, for a token of its own.

The organiser asks for a code (a ``handover`` row of the event's log: the code's hash and when
it expires, ten minutes on); the other device sends the code back and gets a new organiser
token, whose hash is kept as an ``organiser_token`` row (the code is then ``handover_used``).
Either token acts as the organiser from then on; neither is ever stored but as its hash. The
claim is one transaction with the event's row locked, so a code is used once however many
devices send it at the same moment.

This module names the two tables it reads through SQLAlchemy's light ``table()``, not the
full definitions of ``store/events`` and ``store/rounds`` (which import it).
"""

from __future__ import annotations

import datetime as dt
import json

from sqlalchemy import Connection, column, func, insert, select, table

from listbuilder.store.database import Database, utcnow
from listbuilder.store.tokens import hash_token, new_token

LOG = table("event_log", column("event_id"), column("seq"), column("kind"), column("data"), column("logged_at"))
EVENTS = table("events", column("id"))


def normal(code: str) -> str:
    """A hand-over code as it is hashed: capitals, no spaces or dashes (ABCD-EFGH, abcd efgh)."""
    return "".join(code.split()).replace("-", "").upper()


def kept(token_hash: str) -> str:
    """The ``data`` of the log row that keeps a handed-over token: compared as text, exactly."""
    return json.dumps({"hash": token_hash}, sort_keys=True)


def handed_over(conn: Connection, event_id: str, token: str) -> bool:
    """Whether *token* is an organiser token handed over for event *event_id*."""
    found = conn.scalar(
        select(func.count())
        .select_from(LOG)
        .where(LOG.c.event_id == event_id, LOG.c.kind == "organiser_token", LOG.c.data == kept(hash_token(token)))
    )
    return bool(found)


def claim(db: Database, event_id: str, code: str, now: dt.datetime) -> str | None:
    """A new organiser token for a hand-over *code* not used and not expired at *now*; None otherwise."""
    wanted = hash_token(normal(code))
    with db.writing() as conn:
        conn.execute(select(EVENTS.c.id).where(EVENTS.c.id == event_id).with_for_update())
        rows = conn.execute(
            select(LOG.c.kind, LOG.c.data).where(
                LOG.c.event_id == event_id, LOG.c.kind.in_(("handover", "handover_used"))
            )
        ).all()
        offered = [json.loads(r.data) for r in rows if r.kind == "handover"]
        used = {json.loads(r.data)["code_hash"] for r in rows if r.kind == "handover_used"}
        valid = any(
            o["code_hash"] == wanted and wanted not in used and dt.datetime.fromisoformat(o["expires_at"]) > now
            for o in offered
        )
        if not valid:
            return None
        token = new_token()
        seq = conn.scalar(select(func.max(LOG.c.seq)).where(LOG.c.event_id == event_id)) or 0
        conn.execute(
            insert(LOG),
            [
                {
                    "event_id": event_id,
                    "seq": seq + 1,
                    "kind": "handover_used",
                    "data": json.dumps({"code_hash": wanted}),
                    "logged_at": utcnow(),
                },
                {
                    "event_id": event_id,
                    "seq": seq + 2,
                    "kind": "organiser_token",
                    "data": kept(hash_token(token)),
                    "logged_at": utcnow(),
                },
            ],
        )
    return token

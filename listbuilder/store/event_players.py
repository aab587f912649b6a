"""How many players an event has, for its cap (``LISTBUILDER_MAX_PLAYERS``, ``web.quotas``)."""

from __future__ import annotations

from sqlalchemy import func, select

from listbuilder.store.database import Database
from listbuilder.store.events import LIVE, event_submissions, player_key


def players_and_known(db: Database, event_id: str, player: str, key: str | None = None) -> tuple[int, bool]:
    """The event's number of players (names folded as submissions match them; undone
    submissions left out), and whether *player* (or the identity *key*, when the caller
    resolved the name) is one of them already (a resubmission never counts against the cap)."""
    key = key or player_key(player)
    with db.reading() as conn:
        count = conn.scalar(
            select(func.count(func.distinct(event_submissions.c.player_key))).where(
                event_submissions.c.event_id == event_id, LIVE
            )
        )
        known = conn.scalar(
            select(event_submissions.c.number)
            .where(event_submissions.c.event_id == event_id, event_submissions.c.player_key == key, LIVE)
            .limit(1)
        )
    return int(count or 0), known is not None

"""Who may act on the room's controls: the check every organiser-only plan of the day makes first."""

from __future__ import annotations

from listbuilder.store.errors import TokenWrong
from listbuilder.store.rounds import Day


def organiser_only(day: Day, doing: str) -> None:
    """Refuse unless the organiser's token was sent (*doing*: what was asked, for the message). Raises TokenWrong (403)."""
    if not day.caller.organiser:
        raise TokenWrong(day.event.id, f"only the organiser may {doing}: send the organiser token")

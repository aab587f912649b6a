"""The organiser's hand-over code: what the first device shows so a second one becomes organiser too.

A code is eight characters from an alphabet without look-alikes (no 0/O, 1/I/L), shown as
ABCD-EFGH, good for ten minutes and for one claim (``store/handover.py`` keeps its hash and
gives the claiming device a token of its own).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence

from listbuilder.events.organiser import organiser_only
from listbuilder.store.handover import normal
from listbuilder.store.rounds import AddLog, Change, Day, Plan
from listbuilder.store.tokens import hash_token

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LIFETIME = dt.timedelta(minutes=10)


def new_code() -> str:
    letters = "".join(secrets.choice(ALPHABET) for _ in range(8))
    return f"{letters[:4]}-{letters[4:]}"


def plan_handover(code: str, now: dt.datetime) -> Plan:
    """Offer *code* (the organiser only) until ten minutes after *now*."""

    def plan(day: Day) -> Sequence[Change]:
        organiser_only(day, "hand the organiser's role to another device")
        return [AddLog("handover", {"code_hash": hash_token(normal(code)), "expires_at": (now + LIFETIME).isoformat()})]

    return plan

"""The organiser's controls of an event: edit it before round 1, close and reopen submissions, delete it.

Plans for ``store.rounds.change_day`` (run with the event locked). The event's row is the one
record changed in place, so every change is also logged with the values before and after.

Choices (docs/events.md): settings, name and deadline are fixed once round 1 starts; the list
settings (points limit, force organisation, game mode, budget) only while no list has been
submitted under them, since a submission's verification code is of the list as played with
them. Closing sets the deadline to now; reopening takes a new deadline, which must be in the
future (as at creation). Deleting keeps every row (the event answers 410) and keeps the
submitted lists locked: they are the record of what was played; their owners copy them to edit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from listbuilder.events.rounds import day_settings
from listbuilder.events.submissions import SETTINGS
from listbuilder.lists.documents import ListError
from listbuilder.store.errors import DayConflict, TokenWrong
from listbuilder.store.rounds import AddLog, Change, Day, ForgetRendered, Plan, UpdateEvent

EVENT_FIELDS = ("name", "deadline", "allow_illegal")
DAY_FIELDS = ("tiebreakers", "avoid_same_club", "avoid_same_faction_first_round", "clubs")


def check_deadline(deadline: dt.datetime, now: dt.datetime) -> dt.datetime:
    """A deadline must be in the future. Raises ListError (422)."""
    if deadline <= now:
        raise ListError(
            "invalid_event", "the deadline has passed already: give a time in the future", {"deadline": ["in the past"]}
        )
    return deadline.astimezone(dt.timezone.utc)


def _organiser(day: Day) -> None:
    if not day.caller.organiser:
        raise TokenWrong(day.event.id, "only the organiser may change the event: send the organiser token")


def plan_edit(changes: Mapping[str, Any], list_settings: Mapping[str, Any] | None, now: dt.datetime) -> Plan:
    """Change the event's name, deadline, illegal-list rule, day settings and (with
    *list_settings*, already checked against the system) its list settings."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser(day)
        event = day.event
        if day.rounds:
            raise DayConflict(
                event.id, "round 1 has started: the event's settings are fixed for the day", field="round"
            )
        if list_settings is not None and day.submissions:
            field = next(k for k in SETTINGS if k in changes)
            raise DayConflict(
                event.id, "lists were submitted under the current list settings: they cannot change now", field=field
            )
        before: dict[str, Any] = {
            "name": event.name,
            "deadline": event.deadline.isoformat(),
            "allow_illegal": event.allow_illegal,
        }
        values = {k: changes[k] for k in EVENT_FIELDS if changes.get(k) is not None}
        if "deadline" in values:
            values["deadline"] = check_deadline(values["deadline"], now)
        if list_settings is not None:
            before["settings"] = dict(event.settings)
            values["settings"] = dict(list_settings)
        day_changes = {k: changes[k] for k in DAY_FIELDS if changes.get(k) is not None}
        before["day"] = {k: day_settings(day)[k] for k in day_changes}
        after = {
            **{k: (v.isoformat() if isinstance(v, dt.datetime) else v) for k, v in values.items()},
            "day": day_changes,
        }
        written: list[Change] = [AddLog("settings", {"before": before, "after": after})]
        if values:
            written.insert(0, UpdateEvent(values))
        return written

    return plan


def plan_close(now: dt.datetime) -> Plan:
    """Close submissions now (the deadline becomes now)."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser(day)
        if not day.event.is_open(now):
            raise DayConflict(day.event.id, "submissions are closed already", field="deadline")
        return [
            UpdateEvent({"deadline": now}),
            AddLog("close", {"before": day.event.deadline.isoformat(), "after": now.isoformat()}),
        ]

    return plan


def plan_reopen(deadline: dt.datetime, now: dt.datetime) -> Plan:
    """Open submissions again until *deadline* (in the future)."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser(day)
        until = check_deadline(deadline, now)
        return [
            UpdateEvent({"deadline": until}),
            AddLog("reopen", {"before": day.event.deadline.isoformat(), "after": until.isoformat()}),
        ]

    return plan


def plan_delete(now: dt.datetime) -> Plan:
    """Delete the event: it answers 410 from now on; its records stay and its lists stay
    locked, but its rendered rosters and packs go (only a live event's pack is printed)."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser(day)
        return [UpdateEvent({"deleted_at": now}), ForgetRendered(), AddLog("delete", {"at": now.isoformat()})]

    return plan

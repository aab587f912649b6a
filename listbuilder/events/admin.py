"""The organiser's controls of an event: edit it before round 1, close and reopen submissions, delete it.

Plans for ``store.rounds.change_day`` (run with the event locked). The event's row is the one
record changed in place, so every change is also logged with the values before and after.

Choices (docs/events.md): a rename changes the name a player is shown under, never who they
are (their key, the folded name of their first submission; every name they were shown under
still finds them), and may not take another player's name; a rename to the name shown already
changes nothing (a retry). Undoing a submission (before round 1 only, the player's newest
only) marks it undone: the player's entry is their submission before it, or they are out of
the event; the row stays, and its list stays locked. Settings, name and deadline are fixed once round 1 starts
(but for the room's: fixed tables and table names); the list
settings (points limit, force organisation, game mode, budget) only while no list has been
submitted under them, since a submission's verification code is of the list as played with
them. Closing sets the deadline to now; reopening takes a new deadline, which must be in the
future (as at creation). Deleting keeps every row (the event answers 410) and keeps the
submitted lists locked: they are the record of what was played; their owners copy them to edit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from listbuilder.events.rounds import DAY_DEFAULTS, day_settings, find_player, names
from listbuilder.events.submissions import SETTINGS
from listbuilder.lists.documents import ListError
from listbuilder.store.errors import DayConflict, SubmissionNotFound, TokenWrong
from listbuilder.store.events import player_key
from listbuilder.store.rounds import AddLog, Change, Day, ForgetRendered, Plan, UndoSubmission, UpdateEvent

EVENT_FIELDS = ("name", "deadline", "allow_illegal")
# The room's settings (fixed tables, table names) may change once round 1 has started too: a
# player who needs a step-free table may say so at the door. They seat rounds paired after.
ROOM_FIELDS = ("fixed_tables", "table_names")
DAY_FIELDS = (
    "tiebreakers",
    "avoid_same_club",
    "avoid_same_faction_first_round",
    "clubs",
    "lists_after_start",
    *ROOM_FIELDS,
)


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
        given = [k for k, v in changes.items() if v is not None]
        if day.rounds and any(k not in ROOM_FIELDS for k in given):
            raise DayConflict(
                event.id,
                "round 1 has started: the event's settings are fixed for the day (all but fixed_tables and table_names)",
                field="round",
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
        day_changes = _room(changes, names(day).key_of)
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


def creation_settings(given: Mapping[str, Any]) -> dict[str, Any] | None:
    """The day's settings given when an event is created, as the log's ``settings`` entry
    (what an edit before round 1 would log), or None when none is given."""
    day_changes = _room(given, lambda name: None)
    if not day_changes:
        return None
    return {"before": {"day": {k: DAY_DEFAULTS[k] for k in day_changes}}, "after": {"day": day_changes}}


def _room(given: Mapping[str, Any], key_of: Callable[[str], str | None]) -> dict[str, Any]:
    """The day settings *given*, as logged: fixed tables by player key (the player's key when
    *key_of* knows the name, else the key their first submission under it will have), so a
    renamed player keeps their table; table names trimmed. Raises ListError (422) for two
    players fixed to one table."""
    found = {k: given[k] for k in DAY_FIELDS if given.get(k) is not None}
    if "fixed_tables" in found:
        by_key: dict[str, int] = {}
        for name, table in found["fixed_tables"].items():
            by_key[key_of(name) or player_key(name)] = table
        tables = sorted(by_key.values())
        twice = sorted({t for t in tables if tables.count(t) > 1})
        if twice or len(by_key) < len(found["fixed_tables"]):
            raise ListError(
                "invalid_event",
                f"a table seats one fixed player: table(s) {twice} are given twice"
                if twice
                else "a player is named twice (two spellings of one name)",
                {"fixed_tables": ["one player per table, each player once"]},
            )
        found["fixed_tables"] = by_key
    if "table_names" in found:
        found["table_names"] = {str(int(n)): name.strip() for n, name in found["table_names"].items()}
    return found


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


def plan_rename(player: str, name: str) -> Plan:
    """Show *player* (any name they are known by) as *name* from now on: tables, results and
    standings, past rounds included. Refused (409) when *name* is another player's."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser(day)
        found = find_player(day, player)
        new = name.strip()
        owner = names(day).key_of(new)
        if owner is not None and owner != found.key:
            raise DayConflict(
                day.event.id, f"{new!r} is the name of another player ({names(day).shown[owner]})", field="name"
            )
        if new == found.name:
            return []
        return [AddLog("rename", {"player": found.key, "before": found.name, "after": new})]

    return plan


def plan_undo_submission(number: int) -> Plan:
    """Undo submission *number*, a player's newest, before round 1: their entry is the one
    before it again (or they are out). Raises SubmissionNotFound (404: none, or undone
    already) and DayConflict (409: round 1 started, or a newer submission of theirs exists)."""

    def plan(day: Day) -> Sequence[Change]:
        _organiser(day)
        undone = next((s for s in day.submissions if s.number == number), None)
        if undone is None:
            raise SubmissionNotFound(day.event.id, f"no submission {number} to undo (none, or undone already)")
        if day.rounds:
            raise DayConflict(
                day.event.id, "round 1 has started: the submissions are the day's record now", field="number"
            )
        newest = max(s.number for s in day.submissions if s.player_key == undone.player_key)
        if newest != number:
            raise DayConflict(
                day.event.id,
                f"submission {number} is not {undone.player}'s newest: undo number {newest} first",
                field="number",
            )
        record = {
            "number": number,
            "player": undone.player,
            "list_id": undone.list_id,
            "list_version": undone.list_version,
            "verification_code": undone.verification_code,
        }
        return [UndoSubmission(number), AddLog("undo_submission", record)]

    return plan

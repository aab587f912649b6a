"""What the store raises when a saved list or an event cannot be read or written as asked.

Errors::

    StoreError                 base; .list_id names the list (or event) at fault, .field
                               the part of the request the API names in its answer
      ListNotFound             no list has this id (or no such version)            -> 404
      ListGone                 the list was deleted by its owner                    -> 410
      TokenMissing             the operation needs the edit token; none was given   -> 401
      TokenWrong               an edit token was given but it is not this list's    -> 403
      ListLocked               the list is locked (e.g. submitted to an event)      -> 423
      StaleVersion             the caller's version is not the current one          -> 412
        .current               the version that is current now
      TooManyVersions          the list holds the most versions one list may keep   -> 409
        .limit                 that number (``limits.MAX_VERSIONS_PER_LIST``)
      EventNotFound            no event has this id                                 -> 404
      DeadlinePassed           the event's submission deadline has passed           -> 409
      SubmissionConflict       the player name or the list is another player's      -> 409
      EventGone                the organiser deleted the event                      -> 410
      RoundNotFound            the event has no round (or table) of this number     -> 404
      DayConflict              the tournament day is not in a state that allows it  -> 409
                               (a table of the last round has no result, a result
                               is confirmed already, round 1 has started …)

Each carries the HTTP status the API answers with, so the web layer maps them in one place.
"""

from __future__ import annotations

import datetime as dt


class StoreError(Exception):
    status = 500
    field = "list_id"

    def __init__(self, list_id: str, message: str):
        super().__init__(message)
        self.list_id = list_id
        self.message = message


class ListNotFound(StoreError):
    status = 404


class ListGone(StoreError):
    status = 410


class TokenMissing(StoreError):
    status = 401


class TokenWrong(StoreError):
    status = 403


class ListLocked(StoreError):
    status = 423


class StaleVersion(StoreError):
    status = 412

    def __init__(self, list_id: str, message: str, current: int):
        super().__init__(list_id, message)
        self.current = current


class TooManyVersions(StoreError):
    status = 409
    field = "version"

    def __init__(self, list_id: str, limit: int):
        super().__init__(
            list_id,
            f"saved list {list_id!r} has {limit} versions, the most one list keeps; make a copy to go on saving",
        )
        self.limit = limit


class EventNotFound(StoreError):
    status = 404
    field = "event_id"


class DeadlinePassed(StoreError):
    status = 409
    field = "deadline"

    def __init__(self, event_id: str, deadline: dt.datetime):
        when = deadline.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z")
        super().__init__(event_id, f"submissions to this event closed at {when}")
        self.deadline = when


class SubmissionConflict(StoreError):
    status = 409

    def __init__(self, event_id: str, message: str, field: str = "player"):
        super().__init__(event_id, message)
        self.field = field


class SubmissionNotFound(StoreError):
    status = 404
    field = "number"


class EventGone(StoreError):
    status = 410
    field = "event_id"


class RoundNotFound(StoreError):
    status = 404
    field = "round"


class DayConflict(StoreError):
    status = 409

    def __init__(self, event_id: str, message: str, field: str = "round"):
        super().__init__(event_id, message)
        self.field = field

"""What the store raises when a saved list cannot be read or written as asked.

Errors::

    StoreError                 base; .list_id names the list at fault
      ListNotFound             no list has this id (or no such version)            -> 404
      ListGone                 the list was deleted by its owner                    -> 410
      TokenMissing             the operation needs the edit token; none was given   -> 401
      TokenWrong               an edit token was given but it is not this list's    -> 403
      ListLocked               the list is locked (e.g. submitted to an event)      -> 423
      StaleVersion             the caller's version is not the current one          -> 412
        .current               the version that is current now

Each carries the HTTP status the API answers with, so the web layer maps them in one place.
"""

from __future__ import annotations


class StoreError(Exception):
    status = 500

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

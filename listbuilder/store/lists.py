"""Saved army lists: every save a new version row, edits guarded by a hashed token and a version.

Tables::

    saved_lists     id, token_hash, created_at, head (number of the current version),
                    locked_at, deleted_at
    list_versions   (list_id, number) -> the canonical list document, the book and system it
                    was checked against (ids, digests, rules_version), saved_at

A version row is written once and never changed. Every write (save, lock, delete, and the
lock an event submission takes) first reads the list's row ``FOR UPDATE`` and checks
``head``, ``locked_at`` and ``deleted_at`` while holding it, so a second writer waits for
the first to commit and then checks what it left: of two saves made from the same version
exactly one wins and the other is told it is stale, a save or delete after a lock is
refused, and a submission records the version it locked. The primary key on ``(list_id,
number)`` would refuse a second version N even if that check were bypassed. A list keeps at
most ``MAX_VERSIONS_PER_LIST`` versions, so one list cannot grow the database without bound
(see docs/saved-lists.md). Deleting removes the versions and keeps a tombstone, so the id
answers "gone"; a locked list cannot be deleted, so an event's entries stay readable.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    PrimaryKeyConstraint,
    Row,
    String,
    Table,
    Text,
    and_,
    bindparam,
    case,
    column,
    delete,
    func,
    insert,
    literal_column,
    select,
    table,
    tuple_,
    update,
)

from listbuilder.store.database import Database, as_utc, metadata, utcnow
from listbuilder.store.errors import (
    ListGone,
    ListLocked,
    ListNotFound,
    StaleVersion,
    TokenMissing,
    TokenWrong,
    TooManyVersions,
)
from listbuilder.store.limits import MAX_VERSIONS_PER_LIST
from listbuilder.store.texts import keep_texts
from listbuilder.store.tokens import hash_token, new_id, new_token, token_matches

saved_lists = Table(
    "saved_lists",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("head", Integer, nullable=False),
    Column("locked_at", DateTime(timezone=True), nullable=True),
    Column("deleted_at", DateTime(timezone=True), nullable=True),
)

list_versions = Table(
    "list_versions",
    metadata,
    Column("list_id", String(32), ForeignKey("saved_lists.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("document", Text, nullable=False),
    Column("system_id", String(100), nullable=False),
    Column("book_id", String(100), nullable=False),
    Column("book_version", String(100), nullable=False),
    Column("book_digest", String(64), nullable=False),
    Column("system_digest", String(64), nullable=False),
    Column("rules_version", String(16), nullable=False),
    Column("saved_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("list_id", "number"),
)


@dataclass(frozen=True)
class RulesRecord:
    """The book and system a version was checked against: ids, the book's own version label,
    the SHA-256 of both files, and ``canonical.rules_version`` of the pair."""

    system_id: str
    book_id: str
    book_version: str
    book_digest: str
    system_digest: str
    rules_version: str


@dataclass(frozen=True)
class SavedVersion:
    """One saved version: the list as canonical JSON and the rules it was saved under."""

    list_id: str
    number: int
    document_json: str
    rules: RulesRecord
    saved_at: dt.datetime

    @property
    def document(self) -> dict[str, Any]:
        return json.loads(self.document_json)


@dataclass(frozen=True)
class LockingEvent:
    """An event the list was submitted to (submitting locks it): its id and public name, or,
    once its organiser deleted it, no name (its pages answer 410 and no longer show it)."""

    id: str
    name: str | None
    deleted: bool


@dataclass(frozen=True)
class SavedList:
    """A saved list as it stands: its current version, whether it is locked, and the events it
    was submitted to (each once, in the order of their first submission of it). ``events_mark``
    is :attr:`ListHead.events_mark` read with them."""

    id: str
    created_at: dt.datetime
    locked_at: dt.datetime | None
    current: SavedVersion
    events: tuple[LockingEvent, ...] = ()
    events_mark: tuple[int, int] = (0, 0)

    @property
    def version(self) -> int:
        return self.current.number

    @property
    def updated_at(self) -> dt.datetime:
        return self.current.saved_at

    @property
    def locked(self) -> bool:
        return self.locked_at is not None


@dataclass(frozen=True)
class ListHead:
    """Where a list stands, without its document: enough to tell whether a copy is current
    (a lock is set once and never lifted, so ``locked`` and ``version`` say it all, but for
    the events it was submitted to). ``events_mark`` counts the list's submissions and those
    whose event was since deleted: both only grow, and an event's name never changes, so an
    answer naming its events is current while the mark is."""

    id: str
    version: int
    locked: bool
    events_mark: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class NewList:
    """A list just created: the edit token exists only here, the store keeps its hash."""

    saved: SavedList
    token: str


# --------------------------------------------------------------------------------------------
# Writing


def create_list(db: Database, document_json: str, rules: RulesRecord, texts: Mapping[str, str]) -> NewList:
    """Save a new list as version 1 under a fresh random id and edit token; *texts* are the
    book and system files by digest (kept once, see ``texts.py``)."""
    list_id, token, now = new_id(), new_token(), utcnow()
    with db.writing() as conn:
        conn.execute(insert(saved_lists).values(id=list_id, token_hash=hash_token(token), created_at=now, head=1))
        keep_texts(conn, texts)
        version = _insert_version(conn, list_id, 1, document_json, rules, now)
    return NewList(SavedList(list_id, now, None, version), token)


def save_version(
    db: Database,
    list_id: str,
    token: str | None,
    expected: int | None,
    document_json: str,
    rules: RulesRecord,
    texts: Mapping[str, str],
) -> SavedList:
    """Save a new version of a list the caller holds the token of.

    *expected* is the version the caller last read (None: save over whatever is current).
    Raises ListNotFound, ListGone, TokenMissing, TokenWrong, ListLocked, TooManyVersions,
    StaleVersion.
    """
    _known_shape(list_id)
    now = utcnow()
    with db.writing() as conn:
        row = _editable(conn, list_id, token, hold=True)
        if row.head >= MAX_VERSIONS_PER_LIST:  # versions are never removed one by one: head counts them
            raise TooManyVersions(list_id, MAX_VERSIONS_PER_LIST)
        if expected is not None and row.head != expected:
            raise _stale(list_id, row.head, expected)
        conn.execute(update(saved_lists).where(saved_lists.c.id == list_id).values(head=row.head + 1))
        keep_texts(conn, texts)
        version = _insert_version(conn, list_id, row.head + 1, document_json, rules, now)
    return SavedList(list_id, as_utc(row.created_at), None, version)


def check_editable(db: Database, list_id: str, token: str | None) -> None:
    """Raise what a save with *token* would raise before versions are compared: ListNotFound,
    ListGone, TokenMissing, TokenWrong, ListLocked. Returns quietly if a save could go ahead."""
    _known_shape(list_id)
    with db.reading() as conn:
        _editable(conn, list_id, token)


def lock_list(db: Database, list_id: str, token: str | None, expected: int | None = None) -> SavedList:
    """Freeze a list: no more saves or deletion; its id and history stay readable. Locking a
    locked list changes nothing. *expected* (optional) must be the current version.
    Raises ListNotFound, ListGone, TokenMissing, TokenWrong, StaleVersion."""
    _known_shape(list_id)
    with db.writing() as conn:
        lock_in(conn, list_id, token, expected)
    return read_list(db, list_id)


def lock_in(conn: Connection, list_id: str, token: str | None, expected: int | None) -> int:
    """Lock a list inside the caller's write transaction (an event submission locks the list
    and records the submission together); returns the locked version's number.
    Raises ListNotFound, ListGone, TokenMissing, TokenWrong, StaleVersion."""
    _known_shape(list_id)
    row = _owned(conn, list_id, token, hold=True)
    if expected is not None and row.head != expected:
        raise _stale(list_id, row.head, expected)
    if row.locked_at is None:
        conn.execute(update(saved_lists).where(saved_lists.c.id == list_id).values(locked_at=utcnow()))
    return int(row.head)


def check_owner(db: Database, list_id: str, token: str | None) -> None:
    """Raise what a lock with *token* would raise: ListNotFound, ListGone, TokenMissing, TokenWrong."""
    _known_shape(list_id)
    with db.reading() as conn:
        _owned(conn, list_id, token)


def delete_list(db: Database, list_id: str, token: str | None, expected: int | None = None) -> None:
    """Delete every version of a list; its id then answers ListGone. *expected* (optional)
    must be the current version, checked while holding the row: a delete sent after reading
    version 1 does not remove a version 2 saved meanwhile from another device.
    Raises ListNotFound, ListGone, TokenMissing, TokenWrong, ListLocked, StaleVersion."""
    _known_shape(list_id)
    with db.writing() as conn:
        row = _editable(conn, list_id, token, hold=True)
        if expected is not None and row.head != expected:
            raise _stale(list_id, row.head, expected)
        conn.execute(delete(list_versions).where(list_versions.c.list_id == list_id))
        conn.execute(update(saved_lists).where(saved_lists.c.id == list_id).values(deleted_at=utcnow()))


def copy_list(db: Database, list_id: str, number: int | None = None) -> NewList:
    """A new list (new id and token) whose version 1 is *list_id*'s version *number*
    (default: current), with the same rules record. Raises ListNotFound, ListGone."""
    source = read_version(db, list_id, number) if number is not None else read_list(db, list_id).current
    list_id, token, now = new_id(), new_token(), utcnow()
    with db.writing() as conn:
        conn.execute(insert(saved_lists).values(id=list_id, token_hash=hash_token(token), created_at=now, head=1))
        version = _insert_version(conn, list_id, 1, source.document_json, source.rules, now)
    return NewList(SavedList(list_id, now, None, version), token)


def _insert_version(
    conn: Connection, list_id: str, number: int, document_json: str, rules: RulesRecord, now: dt.datetime
) -> SavedVersion:
    values = {
        "list_id": list_id,
        "number": number,
        "document": document_json,
        "system_id": rules.system_id,
        "book_id": rules.book_id,
        "book_version": rules.book_version,
        "book_digest": rules.book_digest,
        "system_digest": rules.system_digest,
        "rules_version": rules.rules_version,
        "saved_at": now,
    }
    conn.execute(insert(list_versions).values(**values))
    return SavedVersion(list_id, number, document_json, rules, now)


def _stale(list_id: str, current: int, expected: int) -> StaleVersion:
    return StaleVersion(
        list_id, f"the list is at version {current}; this change was made to version {expected}", current
    )


# --------------------------------------------------------------------------------------------
# Reading


def read_list(db: Database, list_id: str) -> SavedList:
    """The list, its current version and the events it was submitted to, in one statement
    (a row per submission of it). Raises ListNotFound, ListGone."""
    _known_shape(list_id)
    query = (
        select(
            saved_lists.c.created_at,
            saved_lists.c.locked_at,
            saved_lists.c.deleted_at,
            *_VERSION_COLUMNS,
            _submissions.c.event_id,
            _events.c.name.label("event_name"),
            _events.c.deleted_at.label("event_deleted_at"),
        )
        .select_from(
            saved_lists.outerjoin(
                list_versions,
                and_(list_versions.c.list_id == saved_lists.c.id, list_versions.c.number == saved_lists.c.head),
            )
            .outerjoin(_submissions, _submissions.c.list_id == saved_lists.c.id)
            .outerjoin(_events, _events.c.id == _submissions.c.event_id)
        )
        .where(saved_lists.c.id == list_id)
        .order_by(_submissions.c.submitted_at, _submissions.c.event_id, _submissions.c.number)
    )
    with db.single_read() as conn:
        rows = conn.execute(query).mappings().all()
    if not rows:
        raise _not_found(list_id)
    row = rows[0]
    if row["deleted_at"] is not None:
        raise ListGone(list_id, f"saved list {list_id!r} was deleted")
    locked = as_utc(row["locked_at"]) if row["locked_at"] is not None else None
    submitted = [r for r in rows if r["event_id"] is not None]
    events = {
        r["event_id"]: LockingEvent(
            r["event_id"],
            None if r["event_deleted_at"] is not None else r["event_name"],
            r["event_deleted_at"] is not None,
        )
        for r in submitted
    }
    mark = (len(submitted), sum(r["event_deleted_at"] is not None for r in submitted))
    return SavedList(list_id, as_utc(row["created_at"]), locked, _version(row), tuple(events.values()), mark)


def read_head(db: Database, list_id: str) -> ListHead:
    """The current version number, lock and events mark of a list, in one statement (the read
    path's freshness check: versions never change, so a version already rendered can be
    reused). Raises ListNotFound, ListGone."""
    _known_shape(list_id)
    row = db.first_row(_HEAD, {"id": list_id})
    if row is None:
        raise _not_found(list_id)
    head, locked_at, deleted_at, submissions, deleted_events = row
    if deleted_at is not None:
        raise ListGone(list_id, f"saved list {list_id!r} was deleted")
    # PostgreSQL's numbers come back as text through first_row
    return ListHead(list_id, int(head), locked_at is not None, (int(submissions), int(deleted_events)))


# The two tables of store/events.py a list's answer reads, named here as bare clauses: that
# module imports this one (a submission locks its list), so this one cannot import it.
# Migration 0010 indexes event_submissions by list_id for these reads.
_submissions = table(
    "event_submissions", column("event_id"), column("number"), column("list_id"), column("submitted_at")
)
_events = table("events", column("id"), column("name"), column("deleted_at"))


def _counted_submissions(*, deleted_events: bool) -> Any:
    """The list's submissions (or only those whose event was deleted), as a column of its
    head's row; 0 without a look at the submissions for a list never locked, as only a
    submission's lock puts one there."""
    counted = (
        select(func.count())
        .select_from(_submissions.join(_events, _events.c.id == _submissions.c.event_id))
        .where(_submissions.c.list_id == saved_lists.c.id)
    )
    if deleted_events:
        counted = counted.where(_events.c.deleted_at.is_not(None))
    return case((saved_lists.c.locked_at.is_(None), literal_column("0")), else_=counted.scalar_subquery())


_HEAD = select(
    saved_lists.c.head,
    saved_lists.c.locked_at,
    saved_lists.c.deleted_at,
    _counted_submissions(deleted_events=False),
    _counted_submissions(deleted_events=True),
).where(saved_lists.c.id == bindparam("id"))


def read_version(db: Database, list_id: str, number: int) -> SavedVersion:
    """One version of a list. Raises ListNotFound (no such list or version), ListGone."""
    _known_shape(list_id, number)
    with db.reading() as conn:
        _existing(conn, list_id)
        row = (
            conn.execute(
                select(*_VERSION_COLUMNS).where(list_versions.c.list_id == list_id, list_versions.c.number == number)
            )
            .mappings()
            .first()
        )
    if row is None:
        raise ListNotFound(list_id, f"saved list {list_id!r} has no version {number}")
    return _version(row)


def read_versions(
    db: Database, wanted: Sequence[tuple[str, int]], *, chunk: int = 400
) -> dict[tuple[str, int], SavedVersion]:
    """The versions *wanted* names as (list id, number) that exist, *chunk* per statement: an
    event's report reads hundreds at once, and a transaction each grew with the players. A
    version missing from the answer is one :func:`read_version` refuses (deleted, unknown)."""
    pairs = list(dict.fromkeys(wanted))
    found: dict[tuple[str, int], SavedVersion] = {}
    with db.reading() as conn:
        for start in range(0, len(pairs), chunk):
            rows = conn.execute(
                select(*_VERSION_COLUMNS)
                .join(saved_lists, saved_lists.c.id == list_versions.c.list_id)
                .where(
                    tuple_(list_versions.c.list_id, list_versions.c.number).in_(pairs[start : start + chunk]),
                    saved_lists.c.deleted_at.is_(None),
                )
            ).mappings()
            found.update(((row["list_id"], row["number"]), _version(row)) for row in rows)
    return found


def list_versions_of(db: Database, list_id: str) -> list[SavedVersion]:
    """Every version of a list, oldest first. Raises ListNotFound, ListGone."""
    _known_shape(list_id)
    with db.reading() as conn:
        _existing(conn, list_id)
        rows = (
            conn.execute(
                select(*_VERSION_COLUMNS).where(list_versions.c.list_id == list_id).order_by(list_versions.c.number)
            )
            .mappings()
            .all()
        )
    return [_version(row) for row in rows]


def versions_page(db: Database, list_id: str, offset: int, limit: int) -> tuple[int, list[SavedVersion]]:
    """The list's current version number (its versions are 1 to it) and *limit* of its
    versions from the *offset*-th, oldest first: one page, read with one query whatever the
    list's length. Raises ListNotFound, ListGone."""
    _known_shape(list_id)
    with db.reading() as conn:
        head = _existing(conn, list_id).head
        rows = (
            conn.execute(
                select(*_VERSION_COLUMNS)
                .where(list_versions.c.list_id == list_id)
                .order_by(list_versions.c.number)
                .offset(offset)
                .limit(limit)
            )
            .mappings()
            .all()
        )
    return head, [_version(row) for row in rows]


_VERSION_COLUMNS = (
    list_versions.c.list_id,
    list_versions.c.number,
    list_versions.c.document.label("document_json"),
    list_versions.c.system_id,
    list_versions.c.book_id,
    list_versions.c.book_version,
    list_versions.c.book_digest,
    list_versions.c.system_digest,
    list_versions.c.rules_version,
    list_versions.c.saved_at,
)


def _version(row: Mapping[str, Any]) -> SavedVersion:
    rules = RulesRecord(
        row["system_id"],
        row["book_id"],
        row["book_version"],
        row["book_digest"],
        row["system_digest"],
        row["rules_version"],
    )
    return SavedVersion(row["list_id"], row["number"], row["document_json"], rules, as_utc(row["saved_at"]))


def _existing(conn: Connection, list_id: str, *, hold: bool = False) -> Row[Any]:
    """The list's row; with *hold*, locked until the transaction ends (``FOR UPDATE``).

    A writer must hold the row it checks: under PostgreSQL's READ COMMITTED a plain SELECT
    lets another transaction save, lock or delete the list between the check and the write
    (a submission then recorded version 1 of a list a save had just moved to version 2, and
    a delete went through beside the submission that locked the list). Holding it, the
    second writer waits and then reads what the first committed. SQLite's one write lock
    (``BEGIN IMMEDIATE``) already orders writers; SQLAlchemy leaves ``FOR UPDATE`` out there.
    """
    query = select(saved_lists).where(saved_lists.c.id == list_id)
    row = conn.execute(query.with_for_update() if hold else query).first()
    if row is None:
        raise _not_found(list_id)
    if row.deleted_at is not None:
        raise ListGone(list_id, f"saved list {list_id!r} was deleted")
    return row


def _owned(conn: Connection, list_id: str, token: str | None, *, hold: bool = False) -> Row[Any]:
    row = _existing(conn, list_id, hold=hold)
    if not token:
        raise TokenMissing(list_id, "changing a saved list needs its edit token (Authorization: Bearer <token>)")
    if not token_matches(token, row.token_hash):
        raise TokenWrong(list_id, f"that is not the edit token of saved list {list_id!r}")
    return row


def _editable(conn: Connection, list_id: str, token: str | None, *, hold: bool = False) -> Row[Any]:
    row = _owned(conn, list_id, token, hold=hold)
    if row.locked_at is not None:
        raise ListLocked(list_id, f"saved list {list_id!r} is locked; make a copy to change it")
    return row


def _not_found(list_id: str) -> ListNotFound:
    return ListNotFound(list_id, f"no saved list {list_id[:40]!r}")


_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_VERSION = 2**31 - 1


def _known_shape(list_id: str, number: int = 1) -> None:
    """Refuse ids and version numbers no list can have before they reach the database (a
    NUL byte or a 10,000-character id is not found, not a database error)."""
    if not _ID.fullmatch(list_id):
        raise _not_found(list_id)
    if not 1 <= number <= MAX_VERSION:
        raise ListNotFound(list_id, f"saved list {list_id!r} has no version {number}")

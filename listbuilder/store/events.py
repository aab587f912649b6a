"""Tournament events: an organiser's settings and pinned books, and the lists players submit.

Tables::

    events              id, token_hash (the organiser token's SHA-256), name, system_id,
                        settings (JSON: points_limit, force_org, game_mode, budget),
                        books (JSON: one RulesRecord per allowed book, pinned at creation),
                        deadline, allow_illegal, created_at, deleted_at (set once, by
                        the organiser: the event then answers 410; see store/rounds.py)
    event_submissions   (event_id, number) -> player (as typed) and player_key (folded, to
                        match resubmissions), player_token_hash, list_id + list_version,
                        valid, report (JSON, as checked on submission), verification_code,
                        submitted_at, undone_at (set once, by the organiser, before round 1)

A submission row is written once and never changed but for ``undone_at``, set once when the
organiser undoes it (it then counts nowhere: not as an entry, a name, a token or a list taken);
a player who submits again adds a row, and the newest live row of each player is their entry.
``player_key`` is the player's identity: the folded name of their first submission (a later
submission under a name the organiser renamed them to keeps that key). Submitting locks the saved list in the
same transaction that records the submission, after checking that the version checked is
still the list's current one, so what the organiser sees is exactly what was locked. On
PostgreSQL the event row is locked (``FOR UPDATE``) while a submission is numbered, so two
players submitting at once get different numbers; on SQLite the write lock does the same.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    column,
    func,
    insert,
    select,
    table,
    update,
)

from listbuilder.store import handover
from listbuilder.store.database import Database, as_utc, metadata, utcnow
from listbuilder.store.errors import (
    DeadlinePassed,
    EventGone,
    EventNotFound,
    SubmissionConflict,
    TokenMissing,
    TokenWrong,
)
from listbuilder.store.lists import RulesRecord, lock_in
from listbuilder.store.texts import keep_texts
from listbuilder.store.tokens import derived_token, hash_token, new_id, new_token, token_matches

events = Table(
    "events",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("name", String(200), nullable=False),
    Column("system_id", String(100), nullable=False),
    Column("settings", Text, nullable=False),
    Column("books", Text, nullable=False),
    Column("deadline", DateTime(timezone=True), nullable=False),
    Column("allow_illegal", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("deleted_at", DateTime(timezone=True), nullable=True),
    # one more at every write to the event's day: what the kept answers were computed at (0009)
    Column("changes", Integer, nullable=False, server_default="0"),
)

event_submissions = Table(
    "event_submissions",
    metadata,
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("player", String(100), nullable=False),
    Column("player_key", Text, nullable=False),  # folding lengthens: 100 characters can fold to 1800 (0006)
    Column("player_token_hash", String(64), nullable=False),
    Column("list_id", String(32), ForeignKey("saved_lists.id"), nullable=False),
    Column("list_version", Integer, nullable=False),
    Column("valid", Boolean, nullable=False),
    Column("report", Text, nullable=False),
    Column("verification_code", String(9), nullable=False),
    Column("submitted_at", DateTime(timezone=True), nullable=False),
    Column("undone_at", DateTime(timezone=True), nullable=True),  # the organiser undid it (0008)
    PrimaryKeyConstraint("event_id", "number"),
    Index("ix_event_submissions_player_key", "player_key", postgresql_using="hash"),  # a hash: no key too long for it
    Index("ix_event_submissions_token", "event_id", "player_token_hash"),  # who holds a token: one lookup (0009)
)


@dataclass(frozen=True)
class Event:
    """An event as the organiser set it up; ``books`` are the allowed books, pinned."""

    id: str
    name: str
    system_id: str
    settings: Mapping[str, Any]
    books: tuple[RulesRecord, ...]
    deadline: dt.datetime
    allow_illegal: bool
    created_at: dt.datetime

    def pin(self, book_id: str) -> RulesRecord | None:
        return next((pin for pin in self.books if pin.book_id == book_id), None)

    def is_open(self, now: dt.datetime) -> bool:
        return now <= self.deadline


@dataclass(frozen=True)
class NewEvent:
    """An event just created: the organiser token exists only here, the store keeps its hash."""

    event: Event
    token: str


@dataclass(frozen=True)
class Submission:
    """One submitted list, as checked when it was submitted."""

    event_id: str
    number: int
    player: str
    list_id: str
    list_version: int
    valid: bool
    report_json: str
    verification_code: str
    submitted_at: dt.datetime
    key: str | None = None  # the player's identity as stored; None: the folded name

    @property
    def report(self) -> dict[str, Any]:
        return json.loads(self.report_json)

    @property
    def player_key(self) -> str:
        return self.key if self.key is not None else player_key(self.player)


@dataclass(frozen=True)
class Checked:
    """What the caller found when it checked the list version it asks to submit."""

    list_version: int
    valid: bool
    report_json: str
    verification_code: str


@dataclass(frozen=True)
class Submitted:
    """The submission recorded (or found again, for a repeat), and the player's token when it
    was made now (a player's first submission)."""

    submission: Submission
    player_token: str | None
    created: bool


LIVE = event_submissions.c.undone_at.is_(None)  # a submission the organiser has not undone
# The day's rounds (``store/rounds.py`` defines the table and imports this module): only
# whether one has started is asked here, before a submission.
_ROUNDS = table("event_rounds", column("event_id"), column("number"))
# ... and its log (defined there too), for the day's settings given when the event is created.
_LOG = table("event_log", column("event_id"), column("seq"), column("kind"), column("data"), column("logged_at"))
CLOSED_ONCE_STARTED = (
    "round 1 has started: lists are closed for the day (the organiser's setting lists_after_start allows changes)"
)


def count_change(conn: Connection, event_id: str) -> None:
    """Note that the event's day changed (its row is locked by the caller): the answers
    kept for an older count are no longer served (``store/kept.py``)."""
    conn.execute(update(events).where(events.c.id == event_id).values(changes=events.c.changes + 1))


def player_key(name: str) -> str:
    """A player's name as matched between submissions: case, accents' composition and runs
    of spaces do not make a different player."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", name)).strip().casefold()


# --------------------------------------------------------------------------------------------
# Writing


def create_event(
    db: Database,
    *,
    name: str,
    system_id: str,
    settings: Mapping[str, Any],
    books: Sequence[RulesRecord],
    texts: Mapping[str, str],
    deadline: dt.datetime,
    allow_illegal: bool,
    settings_log: Mapping[str, Any] | None = None,
) -> NewEvent:
    """Store a new event under a fresh id and organiser token; *texts* are the pinned books'
    and system's files by digest, kept so the pinned rules load even after the files change.
    *settings_log*: the tournament day's settings given at creation, as the data of a
    ``settings`` entry of the day's log, written in the same transaction as the event."""
    event_id, token, now = new_id(), new_token(), utcnow()
    event = Event(
        event_id,
        name,
        system_id,
        dict(settings),
        tuple(books),
        deadline.astimezone(dt.timezone.utc),
        allow_illegal,
        now,
    )
    with db.writing() as conn:
        keep_texts(conn, texts)
        conn.execute(
            insert(events).values(
                id=event_id,
                token_hash=hash_token(token),
                name=name,
                system_id=system_id,
                settings=json.dumps(event.settings, sort_keys=True),
                books=json.dumps([_pin_dict(pin) for pin in books]),
                deadline=event.deadline,
                allow_illegal=allow_illegal,
                created_at=now,
            )
        )
        if settings_log:
            data = json.dumps(settings_log, sort_keys=True, default=str)
            conn.execute(insert(_LOG).values(event_id=event_id, seq=1, kind="settings", data=data, logged_at=now))
    return NewEvent(event, token)


def submit(
    db: Database,
    event_id: str,
    *,
    player: str,
    player_token: str | None,
    list_id: str,
    list_token: str | None,
    checked: Checked,
    key: str | None = None,
    closed_once_started: bool = False,
) -> Submitted:
    """Record *checked* (a version of *list_id*) as *player*'s entry and lock the list.

    In one transaction: the deadline has not passed; the list's token is right and the
    version checked is still its current one (else StaleVersion: check again); the player name
    is new, or *player_token* is the one handed out with that player's first submission; the
    list is not another player's entry. Submitting the version a player already has as their
    entry changes nothing and answers that submission again with the player's token (a retried
    request, even a first one whose answer was lost, gets the same answer; see
    ``_player_token``). *key* is the player's identity when the caller resolved the name (an
    old name of a renamed player); else the folded name. With *closed_once_started*, a round
    started is a SubmissionConflict too, but for a repeat (checked here, with the event locked,
    so a submission racing round 1 either comes first or is refused). Raises EventNotFound, DeadlinePassed,
    SubmissionConflict, TokenMissing, TokenWrong and what locking the list raises
    (ListNotFound, ListGone, StaleVersion).
    """
    key = key or player_key(player)
    with db.writing() as conn:
        row = live_row(conn.execute(select(events).where(events.c.id == event_id).with_for_update()).first(), event_id)
        deadline, now = as_utc(row.deadline), utcnow()
        if now > deadline:
            raise DeadlinePassed(event_id, deadline)
        lock_in(conn, list_id, list_token, checked.list_version)  # rolled back with the rest if refused below
        assert list_token is not None  # lock_in refuses a missing token
        earlier, repeat = _players_entry(conn, event_id, key, player_token, list_id, checked.list_version)
        if earlier is not None and repeat:
            return Submitted(
                submission_from_row(earlier),
                player_token or _player_token(list_token, event_id, key, earlier.player_token_hash),
                created=False,
            )
        if closed_once_started and conn.scalar(select(_ROUNDS.c.number).where(_ROUNDS.c.event_id == event_id).limit(1)):
            raise SubmissionConflict(event_id, CLOSED_ONCE_STARTED, field="round")
        return _record(conn, event_id, player, key, list_id, list_token, checked, earlier, now)


def _players_entry(
    conn: Connection, event_id: str, key: str, player_token: str | None, list_id: str, list_version: int
) -> tuple[Any, bool]:
    """The player's latest submission (or None) and whether this one repeats it; raises
    SubmissionConflict when the name is another's (no right token) or the list another player's entry."""
    earlier = conn.execute(
        select(event_submissions)
        .where(event_submissions.c.event_id == event_id, event_submissions.c.player_key == key, LIVE)
        .order_by(event_submissions.c.number.desc())
    ).first()
    repeat = earlier is not None and earlier.list_id == list_id and earlier.list_version == list_version
    if earlier is not None and not _entitled(earlier.player_token_hash, player_token, repeat):
        raise SubmissionConflict(
            event_id,
            f"a list was already submitted as {earlier.player!r}: send the player_token given with that first submission",
        )
    taken = conn.execute(
        select(event_submissions.c.player).where(
            event_submissions.c.event_id == event_id,
            event_submissions.c.list_id == list_id,
            event_submissions.c.player_key != key,
            LIVE,
        )
    ).first()
    if taken is not None:
        raise SubmissionConflict(
            event_id,
            "this list was submitted to this event by another player; make a copy of it to submit your own",
            field="list_id",
        )
    return earlier, repeat


def _record(
    conn: Connection,
    event_id: str,
    player: str,
    key: str,
    list_id: str,
    list_token: str,
    checked: Checked,
    earlier: Any,
    now: dt.datetime,
) -> Submitted:
    """Write a new submission under the next number; a player's first gets a token made now."""
    number = (
        conn.scalar(select(func.max(event_submissions.c.number)).where(event_submissions.c.event_id == event_id)) or 0
    ) + 1
    token = None
    if earlier is None:
        token = derived_token(list_token, "player", event_id, key)
        token_hash = hash_token(token)
    else:
        token_hash = earlier.player_token_hash
    values = {
        "event_id": event_id,
        "number": number,
        "player": player,
        "player_key": key,
        "player_token_hash": token_hash,
        "list_id": list_id,
        "list_version": checked.list_version,
        "valid": checked.valid,
        "report": checked.report_json,
        "verification_code": checked.verification_code,
        "submitted_at": now,
    }
    conn.execute(insert(event_submissions).values(**values))
    count_change(conn, event_id)
    return Submitted(
        Submission(
            event_id,
            number,
            player,
            list_id,
            checked.list_version,
            checked.valid,
            checked.report_json,
            checked.verification_code,
            now,
            key,
        ),
        token,
        created=True,
    )


def _entitled(token_hash: str, player_token: str | None, repeat: bool) -> bool:
    """Whether a request may submit under a name already taken: with that player's token, or,
    without one, as a repeat of their current entry (the list's edit token, which locking
    checked, is then the proof: only the entry's owner holds it)."""
    if player_token:
        return token_matches(player_token, token_hash)
    return repeat


def _player_token(list_token: str, event_id: str, key: str, token_hash: str) -> str | None:
    """The player's token again, for a repeat of their first submission sent without it.

    The token is stored only as a hash, so it cannot be read back; it is instead computed from
    the edit token of the list first submitted under the name (``derived_token``), which a
    repeat of that request presents again. Whoever holds that edit token submitted as this
    player in the first place, so they learn nothing they could not have had. Tokens made
    before this scheme (random) are not found again: None.
    """
    token = derived_token(list_token, "player", event_id, key)
    return token if token_matches(token, token_hash) else None


# --------------------------------------------------------------------------------------------
# Reading


def read_event(db: Database, event_id: str) -> Event:
    """The event, for anyone with its id (players need its settings to submit). Raises EventNotFound."""
    known_shape(event_id)
    with db.reading() as conn:
        row = live_row(conn.execute(select(events).where(events.c.id == event_id)).first(), event_id)
    return event_from_row(row)


def was_submitted(db: Database, event_id: str, list_id: str, list_version: int) -> bool:
    """Whether that list version is a submission to the live event, not undone (one keyed
    read: a player's page asks it for the opponent's cards). Raises EventNotFound, EventGone."""
    known_shape(event_id)
    with db.reading() as conn:
        live_row(conn.execute(select(events).where(events.c.id == event_id)).first(), event_id)
        found = conn.execute(
            select(event_submissions.c.number)
            .where(
                event_submissions.c.event_id == event_id,
                event_submissions.c.list_id == list_id,
                event_submissions.c.list_version == list_version,
                LIVE,
            )
            .limit(1)
        ).first()
    return found is not None


def read_as_organiser(db: Database, event_id: str, token: str | None) -> tuple[Event, list[Submission]]:
    """The event and every submission, oldest first, for the holder of the organiser token.
    Raises EventNotFound, TokenMissing, TokenWrong."""
    known_shape(event_id)
    with db.reading() as conn:
        row = live_row(conn.execute(select(events).where(events.c.id == event_id)).first(), event_id)
        if not token:
            raise TokenMissing(
                event_id, "the organiser's view needs the organiser token (Authorization: Bearer <token>)"
            )
        if not token_matches(token, row.token_hash) and not handover.handed_over(conn, event_id, token):
            raise TokenWrong(event_id, f"that is not the organiser token of event {event_id!r}")
        rows = conn.execute(
            select(event_submissions)
            .where(event_submissions.c.event_id == event_id, LIVE)
            .order_by(event_submissions.c.number)
        ).all()
    return event_from_row(row), [submission_from_row(r) for r in rows]


def live_row(row: Any, event_id: str) -> Any:
    """The event's row, unless there is none (EventNotFound) or it was deleted (EventGone)."""
    if row is None:
        raise _event_not_found(event_id)
    if row.deleted_at is not None:
        raise EventGone(event_id, f"the organiser deleted event {event_id!r}")
    return row


def event_from_row(row: Any) -> Event:
    books = tuple(RulesRecord(**pin) for pin in json.loads(row.books))
    return Event(
        row.id,
        row.name,
        row.system_id,
        json.loads(row.settings),
        books,
        as_utc(row.deadline),
        bool(row.allow_illegal),
        as_utc(row.created_at),
    )


def submission_from_row(row: Any) -> Submission:
    return Submission(
        row.event_id,
        row.number,
        row.player,
        row.list_id,
        row.list_version,
        bool(row.valid),
        row.report,
        row.verification_code,
        as_utc(row.submitted_at),
        row.player_key,
    )


def _pin_dict(pin: RulesRecord) -> dict[str, str]:
    return {
        "system_id": pin.system_id,
        "book_id": pin.book_id,
        "book_version": pin.book_version,
        "book_digest": pin.book_digest,
        "system_digest": pin.system_digest,
        "rules_version": pin.rules_version,
    }


def _event_not_found(event_id: str) -> EventNotFound:
    return EventNotFound(event_id, f"no event {event_id[:40]!r}")


_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def known_shape(event_id: str) -> None:
    """Ids no event can have are not found before they reach the database."""
    if not _ID.fullmatch(event_id):
        raise _event_not_found(event_id)

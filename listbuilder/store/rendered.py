"""Event rosters rendered once and kept: the PDF of each submission, per paper size, and the
pack joined from them.

Tables::

    event_rosters   (event_id, number, paper) -> renderer (the roster templates' version,
                    ``pdf_cache.renderer()``), pdf (the bytes), rendered_at
    event_packs     (event_id, paper) -> renderer, numbers (the submission numbers joined, in
                    pack order: "3,1,7"), digest (SHA-256 of the pdf: the download's ETag),
                    pdf, joined_at

A submission row never changes and the list it names is locked, so its roster is the same
PDF for as long as the templates stay the same: it is rendered once (when the list is
submitted, or the first time a pack needs it) and an event's roster pack is a join of kept
PDFs instead of hundreds of renders in one request. A row rendered by older templates is
stale: it counts as missing and is replaced when rendered again. Two workers rendering the
same roster at once both render; the first row written stays.

The joined pack is kept too, one per event and paper: entries only change when a submission
arrives, so the pack of the same submission numbers by the same templates is the same PDF, and
every download but the first after a submission is a read of one row. A pack of other numbers
or templates is not served and is replaced by the next join.

Nothing rendered outlives its event: deleting an event removes its rosters and packs in the
same transaction (:func:`forget_event`), and a roster or pack finished after that is not kept
(each write first takes a share lock on the event's row and checks it is still live).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    delete,
    select,
)
from sqlalchemy.engine import Connection

from listbuilder.store.database import Database, insert_or_merge, metadata, utcnow
from listbuilder.store.events import events

event_rosters = Table(
    "event_rosters",
    metadata,
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("paper", String(16), nullable=False),
    Column("renderer", String(64), nullable=False),
    Column("pdf", LargeBinary, nullable=False),
    Column("rendered_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("event_id", "number", "paper"),
)

event_packs = Table(
    "event_packs",
    metadata,
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("paper", String(16), nullable=False),
    Column("renderer", String(64), nullable=False),
    Column("numbers", Text, nullable=False),
    Column("digest", String(64), nullable=False),
    Column("pdf", LargeBinary, nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("event_id", "paper"),
)


class RosterRef(NamedTuple):
    """Which submission's roster, on which paper, by which templates."""

    event_id: str
    number: int
    paper: str
    renderer: str


def rendered_numbers(db: Database, event_id: str, paper: str, renderer: str) -> set[int]:
    """The submission numbers of *event_id* whose roster on *paper* is kept, rendered by *renderer*."""
    with db.reading() as conn:
        rows = conn.execute(
            select(event_rosters.c.number).where(
                event_rosters.c.event_id == event_id,
                event_rosters.c.paper == paper,
                event_rosters.c.renderer == renderer,
            )
        )
        return {row.number for row in rows}


def keep(db: Database, ref: RosterRef, pdf: bytes) -> None:
    """Keep the roster *ref* names, replacing one rendered by other templates; when another
    worker kept the same roster meanwhile, theirs stays (both are the same document). Not
    kept when the event was deleted meanwhile."""
    with db.writing() as conn:
        if not _event_live(conn, ref.event_id):
            return
        conn.execute(
            delete(event_rosters).where(
                event_rosters.c.event_id == ref.event_id,
                event_rosters.c.number == ref.number,
                event_rosters.c.paper == ref.paper,
                event_rosters.c.renderer != ref.renderer,
            )
        )
        conn.execute(
            insert_or_merge(conn, event_rosters)
            .values(
                event_id=ref.event_id,
                number=ref.number,
                paper=ref.paper,
                renderer=ref.renderer,
                pdf=pdf,
                rendered_at=utcnow(),
            )
            .on_conflict_do_nothing(index_elements=["event_id", "number", "paper"])
        )


def kept_pdfs(
    db: Database, event_id: str, numbers: Sequence[int], paper: str, renderer: str, *, chunk: int = 50
) -> Iterator[tuple[int, bytes]]:
    """The kept rosters of *numbers* in that order, read *chunk* at a time (a 500-player pack
    is never all in memory twice). Raises KeyError naming a number with no roster kept."""
    for start in range(0, len(numbers), chunk):
        wanted = numbers[start : start + chunk]
        with db.reading() as conn:
            rows = conn.execute(
                select(event_rosters.c.number, event_rosters.c.pdf).where(
                    event_rosters.c.event_id == event_id,
                    event_rosters.c.paper == paper,
                    event_rosters.c.renderer == renderer,
                    event_rosters.c.number.in_(wanted),
                )
            )
            found = {row.number: bytes(row.pdf) for row in rows}
        for number in wanted:
            yield number, found[number]


class PackKey(NamedTuple):
    """Which pack: the event's, on *paper*, by *renderer*, of exactly these submission *numbers* in this order."""

    event_id: str
    paper: str
    renderer: str
    numbers: tuple[int, ...]

    @property
    def numbers_text(self) -> str:
        return ",".join(map(str, self.numbers))


class KeptPack(NamedTuple):
    """A joined pack and its digest (hex SHA-256 of *pdf*)."""

    digest: str
    pdf: bytes


def pack_digest(db: Database, key: PackKey) -> str | None:
    """The digest of the kept pack *key* names, or None when none is kept for exactly it (no PDF read)."""
    with db.reading() as conn:
        return conn.scalar(select(event_packs.c.digest).where(*_pack_is(key)))


def kept_pack(db: Database, key: PackKey) -> KeptPack | None:
    """The kept pack *key* names, or None when none is kept for exactly it."""
    with db.reading() as conn:
        row = conn.execute(select(event_packs.c.digest, event_packs.c.pdf).where(*_pack_is(key))).first()
    return None if row is None else KeptPack(row.digest, bytes(row.pdf))


def keep_pack(db: Database, key: PackKey, pdf: bytes) -> KeptPack:
    """Keep *pdf* as the event's pack on that paper, replacing the one kept before (of other
    numbers or templates; the last writer wins, and a reader checks the numbers). Not kept when
    the event was deleted meanwhile; returned either way."""
    kept = KeptPack(hashlib.sha256(pdf).hexdigest(), pdf)
    values = {
        "renderer": key.renderer,
        "numbers": key.numbers_text,
        "digest": kept.digest,
        "pdf": pdf,
        "joined_at": utcnow(),
    }
    with db.writing() as conn:
        if _event_live(conn, key.event_id):
            conn.execute(
                insert_or_merge(conn, event_packs)
                .values(event_id=key.event_id, paper=key.paper, **values)
                .on_conflict_do_update(index_elements=["event_id", "paper"], set_=values)
            )
    return kept


def forget_event(conn: Connection, event_id: str) -> None:
    """Remove every roster and pack kept for *event_id*, in the caller's transaction (the event is being deleted)."""
    conn.execute(delete(event_rosters).where(event_rosters.c.event_id == event_id))
    conn.execute(delete(event_packs).where(event_packs.c.event_id == event_id))


def _pack_is(key: PackKey) -> tuple:
    return (
        event_packs.c.event_id == key.event_id,
        event_packs.c.paper == key.paper,
        event_packs.c.renderer == key.renderer,
        event_packs.c.numbers == key.numbers_text,
    )


def _event_live(conn: Connection, event_id: str) -> bool:
    """Whether *event_id* is not deleted, holding a share lock on its row (PostgreSQL; SQLite's
    writer already holds the one write lock) till the transaction ends, so a delete either
    commits first and is seen here, or waits and then removes what this transaction keeps."""
    deleted = conn.execute(
        select(events.c.deleted_at).where(events.c.id == event_id).with_for_update(read=True)
    ).first()
    return deleted is not None and deleted.deleted_at is None

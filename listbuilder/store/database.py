"""The connection to the database: one engine per process, transactions, and migrations.

Two backends, one code path (SQLAlchemy Core):

- SQLite (the default, a file in the instance folder) in WAL mode, so readers never wait for a
  writer, with ``synchronous=FULL`` so a save acknowledged to a client is on disk before the
  answer leaves (a killed process or machine loses nothing it acknowledged). Write
  transactions start with ``BEGIN IMMEDIATE``: they queue for the one write lock up front
  instead of failing halfway when two try to upgrade a read lock at once.
- PostgreSQL through psycopg 3 (``postgresql+psycopg://``), for several workers and machines.

Migrations (Alembic, ``listbuilder/store/migrations``) run in one write transaction: on
PostgreSQL under a transaction-level advisory lock, on SQLite under the write lock, so when
several gunicorn workers start together one migrates and the others find it done.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, Executable, MetaData, create_engine, event, inspect, text
from sqlalchemy.engine import Compiled, make_url

from listbuilder.store.urls import normalise_url

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 10_000  # how long a SQLite writer waits for the write lock
MIGRATION_LOCK_KEY = 0x6C62_0001  # pg_advisory_xact_lock key: "lb" + 1

# Table definitions of every concern (lists.py, texts.py, later events and imported books)
# share this metadata; constraint names are fixed so later migrations can refer to them.
metadata = MetaData(
    naming_convention={
        "pk": "pk_%(table_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "ix": "ix_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
    }
)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def insert_or_merge(conn: Connection, table: Any) -> Any:
    """An INSERT of *table* that can say what to do on a conflict (``on_conflict_do_nothing``,
    ``on_conflict_do_update``): both backends spell it alike, each from its own dialect, so a
    write racing another of the same row is one atomic statement rather than a check then a write."""
    from sqlalchemy.dialects import postgresql, sqlite  # only when a conflicting write is possible

    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(table)


def as_utc(value: dt.datetime) -> dt.datetime:
    """SQLite hands timestamps back without a zone; they were written in UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.timezone.utc)


class Database:
    """One engine and its connection pool; ``reading()`` and ``writing()`` give transactions."""

    def __init__(self, url: str):
        self.url = normalise_url(url)
        parsed = make_url(self.url)
        self.backend = parsed.get_backend_name()
        if self.backend not in ("sqlite", "postgresql") or (
            self.backend == "postgresql" and parsed.get_driver_name() != "psycopg"
        ):
            raise ValueError(
                f"DATABASE_URL must be sqlite:///<file> or postgresql://… (psycopg 3), not {parsed.drivername}://"
            )
        if self.backend == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                _private_file(Path(parsed.database))
            self.engine: Engine = create_engine(self.url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
            _sqlite_setup(self.engine)
        else:
            # pre-ping: a pooled connection the server dropped (a restart, a failover, an idle
            # timeout, pg_terminate_backend) is found out when taken, and replaced, instead of
            # failing the request that took it; one round trip per checkout.
            self.engine = create_engine(self.url, pool_size=5, max_overflow=5, pool_pre_ping=True)
        self._compiled: dict[Executable, Compiled] = {}
        self._libpq = _LibpqReads(self.engine.dialect) if self.backend == "postgresql" else None
        self._held = _HeldConnection(self.engine)

    def __repr__(self) -> str:
        return f"Database({make_url(self.url).render_as_string(hide_password=True)!r})"

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A transaction for reads: one consistent view of the data, no write lock."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def single_read(self) -> Iterator[Connection]:
        """A connection for one SELECT, outside any transaction: a single statement sees one
        consistent state anyway, and skipping BEGIN/COMMIT saves a round trip on the hot path."""
        options = {"isolation_level": "AUTOCOMMIT"} if self.backend == "postgresql" else {"sqlite_begin": None}
        with self.engine.connect().execution_options(**options) as conn:
            yield conn

    def first_row(self, statement: Executable, params: Mapping[str, str | int]) -> tuple[Any, ...] | None:
        """The first row of one SELECT, outside any transaction, with as little as possible
        between us and the database: for the hottest read (is my copy of this list current?),
        where SQLAlchemy's result machinery and pool, and on PostgreSQL psycopg's cursor and
        autocommit switching, cost more than the query itself.

        The statement is still built with SQLAlchemy and compiled once for this database. It
        runs on the connection kept for these reads (``_HeldConnection``), or on a pooled one
        while another thread uses that; SQLite runs it on the driver's cursor, PostgreSQL
        straight through libpq (``_LibpqReads``). Values are not converted: PostgreSQL's come
        back as text ("1" for 1), SQLite's as the driver gives them, NULL as None on both, so
        use it for ids, texts, numbers read with int() and null checks only.
        """
        held = self._held
        if held.lock.acquire(blocking=False):
            try:
                return self._first_row_held(held, statement, params)
            finally:
                held.lock.release()
        raw = self.engine.raw_connection()
        try:
            return self._first_row_on(raw.dbapi_connection, statement, params)
        except BaseException:
            if self._libpq is not None and self._libpq.broken(raw.dbapi_connection):
                raw.invalidate()  # the server or the network went away: never hand it out again
            raise
        finally:
            raw.close()  # back to the pool

    def _first_row_held(
        self, held: _HeldConnection, statement: Executable, params: Mapping[str, str | int]
    ) -> tuple[Any, ...] | None:
        """On the kept connection. One that fails is closed and the read tried once more on a
        new connection: a connection the server dropped (a restart, an idle timeout) only
        shows it when used, and a read changes nothing, so trying it again is safe."""
        try:
            return self._first_row_on(held.connection or held.connect(), statement, params)
        except Exception:  # noqa: BLE001 - any failure of a kept connection: replace it, read again
            held.close()
        try:
            return self._first_row_on(held.connect(), statement, params)
        except BaseException:
            held.close()
            raise

    def _first_row_on(
        self, connection: Any, statement: Executable, params: Mapping[str, str | int]
    ) -> tuple[Any, ...] | None:
        if self._libpq is not None:
            return self._libpq.first_row(connection.pgconn, statement, params)
        compiled = self._compiled.get(statement)
        if compiled is None:
            compiled = self._compiled[statement] = statement.compile(dialect=self.engine.dialect)
        cursor = connection.cursor()
        try:
            cursor.execute(str(compiled), tuple(params[name] for name in compiled.positiontup or ()))
            return cursor.fetchone()
        finally:
            cursor.close()

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A transaction that writes; committed when the block ends, rolled back on error."""
        with self.engine.connect().execution_options(sqlite_begin="IMMEDIATE") as conn, conn.begin():
            yield conn

    def upgrade(self) -> list[str]:
        """Bring the schema to the newest migration; returns the revisions applied (none when
        it was already current). Safe when several processes start at once."""
        with self.writing() as conn:
            if self.backend == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            if _recorded_revision(conn) == head_revision():
                return []  # the usual start: nothing to do, and Alembic need not even load
            from alembic import command
            from alembic.runtime.migration import MigrationContext

            config = alembic_config()
            before = set(MigrationContext.configure(conn).get_current_heads())
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
            after = MigrationContext.configure(conn).get_current_heads()
        return [revision for revision in after if revision not in before]

    def revision(self) -> str | None:
        """The migration the database is at (None for an empty database)."""
        from alembic.runtime.migration import MigrationContext

        with self.reading() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def dispose(self) -> None:
        """Close pooled connections (before gunicorn forks workers from a preloaded app)."""
        with self._held.lock:
            self._held.close()
        self.engine.dispose()


def _private_file(path: Path) -> None:
    """Make the SQLite file's folder (0700) and the file itself (0600) if missing: saved lists
    hold tokens' hashes and players' names, for no other user of the machine to read. SQLite
    gives its -wal and -shm files the database file's permissions.

    An existing file is never opened here: closing any descriptor of a SQLite file drops every
    POSIX lock this process holds on it through its other connections, and then another
    writer can corrupt the database. O_EXCL creates the file or fails without opening it."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass


def alembic_config() -> Any:
    """Alembic's configuration, pointing at the migrations shipped inside the package."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    return config


def head_revision() -> str:
    """The newest migration. Files in ``migrations/versions`` are named after their revision
    (``0001_saved_lists.py``) and numbered in chain order, so the newest is the greatest name;
    a test holds this to Alembic's own reading of the chain."""
    return max(path.stem for path in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


class _Prepared(NamedTuple):
    name: bytes  # what it is prepared as on each connection
    sql: bytes  # with $1, $2 … placeholders
    params: tuple[str, ...]  # the parameters' names, in placeholder order


class _LibpqReads:
    """``Database.first_row`` on PostgreSQL: one statement straight through libpq.

    psycopg hands out its libpq connection (``Connection.pgconn``, a documented API). Each
    statement is prepared once per connection under a name of ours, then run with
    PQexecPrepared: one round trip, and no BEGIN or COMMIT, since outside a transaction the
    server runs a statement as a transaction of its own, which sees every commit made before
    it. psycopg's cursor, its own statement cache and the autocommit switch it needs for the
    same single round trip cost about as much CPU as the server's answer takes.
    """

    NO_SUCH_STATEMENT = b"26000"  # invalid_sql_statement_name

    def __init__(self, dialect: Any):
        from psycopg import errors, pq

        self._pq, self._errors = pq, errors
        self._dialect = type(dialect)(paramstyle="numeric_dollar")
        self._prepared: dict[Executable, _Prepared] = {}

    def first_row(
        self, pgconn: Any, statement: Executable, params: Mapping[str, str | int]
    ) -> tuple[str | None, ...] | None:
        """The first row of *statement* on the libpq connection *pgconn*, as text (None for NULL)."""
        prepared = self._prepared.get(statement)
        if prepared is None:
            compiled = statement.compile(dialect=self._dialect)
            name = f"listbuilder_{len(self._prepared) + 1}".encode()
            prepared = self._prepared[statement] = _Prepared(
                name, str(compiled).encode(), tuple(compiled.positiontup or ())
            )
        pq = self._pq
        if pgconn.transaction_status != pq.TransactionStatus.IDLE:  # the pool rolls back what it takes back
            raise self._errors.ProgrammingError("first_row runs outside transactions, on an idle connection")
        values = [str(params[name]).encode() for name in prepared.params]
        result = pgconn.exec_prepared(prepared.name, values)
        if (
            result.status == pq.ExecStatus.FATAL_ERROR
            and result.error_field(pq.DiagnosticField.SQLSTATE) == self.NO_SUCH_STATEMENT
        ):
            # Not prepared on this connection yet, or dropped since: psycopg sends DEALLOCATE
            # ALL after rolling back a transaction in which it had prepared statements of its own.
            self._check(pq.ExecStatus.COMMAND_OK, pgconn.prepare(prepared.name, prepared.sql))
            result = pgconn.exec_prepared(prepared.name, values)
        self._check(pq.ExecStatus.TUPLES_OK, result)
        if not result.ntuples:
            return None
        return tuple(
            None if (value := result.get_value(0, column)) is None else value.decode()
            for column in range(result.nfields)
        )

    def broken(self, connection: Any) -> bool:
        """Whether the server or the network went away under this psycopg connection."""
        return connection.pgconn.status != self._pq.ConnStatus.OK

    def _check(self, status: int, result: Any) -> None:
        """Raise psycopg's exception for the SQLSTATE of a result that is not *status*."""
        if result.status == status:
            return
        sqlstate = result.error_field(self._pq.DiagnosticField.SQLSTATE)
        try:
            error = self._errors.lookup(sqlstate.decode()) if sqlstate else self._errors.OperationalError
        except KeyError:
            error = self._errors.DatabaseError
        raise error(result.error_message.decode(errors="replace").strip() or f"libpq result status {result.status}")


class _HeldConnection:
    """The connection ``Database.first_row`` runs on, kept out of the pool.

    Checking a connection out of SQLAlchemy's pool and back in (with its reset) costs as much
    CPU as the read itself on SQLite, and a third of it on PostgreSQL. A gunicorn sync worker
    has one thread, so one connection, taken from the pool once and detached from it, serves
    all its reads; a thread that finds it busy uses the pool. It only ever runs single
    statements outside a transaction, so it holds no snapshot or lock between reads: each
    read sees every commit made before it, from any process. Closed by ``Database.dispose``,
    after any error, and before the process forks (a child must never share its socket).
    """

    def __init__(self, engine: Engine):
        self.engine = engine
        self.lock = threading.Lock()
        self.connection: Any = None
        _HELD.add(self)

    def connect(self) -> Any:
        """A live connection (set up as the pool's are), detached from the pool: the pool
        pings the one it hands out (``pool_pre_ping``) and replaces it if the server dropped
        it, so a retry after a lost session never runs on another dead one."""
        raw = self.engine.raw_connection()
        raw.detach()
        self.connection = raw.dbapi_connection
        return self.connection

    def close(self) -> None:
        """Close the connection, if any (the caller holds the lock, or nobody uses it)."""
        connection, self.connection = self.connection, None
        if connection is not None:
            try:
                connection.close()
            except Exception:  # noqa: BLE001 - already broken: nothing left to close
                pass


_HELD: weakref.WeakSet[_HeldConnection] = weakref.WeakSet()


def _close_held_before_fork() -> None:
    for held in list(_HELD):
        with held.lock:
            held.close()


os.register_at_fork(before=_close_held_before_fork)


def _recorded_revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _sqlite_setup(engine: Engine) -> None:
    """WAL, full sync and foreign keys on every connection; we issue BEGIN ourselves.

    Python's sqlite3 module would otherwise begin transactions lazily in its own way; taking
    over (SQLAlchemy's documented recipe) lets writers use BEGIN IMMEDIATE.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        if mode is not None:  # None: single_read(), one statement in autocommit
            conn.exec_driver_sql(f"BEGIN {mode}")

"""Shared fixtures: the real army books (loaded once), the app and its test client."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

from listbuilder.books.loader import load_registry
from listbuilder.books.registry import BookRegistry

ROOT = Path(__file__).resolve().parent.parent
BOOKS = ROOT / "army_books"
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.fixture(scope="session")
def registry() -> BookRegistry:
    return load_registry(BOOKS)


@pytest.fixture(scope="session")
def app(registry, tmp_path_factory):
    from listbuilder.web import create_app

    database = tmp_path_factory.mktemp("db") / "app.sqlite3"
    return create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{database}"})


@pytest.fixture()
def client(app):
    return app.test_client()


# --------------------------------------------------------------------------------------------
# Databases: SQLite always; PostgreSQL when TEST_DATABASE_URL names a server (.ci/run sets it
# when one answers on 127.0.0.1:5432). Each test session makes its own PostgreSQL database
# and drops it at the end: other test runs may share the server.

BACKENDS = ["sqlite", "postgresql"]


@contextmanager
def private_postgres_database():
    """A new, uniquely named database on the TEST_DATABASE_URL server, dropped afterwards."""
    import os
    import secrets

    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    from listbuilder.store.database import normalise_url

    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        pytest.skip("TEST_DATABASE_URL is not set: the PostgreSQL half of the store tests is skipped")
    name = f"listbuilder_test_{secrets.token_hex(6)}"
    admin = create_engine(normalise_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(normalise_url(base)).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_url():
    with private_postgres_database() as url:
        yield url


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request, tmp_path_factory):
    """A migrated-once database URL per backend, shared by the session's tests of that backend."""
    if request.param == "postgresql":
        return request.getfixturevalue("postgres_url")
    return f"sqlite:///{tmp_path_factory.mktemp('store') / 'lists.sqlite3'}"


@pytest.fixture(params=BACKENDS)
def empty_database_url(request, tmp_path):
    """A database of its own for one test, empty (no migration applied yet)."""
    if request.param == "postgresql":
        with private_postgres_database() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"


@pytest.fixture(scope="session")
def db(database_url):
    from listbuilder.store import Database

    database = Database(database_url)
    database.upgrade()
    yield database
    database.dispose()


@pytest.fixture(scope="session")
def saved_app(registry, database_url, db):
    """The app on each backend's database (``db`` first: migrated once, before the app starts)."""
    from listbuilder.web import create_app

    app = create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": database_url})
    yield app
    if (opened := app.extensions.get("listbuilder.database")) is not None:
        opened.dispose()  # opened on first use


@pytest.fixture()
def saved_client(saved_app):
    return saved_app.test_client()


@contextmanager
def round_trips(db):
    """What *db* asks the database while the block runs, one entry per round trip, read from the
    drivers' own traces on every connection the pool hands out (SQLAlchemy's checkout event)
    and on the one ``first_row`` keeps out of the pool, if it is open when the block starts.

    SQLite: each SQL statement (one call into the library; ``BEGIN`` and ``COMMIT`` count).
    PostgreSQL: libpq's trace of the protocol, the messages sent before each answer the server
    ends with ReadyForQuery, e.g. ``Query "BEGIN"`` or ``Bind "" "listbuilder_1" …; Sync``.
    The list is complete when the block ends.
    """
    import re
    import tempfile

    from sqlalchemy import event

    sent: list[str] = []
    trace = tempfile.TemporaryFile("w+")
    if db.backend == "sqlite":

        def checkout(dbapi_connection, _record, _proxy):
            dbapi_connection.set_trace_callback(sent.append)

        def checkin(dbapi_connection, _record):
            dbapi_connection.set_trace_callback(None)
    else:
        from psycopg import pq

        def checkout(dbapi_connection, _record, _proxy):
            dbapi_connection.pgconn.trace(trace.fileno())
            dbapi_connection.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)

        def checkin(dbapi_connection, _record):
            if dbapi_connection is not None:  # None: the connection was invalidated
                dbapi_connection.pgconn.untrace()

    held = db._held.connection
    event.listen(db.engine, "checkout", checkout)
    event.listen(db.engine, "checkin", checkin)
    if held is not None:
        checkout(held, None, None)
    try:
        yield sent
    finally:
        event.remove(db.engine, "checkout", checkout)
        event.remove(db.engine, "checkin", checkin)
        if held is not None and db._held.connection is held:
            checkin(held, None)
        with trace:
            trace.seek(0)
            traced = trace.read().rstrip("\n")
            asked: list[str] = []
            for line in re.split(r"\n(?=[FB]\t)", traced) if traced else ():  # SQL may span lines
                direction, _length, message = line.split("\t", 2)
                if direction == "F":
                    asked.append(message.strip())
                elif message.startswith("ReadyForQuery"):
                    sent.append("; ".join(asked))
                    asked = []


@pytest.fixture(autouse=True)
def statuses_are_declared():
    """Fails a test in which an API operation answered a status its OpenAPI entry does not
    declare (tests/declared_statuses.py), or JSON its entry's schema does not allow
    (tests/answer_schemas.py: ajv)."""
    from tests.answer_schemas import violations
    from tests.declared_statuses import document_of, statuses_heard

    answers: list = []
    with statuses_heard(answers) as heard:
        yield
    assert heard == [], "\n".join(dict.fromkeys(heard))
    wrong = violations(answers, document_of)
    assert wrong == [], f"{len(wrong)} answers break their declared schemas:\n" + "\n".join(dict.fromkeys(wrong))

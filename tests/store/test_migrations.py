"""Migrations: applied at start-up by whichever process gets there first, never twice, never losing data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import inspect

from listbuilder.store import Database
from listbuilder.store.database import head_revision
from tests.store.test_lists import new_list

ROOT = Path(__file__).resolve().parents[2]
UPGRADE = "import sys; from listbuilder.store import Database; print(Database(sys.argv[1]).upgrade())"


def test_migration_files_are_named_after_their_revisions_in_one_chain():
    """head_revision() reads the newest file name instead of loading Alembic at every start."""
    from alembic.script import ScriptDirectory

    from listbuilder.store.database import alembic_config

    scripts = ScriptDirectory.from_config(alembic_config())
    chain = list(reversed(list(scripts.walk_revisions())))
    assert [Path(s.path).stem for s in chain] == [s.revision for s in chain]
    assert [s.down_revision for s in chain] == [None] + [s.revision for s in chain[:-1]]
    assert scripts.get_heads() == [head_revision()]


def test_upgrade_creates_the_tables_and_then_has_nothing_left_to_do(empty_database_url):
    db = Database(empty_database_url)
    try:
        assert db.revision() is None
        assert db.upgrade() == [head_revision()]
        assert db.revision() == head_revision()
        assert {"saved_lists", "list_versions", "book_texts"} <= set(inspect(db.engine).get_table_names())
        assert db.upgrade() == []
    finally:
        db.dispose()


def test_several_processes_starting_at_once_migrate_exactly_once(empty_database_url):
    """Gunicorn workers started without --preload each run the migrations at start-up."""
    starters = [
        subprocess.Popen(
            [sys.executable, "-c", UPGRADE, empty_database_url],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    results = [p.communicate(timeout=120) for p in starters]
    assert [p.returncode for p in starters] == [0] * 4, [err for _, err in results]
    applied = [out.strip() for out, _ in results]
    assert applied.count(str([head_revision()])) == 1 and applied.count("[]") == 3, applied


def test_upgrading_a_current_database_keeps_every_saved_list(empty_database_url, registry):
    db = Database(empty_database_url)
    try:
        db.upgrade()
        made = new_list(db, registry)
        assert db.upgrade() == []
        from listbuilder.store.lists import read_list

        assert read_list(db, made.saved.id).current.document == made.saved.current.document
    finally:
        db.dispose()


def upgrade_to(db: Database, revision: str) -> None:
    """Migrate *db* up to *revision* only, as a server of that time did."""
    from alembic import command

    from listbuilder.store.database import alembic_config

    with db.writing() as conn:
        config = alembic_config()
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


def test_0002_events_adds_the_event_tables_to_a_database_of_saved_lists(empty_database_url, registry):
    """A server that ran 0001 only (saved lists) upgrades to events and keeps its lists."""
    from listbuilder.store.lists import read_list

    db = Database(empty_database_url)
    try:
        upgrade_to(db, "0001_saved_lists")
        assert "events" not in inspect(db.engine).get_table_names()
        made = new_list(db, registry)
        db.upgrade()
        assert db.revision() == head_revision()
        tables = set(inspect(db.engine).get_table_names())
        assert {"events", "event_submissions"} <= tables
        assert read_list(db, made.saved.id).current.document == made.saved.current.document
    finally:
        db.dispose()


def test_a_new_sqlite_database_is_made_0600_in_a_0700_folder(tmp_path):
    from listbuilder.store import Database

    path = tmp_path / "instance" / "lists.sqlite3"
    db = Database(f"sqlite:///{path}")
    try:
        db.upgrade()
        assert path.parent.stat().st_mode & 0o777 == 0o700
        made = list(path.parent.iterdir())
        assert path in made and all(p.stat().st_mode & 0o777 == 0o600 for p in made), [
            (p.name, oct(p.stat().st_mode)) for p in made
        ]
    finally:
        db.dispose()


def test_0007_removes_the_rendered_rosters_of_events_deleted_before_it(empty_database_url, registry):
    """Deleting an event now removes its rendered rosters; those of events deleted earlier went with 0007."""
    from sqlalchemy import func, select, update

    from listbuilder.store.database import utcnow
    from listbuilder.store.events import events
    from listbuilder.store.rendered import event_rosters
    from tests.store.test_lists import new_event

    db = Database(empty_database_url)
    try:
        upgrade_to(db, "0006_player_keys")
        gone, kept = new_event(db, registry).event.id, new_event(db, registry).event.id
        with db.writing() as conn:
            conn.execute(
                event_rosters.insert(),
                [
                    {
                        "event_id": event_id,
                        "number": 1,
                        "paper": "a4",
                        "renderer": "r",
                        "pdf": b"%PDF",
                        "rendered_at": utcnow(),
                    }
                    for event_id in (gone, kept)
                ],
            )
            conn.execute(update(events).where(events.c.id == gone).values(deleted_at=utcnow()))
        db.upgrade()
        with db.reading() as conn:
            left = dict(
                conn.execute(select(event_rosters.c.event_id, func.count()).group_by(event_rosters.c.event_id)).all()
            )
        assert left == {kept: 1}
    finally:
        db.dispose()

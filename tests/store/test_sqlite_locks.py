"""Opening a second Database on a SQLite file must not drop the locks the process holds on it.

Closing any descriptor of a file drops every POSIX lock the process holds on that file. A
connection in WAL mode holds a shared lock on the database file for as long as it is open;
another process closing its own connection takes that file's exclusive lock to learn whether
it is the last one, and if so checkpoints and removes the WAL under the others' feet. Code that
opened and closed the database file beside SQLite's connections (as making the file 0600 once
did) let that happen, and the file ended "malformed" in the test suite, where many apps share one.
"""

from __future__ import annotations

import subprocess
import sys

from listbuilder.store import Database

# SQLite's shared-lock range on the database file (os_unix.c: PENDING_BYTE + 2, 510 bytes).
OTHER_PROCESS = """
import fcntl, sys
with open(sys.argv[1], "rb+") as file:
    try:
        fcntl.lockf(file, fcntl.LOCK_EX | fcntl.LOCK_NB, 510, 0x40000002)
    except OSError:
        print("held")
    else:
        print("free")
"""


def test_a_second_database_on_the_same_file_keeps_this_process_locks(tmp_path):
    url = f"sqlite:///{tmp_path / 'lists.sqlite3'}"
    first = Database(url)
    first.upgrade()
    with first.reading() as conn:  # an open connection: its shared lock is held
        Database(url)  # makes the file private when missing; must not touch an existing one
        other = subprocess.run(
            [sys.executable, "-c", OTHER_PROCESS, str(tmp_path / "lists.sqlite3")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert other.stdout.strip() == "held", "another process could take the lock this one holds"
        conn.exec_driver_sql("SELECT 1")
    first.dispose()

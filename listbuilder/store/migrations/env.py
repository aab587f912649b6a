"""Alembic environment: migrations run on the connection ``Database.upgrade`` hands over.

That connection is already inside the write transaction (and, on PostgreSQL, holds the
migration advisory lock), so every migration of one start-up commits or fails together.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()

"""Army books imported through the API (``POST /api/v1/books/import``); their text lives in book_texts.

Revision ID: 0003_imported_books
Revises: 0001_saved_lists (0002_events once issue 17 lands: the chain is fixed at merge)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_imported_books"
down_revision = "0002_events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "imported_books",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("system_id", sa.String(100), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("book_digest", sa.String(64), nullable=False),
        sa.Column("warnings", sa.Text(), nullable=False),
        sa.Column("source_uid", sa.String(100), nullable=False),
        sa.Column("source_version", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["book_digest"], ["book_texts.digest"], name="fk_imported_books_book_digest_book_texts"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_imported_books"),
    )


def downgrade() -> None:
    raise NotImplementedError("imported books are never dropped by a migration")

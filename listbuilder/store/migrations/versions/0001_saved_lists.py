"""Saved lists, their versions, and the army-book and system texts they were checked against.

Revision ID: 0001_saved_lists
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_saved_lists"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "book_texts",
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("stored_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("digest", name="pk_book_texts"),
    )
    op.create_table(
        "saved_lists",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("head", sa.Integer(), nullable=False),
        sa.Column("locked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_saved_lists"),
    )
    op.create_table(
        "list_versions",
        sa.Column("list_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("system_id", sa.String(100), nullable=False),
        sa.Column("book_id", sa.String(100), nullable=False),
        sa.Column("book_version", sa.String(100), nullable=False),
        sa.Column("book_digest", sa.String(64), nullable=False),
        sa.Column("system_digest", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.String(16), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["list_id"], ["saved_lists.id"], name="fk_list_versions_list_id_saved_lists"),
        sa.PrimaryKeyConstraint("list_id", "number", name="pk_list_versions"),
    )


def downgrade() -> None:
    raise NotImplementedError("saved lists are never dropped by a migration")

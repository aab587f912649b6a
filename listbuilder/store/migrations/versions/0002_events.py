"""Tournament events: the event (settings, pinned books, organiser token hash) and its submissions.

Revision ID: 0002_events
Revises: 0001_saved_lists
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_events"
down_revision = "0001_saved_lists"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("system_id", sa.String(100), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("books", sa.Text(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("allow_illegal", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
    )
    op.create_table(
        "event_submissions",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(100), nullable=False),
        sa.Column("player_key", sa.String(100), nullable=False),
        sa.Column("player_token_hash", sa.String(64), nullable=False),
        sa.Column("list_id", sa.String(32), nullable=False),
        sa.Column("list_version", sa.Integer(), nullable=False),
        sa.Column("valid", sa.Boolean(), nullable=False),
        sa.Column("report", sa.Text(), nullable=False),
        sa.Column("verification_code", sa.String(9), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_event_submissions_event_id_events"),
        sa.ForeignKeyConstraint(["list_id"], ["saved_lists.id"], name="fk_event_submissions_list_id_saved_lists"),
        sa.PrimaryKeyConstraint("event_id", "number", name="pk_event_submissions"),
    )
    op.create_index("ix_event_submissions_event_id_player_key", "event_submissions", ["event_id", "player_key"])


def downgrade() -> None:
    raise NotImplementedError("events are never dropped by a migration")

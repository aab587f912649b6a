"""Joined roster packs kept per event and paper (``listbuilder.store.rendered``), and no renders
kept for deleted events.

A pack only changes when a submission arrives, so the join is kept and later downloads read
it. Deleting an event now removes its rendered rosters; those of events deleted before this
revision are removed here.

Revision ID: 0007_event_packs
Revises: 0006_player_keys
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_event_packs"
down_revision = "0006_player_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_packs",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("paper", sa.String(16), nullable=False),
        sa.Column("renderer", sa.String(64), nullable=False),
        sa.Column("numbers", sa.Text(), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("pdf", sa.LargeBinary(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_event_packs_event_id_events"),
        sa.PrimaryKeyConstraint("event_id", "paper", name="pk_event_packs"),
    )
    op.execute("DELETE FROM event_rosters WHERE event_id IN (SELECT id FROM events WHERE deleted_at IS NOT NULL)")


def downgrade() -> None:
    op.drop_table("event_packs")  # a cache of joins: dropping it loses nothing

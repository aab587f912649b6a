"""Event rosters rendered once and kept (``listbuilder.store.rendered``): the roster pack joins them.

Revision ID: 0005_event_rosters
Revises: 0004_rounds
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_event_rosters"
down_revision = "0004_rounds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_rosters",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("paper", sa.String(16), nullable=False),
        sa.Column("renderer", sa.String(64), nullable=False),
        sa.Column("pdf", sa.LargeBinary(), nullable=False),
        sa.Column("rendered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_event_rosters_event_id_events"),
        sa.PrimaryKeyConstraint("event_id", "number", "paper", name="pk_event_rosters"),
    )


def downgrade() -> None:
    op.drop_table("event_rosters")  # a cache of renders: dropping it loses nothing

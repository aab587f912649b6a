"""A submission the organiser undid (issue 35): ``event_submissions.undone_at``.

Before round 1 the organiser may undo a player's newest submission (a list sent by mistake, a
name typed wrong). The row stays, as the record of what was submitted; ``undone_at`` is set
once and the row counts nowhere after it (the entries, the player's token, the name, the list,
the player cap). Numbers are never reused: the next submission still takes the highest + 1.

Revision ID: 0008_undone_submissions
Revises: 0007_event_packs
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_undone_submissions"
down_revision = "0007_event_packs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("event_submissions", sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("event_submissions", "undone_at")

"""Answers of the day computed once per change (issue 35): ``events.changes`` and ``event_answers``.

Every write to an event's day (a submission, a round, a result, an organiser's change) adds
one to ``events.changes``, with the event's row locked. The standings and each round's answer
are computed from the day at most once per value of it and kept in ``event_answers``; a read
whose counter matches the kept row answers that row, and a client holding its ETag gets 304
after reading one row. A player's token is found by its hash with an index, not by reading
every player's.

Revision ID: 0009_kept_answers
Revises: 0008_undone_submissions
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_kept_answers"
down_revision = "0008_undone_submissions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("changes", sa.Integer(), nullable=False, server_default="0"))
    op.create_index("ix_event_submissions_token", "event_submissions", ["event_id", "player_token_hash"])
    op.create_table(
        "event_answers",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("part", sa.String(40), nullable=False),
        sa.Column("changes", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(64), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_event_answers_event_id_events"),
        sa.PrimaryKeyConstraint("event_id", "part", name="pk_event_answers"),
    )


def downgrade() -> None:
    op.drop_table("event_answers")  # a cache: dropping it loses nothing
    op.drop_index("ix_event_submissions_token", "event_submissions")
    op.drop_column("events", "changes")

"""The tournament day: rounds and their tables, results as entered, the organiser's log; events can be deleted.

Revision ID: 0004_rounds
Revises: 0003_imported_books
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_rounds"
down_revision = "0003_imported_books"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "event_rounds",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_event_rounds_event_id_events"),
        sa.PrimaryKeyConstraint("event_id", "number", name="pk_event_rounds"),
    )
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player_a", sa.String(100), nullable=False),
        sa.Column("player_b", sa.String(100), nullable=True),
        sa.ForeignKeyConstraint(
            ["event_id", "round"],
            ["event_rounds.event_id", "event_rounds.number"],
            name="fk_event_tables_event_id_event_rounds",
        ),
        sa.PrimaryKeyConstraint("event_id", "round", "number", name="pk_event_tables"),
    )
    op.create_table(
        "event_results",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("entered_by", sa.String(100), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id", "round"],
            ["event_rounds.event_id", "event_rounds.number"],
            name="fk_event_results_event_id_event_rounds",
        ),
        sa.PrimaryKeyConstraint("event_id", "round", "seq", name="pk_event_results"),
    )
    op.create_table(
        "event_log",
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("logged_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_event_log_event_id_events"),
        sa.PrimaryKeyConstraint("event_id", "seq", name="pk_event_log"),
    )


def downgrade() -> None:
    raise NotImplementedError("the tournament day's records are never dropped by a migration")

"""Player keys sized by what folding can produce: ``event_submissions.player_key`` becomes text.

A player name is at most 100 characters, but its folded key (NFKC, then case folding) can be
longer: "ß" folds to "ss", "ﬃ" to "ffi", "ﷺ" to 18 characters, so a 100-character name can
give 1800 characters (3300 bytes). ``String(100)`` made such a name a 500 on PostgreSQL. The
column becomes unbounded text, and its B-tree index (whose entries must stay under about 2.7
KB) a hash index on PostgreSQL, which keeps only a hash of the key, so no key is too long for
it; lookups by event and key use the primary key's event prefix and this index.

Revision ID: 0006_player_keys
Revises: 0005_event_rosters
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_player_keys"
down_revision = "0005_event_rosters"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_event_submissions_event_id_player_key", table_name="event_submissions")
    if op.get_bind().dialect.name == "postgresql":  # SQLite never enforced the length
        op.alter_column(
            "event_submissions", "player_key", type_=sa.Text(), existing_type=sa.String(100), existing_nullable=False
        )
    op.create_index("ix_event_submissions_player_key", "event_submissions", ["player_key"], postgresql_using="hash")


def downgrade() -> None:
    raise NotImplementedError("player keys are never shortened by a migration")

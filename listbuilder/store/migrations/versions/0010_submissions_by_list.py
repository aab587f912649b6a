"""Submissions found by their list (issue 37): an index on ``event_submissions.list_id``.

A saved list's answer names the events it was submitted to, read in the same statement as
the list (``store/lists.read_list``), and the read path's freshness check counts them
(``read_head``): without the index each read of a locked list scanned every submission of
every event.

Revision ID: 0010_submissions_by_list
Revises: 0009_kept_answers
"""

from __future__ import annotations

from alembic import op

revision = "0010_submissions_by_list"
down_revision = "0009_kept_answers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_event_submissions_list", "event_submissions", ["list_id"])


def downgrade() -> None:
    op.drop_index("ix_event_submissions_list", "event_submissions")

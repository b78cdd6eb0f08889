"""How a finished match ended: tables.result, JSON ``{"scores", "winners", "side"}``, written
with the match's last action.

The lobby's list of finished tables said only "Game 5 of 5": who won was read by opening
each table (a ninth session's leftover). A table finished before this revision has none.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("result", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:  # SQLite drops columns by copying
        batch.drop_column("result")

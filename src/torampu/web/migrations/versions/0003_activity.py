"""tables.updated and tables.games_played: the lobby and the limits read them from the rows.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("updated", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "tables", sa.Column("games_played", sa.Integer(), nullable=False, server_default="0")
    )
    op.execute("UPDATE tables SET updated = created")
    op.create_index("ix_tables_status_updated", "tables", ["status", "updated"])


def downgrade() -> None:
    op.drop_index("ix_tables_status_updated", "tables")
    with op.batch_alter_table("tables") as batch:  # SQLite drops columns by copying
        batch.drop_column("games_played")
        batch.drop_column("updated")

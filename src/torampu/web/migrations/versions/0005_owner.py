"""Who made a table: tables.owner, a hash of the address that created it.

The per-address cap on open tables (``--tables-per-address``) counts a client's tables by it,
and the search workers take turns by it after a restart as before one. Tables made before this
revision have none and count for nobody.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("owner", sa.String(32), nullable=True))
    op.create_index("ix_tables_owner", "tables", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_tables_owner", "tables")
    with op.batch_alter_table("tables") as batch:  # SQLite drops columns by copying
        batch.drop_column("owner")

"""Private tables: tables.invite, the SHA-256 hex of a private table's invite secret.

A table with one is left out of the lobby's list, and only its invite (or a seat token or the
host token of the table) opens it. Tables made before this revision have none: public, as
they were.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("invite", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:  # SQLite drops columns by copying
        batch.drop_column("invite")

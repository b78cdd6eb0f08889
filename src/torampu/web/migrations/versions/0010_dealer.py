"""The seat that deals a table's first game: tables.dealer (0 for every table made before).

Every table's first game was dealt by seat 0, and so was its rematch's, and the next: in a
one-deal Hell match the same player was the dealer the hook restricts, and led, at each
rematch (a seventeenth review). A rematch deals first from the seat after its table's.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("dealer", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:  # SQLite drops columns by copying
        batch.drop_column("dealer")

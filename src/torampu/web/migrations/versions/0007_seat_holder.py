"""Who took a seat: seats.holder, a hash of the address that took it (as tables.owner); and
the barred table: the addresses a host put out of a seat, which take no seat there again.

The per-address cap on seats at waiting tables (``--seats-per-address``) counts a client's
seats by it: one address could take every open seat of every public table and take back at
once any seat its host opened again (a fourth audit). Seats taken before this revision have
none and count for nobody.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("holder", sa.String(32), nullable=True))
    op.create_index("ix_seats_holder", "seats", ["holder"])
    op.create_table(
        "barred",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("holder", sa.String(32), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("barred")
    op.drop_index("ix_seats_holder", "seats")
    with op.batch_alter_table("seats") as batch:  # SQLite drops columns by copying
        batch.drop_column("holder")

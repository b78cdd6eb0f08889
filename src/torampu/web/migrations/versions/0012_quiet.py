"""Since when nobody has been at a table in play: tables.quiet (null: someone was, as far as
its driver last knew, or a table from before).

A restarted process read back a table in play and counted "nobody there" from its row's last
change — which its own bots' moves kept new — so a table whose bots had stopped for nobody
played on for up to ``--abandon-after`` more after each restart (a thirteenth scale audit).
The process driving a table now writes when its last person left (and clears it when someone
comes), and a table read back, or listed by a process that has not loaded it, counts from it.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("quiet", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:  # SQLite drops columns by copying
        batch.drop_column("quiet")

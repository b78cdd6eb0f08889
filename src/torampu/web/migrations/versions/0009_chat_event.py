"""Changes of the seats said in the chat: chat.event, JSON ``{"kind", "seat", "who", …}``.

"Aki took seat 3", "Ben moved from seat 2 to seat 4", "たけし is now タケシ" were lines each page
drew from the snapshots it saw, so a later arrival or a reloaded page never read them (a
fourteenth review). They are stored with the table's chat now; a message has none.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chat", sa.Column("event", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:  # SQLite drops columns by copying
        batch.drop_column("event")

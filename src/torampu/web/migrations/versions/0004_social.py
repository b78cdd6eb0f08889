"""Between games, rematches, chat: tables.features, tables.rematch, chat and ready marks.

``tables.features`` (JSON text) holds what the host allowed at creation (spectators in the
chat, learner hints); ``tables.rematch`` the id of the table that continues this one after a
rematch. ``chat`` keeps a table's messages (the newest are sent on ``hello``); ``ready`` the
seats that said they are ready for game ``game`` (the game that has just finished).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("features", sa.Text(), nullable=True))
    op.add_column("tables", sa.Column("rematch", sa.String(32), nullable=True))
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.String(1000), nullable=True),
        sa.Column("reaction", sa.String(32), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id", "id"])
    op.create_table(
        "ready",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("ready")
    op.drop_index("ix_chat_table_id", "chat")
    op.drop_table("chat")
    with op.batch_alter_table("tables") as batch:  # SQLite drops columns by copying
        batch.drop_column("rematch")
        batch.drop_column("features")

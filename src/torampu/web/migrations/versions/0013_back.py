"""The version at which a seat's person came back to the table in play, and when: seats.back and
seats.back_at (null: never).

A stand-in's move (a worker's, for a player away) was checked against the presence on Redis,
then stored: a player who said hello again in between was shown their turn and saw the bot
play it a moment later (a forty-fifth audit, 2 of some 70 timed returns). A returning player's
hello now marks their seat, under the table row's lock, at the stored version it then reads;
a stand-in's move for that version is refused for a few seconds after (not for good: a
player who came back and left again at once would have held the table there).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("back", sa.Integer(), nullable=True))
    op.add_column("seats", sa.Column("back_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:  # SQLite drops columns by copying
        batch.drop_column("back_at")
        batch.drop_column("back")

"""The card room's conduct table (rule book Article XI): reports, strikes and disputes.

Chained after ``0002`` (amounts in cents, display names): one line of history, ``Store.open``
upgrades to the single head.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "conduct",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("account", sa.String(40), nullable=False),
        sa.Column("by", sa.String(40), nullable=False),
        sa.Column("room_id", sa.String(40), nullable=True),
        sa.Column("hand", sa.String(80), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_conduct_account", "conduct", ["account"])


def downgrade() -> None:
    op.drop_index("ix_conduct_account", "conduct")
    op.drop_table("conduct")

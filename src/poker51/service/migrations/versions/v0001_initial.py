"""The first schema: accounts, ledger, receipts, answers, rooms, journal, events, hands.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("token_hash", sa.String(64), unique=True, nullable=True),
        sa.Column("bank", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("recovered", sa.Float, nullable=False),
        sa.CheckConstraint("kind = 'house' OR bank >= 0", name="ck_accounts_bank"),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("delta", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("ref", sa.String(120), nullable=False),
        sa.Column("room_id", sa.String(40), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_ledger_account_id", "ledger", ["account_id"])
    op.create_table(
        "receipts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("receipt_id", sa.String(120), nullable=False),
        sa.Column("room_id", sa.String(40), nullable=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("account_id", "receipt_id", name="uq_receipts_account_id"),
    )
    op.create_table(
        "answers",
        sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("action_id", sa.String(64), primary_key=True),
        sa.Column("room_id", sa.String(40), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("rules", sa.String(20), nullable=False),
        sa.Column("owner", sa.String(40), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("closed", sa.Float, nullable=True),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    op.create_table(
        "journal",
        sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("entry", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("audience", sa.String(60), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("rules", sa.String(20), nullable=False),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("log", sa.Text, nullable=False),
    )
    op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.String(80), sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("net", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    for name in ("hand_players", "hands", "events", "journal", "rooms", "answers", "receipts", "ledger", "accounts"):
        op.drop_table(name)

"""Every amount in cents (1 jbit = 100 cents), and a display name per account.

The five-seat tables (``poker51.multi``) count cents: a split pot can leave a stack of 334
cents, so the store counts cents too, one unit end to end.  Existing banks, ledger deltas and
hand nets are multiplied by 100; receipts already carry ``amount_cents`` and are left as they
are; stored answers (acks) keep the bytes they were first sent with (a replayed id returns them
unchanged, their ``bank`` in jbits).  ``accounts.name`` is the display name shown at a table
(NULL for accounts made before it: the page then shows "Player" and the id's first characters).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name", sa.String(40), nullable=True))
    op.execute("UPDATE accounts SET bank = bank * 100")
    op.execute("UPDATE ledger SET delta = delta * 100")
    op.execute("UPDATE hand_players SET net = net * 100")


def downgrade() -> None:
    op.execute("UPDATE hand_players SET net = net / 100")
    op.execute("UPDATE ledger SET delta = delta / 100")
    op.execute("UPDATE accounts SET bank = bank / 100")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name")

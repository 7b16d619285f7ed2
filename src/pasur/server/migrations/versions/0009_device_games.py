"""Results of matches played on a device with no server and added to an account afterwards: kept
as any finished match's, marked as played on a device (never rated, never counted in a player's
games, wins or figures).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results") as results:
        results.add_column(sa.Column("device", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("results") as results:
        results.drop_column("device")

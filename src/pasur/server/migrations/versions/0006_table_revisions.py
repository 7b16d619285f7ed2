"""Each table's revision: it counts the changes of the table itself (seats, settings, status), so
that a process changes the table only as it last read it; two processes joining, starting or
moving seats at once never give one seat twice or lose a change.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.drop_column("revision")

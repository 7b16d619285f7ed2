"""Each table's revision: it counts the changes of the table itself (seats, settings, status), so
that a process changes the table only as it last read it; two processes joining, starting or
moving seats at once never give one seat twice or lose a change. And each finished match's
judgement, kept once it is whole (reading it again never thinks it out again).

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
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("made", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
    with op.batch_alter_table("tables") as table:
        table.drop_column("revision")

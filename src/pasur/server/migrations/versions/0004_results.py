"""Results: each finished match once, and who sat where (with their account when signed in).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("finished", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("scores", sa.Text(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=False),
    )
    op.create_index("ix_results_finished", "results", ["finished"])
    op.create_table(
        "result_seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("results.table_id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_result_seats_account_id", "result_seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_result_seats_account_id", "result_seats")
    op.drop_table("result_seats")
    op.drop_index("ix_results_finished", "results")
    op.drop_table("results")

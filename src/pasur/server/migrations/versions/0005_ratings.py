"""Ratings and friends: each account's rating per player count (2, or 4 in partnership); with each
move whether the turn timer played it for a person (a rated match's absent player loses); the
invitations to tables and the blocks between accounts; with each result
whether it was rated and how it ended, and with each seat its rating change and its side's
points, Surs and Haft Khaj.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: Columns added to result_seats: (name, type, server default).
_SEAT_COLUMNS = (
    ("rating_before", sa.Float(), None),
    ("rating_after", sa.Float(), None),
    ("deviation_after", sa.Float(), None),
    ("rounds", sa.Integer(), "0"),
    ("points", sa.Integer(), "0"),
    ("surs", sa.Integer(), "0"),
    ("haft_khaj", sa.Integer(), "0"),
)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.String(40), nullable=False),
    )
    op.create_index("ix_ratings_players_value", "ratings", ["players", "value"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("from_account", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_account", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("made", sa.String(40), nullable=False),
        sa.UniqueConstraint("table_id", "to_account"),
    )
    op.create_index("ix_invitations_to_account", "invitations", ["to_account"])
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("made", sa.String(40), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    with op.batch_alter_table("moves") as moves:
        moves.add_column(sa.Column("timed", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("results") as results:
        results.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
        results.add_column(sa.Column("ended", sa.String(16), nullable=True))
    with op.batch_alter_table("result_seats") as seats:
        for name, kind, default in _SEAT_COLUMNS:
            seats.add_column(sa.Column(name, kind, nullable=default is None, server_default=default))


def downgrade() -> None:
    with op.batch_alter_table("result_seats") as seats:
        for name, _, _ in reversed(_SEAT_COLUMNS):
            seats.drop_column(name)
    with op.batch_alter_table("results") as results:
        results.drop_column("ended")
        results.drop_column("rated")
    with op.batch_alter_table("moves") as moves:
        moves.drop_column("timed")
    op.drop_index("ix_blocks_blocked_id", "blocks")
    op.drop_table("blocks")
    op.drop_index("ix_invitations_to_account", "invitations")
    op.drop_table("invitations")
    op.drop_index("ix_ratings_players_value", "ratings")
    op.drop_table("ratings")

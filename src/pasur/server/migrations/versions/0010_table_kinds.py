"""Ratings by the kind of table (`pasur.Rules.table`: "2", "3", "4" in partnership, "4-each"),
not by the player count, so that four players each for themselves are rated apart from four in
partnership; and with each result its kind of table. Every rating kept is at "2", "3" or "4" (a
table of four was rated only in partnership); a result of four whose seats sit on more than two
sides was each for themselves. Downgrading drops the ratings at "4-each".

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_EACH_FOR_THEMSELVES = (
    "EXISTS (SELECT 1 FROM result_seats WHERE result_seats.table_id = results.table_id AND result_seats.side > 1)"
)


def _ratings(name: str, key: "sa.Column[object]") -> None:
    """A ratings table called ``name``, keyed by the account and ``key``."""
    op.create_table(
        name,
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        key,
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.String(40), nullable=False),
    )


def _replace_ratings(key: "sa.Column[object]", copy: str, old_index: str, new_index: tuple[str, list[str]]) -> None:
    """Rebuild the ratings table keyed by ``key``, its rows copied by the SELECT ``copy``."""
    _ratings("ratings_rebuilt", key)
    op.execute(f"INSERT INTO ratings_rebuilt (account_id, {key.name}, value, deviation, games, updated) {copy}")
    op.drop_index(old_index, table_name="ratings")
    op.drop_table("ratings")
    op.rename_table("ratings_rebuilt", "ratings")
    op.create_index(new_index[0], "ratings", new_index[1])


def upgrade() -> None:
    with op.batch_alter_table("results") as results:
        results.add_column(sa.Column("kind", sa.String(8), nullable=True))
    op.execute(
        f"UPDATE results SET kind = CASE WHEN players = 4 AND {_EACH_FOR_THEMSELVES} THEN '4-each' "
        "ELSE CAST(players AS VARCHAR(8)) END"
    )
    with op.batch_alter_table("results") as results:
        results.alter_column("kind", existing_type=sa.String(8), nullable=False)
    _replace_ratings(
        sa.Column("kind", sa.String(8), primary_key=True),
        "SELECT account_id, CAST(players AS VARCHAR(8)), value, deviation, games, updated FROM ratings",
        "ix_ratings_players_value",
        ("ix_ratings_kind_value", ["kind", "value"]),
    )


def downgrade() -> None:
    _replace_ratings(
        sa.Column("players", sa.Integer(), primary_key=True),
        "SELECT account_id, CAST(kind AS INTEGER), value, deviation, games, updated FROM ratings "
        "WHERE kind IN ('2', '3', '4')",
        "ix_ratings_kind_value",
        ("ix_ratings_players_value", ["players", "value"]),
    )
    with op.batch_alter_table("results") as results:
        results.drop_column("kind")

"""Every account's name key made again with today's skeleton (which now also sees through blanks
and Unicode's confusables), so that a name stored under an older skeleton is kept apart from its
look-alikes as a new one is. Where two stored names now share a skeleton, the older account keeps
it and the later one a key of its own (the skeleton, a space and its id: a space is never in a
skeleton); the later one still signs in and is found by its exact name.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

from pasur.server.names import skeleton

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    connection = op.get_bind()
    query = sa.select(sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key", sa.String))
    accounts = connection.execute(query.select_from(sa.table("accounts")).order_by(sa.column("id"))).all()
    keys: dict[int, str] = {}
    taken: set[str] = set()
    for account_id, name, _ in accounts:
        key = skeleton(name)
        keys[account_id] = f"{key} {account_id}" if key in taken else key
        taken.add(key)
    changed = [(account_id, keys[account_id]) for account_id, _, old in accounts if keys[account_id] != old]
    rekey = sa.text("UPDATE accounts SET name_key = :key WHERE id = :id")
    # first out of each other's way (a new key may be another account's old one), then the new keys
    for account_id, _ in changed:
        connection.execute(rekey, {"id": account_id, "key": f" {account_id}"})
    for account_id, key in changed:
        connection.execute(rekey, {"id": account_id, "key": key})


def downgrade() -> None:
    """Nothing to undo: the keys stay unique, and an older pasur signs an account in by its exact
    name too."""

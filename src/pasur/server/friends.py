"""Friends, lightly: a signed-in player at an open table invites another account (the invitation
shows in their lobby until the table starts), and an account blocks another (the blocked one can
no longer invite them, and neither reads the other's lines at a table's chat)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from .errors import Forbidden, NoSuchTable, TableError
from .names import account_named
from .rows import AccountRow, BlockRow, InvitationRow, TableRow
from .seats import TableStatus
from .store import Store, storage

#: The most invitations one table may send.
INVITATIONS_PER_TABLE = 20
#: The most invitations a lobby lists, and the most accounts one may block.
LISTED = 20
MOST_BLOCKED = 500


def _account(session: Session, name: str) -> AccountRow:
    """The account called ``name`` (as names compare); NoSuchTable (404) when none is."""
    row = account_named(session, name)
    if row is None:
        raise NoSuchTable("no_such_player", name=name[:64])
    return row


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@storage
def invite(store: Store, table_id: str, from_account: int, name: str) -> str:
    """Invite the account called ``name`` to the open table; their name as written. Refused for
    oneself, between accounts where either blocked the other, past `INVITATIONS_PER_TABLE`."""
    with Session(store.engine) as session, session.begin():
        invited = _account(session, name)
        if invited.id == from_account:
            raise TableError("invite_self")
        if _blocked(session, {from_account, invited.id}):
            raise Forbidden("invite_blocked", name=invited.name)
        sent = session.scalars(select(InvitationRow).where(InvitationRow.table_id == table_id)).all()
        if len(sent) >= INVITATIONS_PER_TABLE:
            limit = INVITATIONS_PER_TABLE
            raise TableError("too_many_invitations", limit=limit)
        if invited.id not in {row.to_account for row in sent}:  # invited already: once is enough
            session.add(InvitationRow(table_id=table_id, from_account=from_account, to_account=invited.id, made=_now()))
        return invited.name


@storage
def invitations(store: Store, account_id: int) -> list[dict[str, Any]]:
    """The invitations to ``account_id`` whose tables still wait for people, newest first."""
    with Session(store.engine) as session:
        rows = session.execute(
            select(InvitationRow, AccountRow.name, TableRow.settings)
            .join(AccountRow, AccountRow.id == InvitationRow.from_account)
            .join(TableRow, TableRow.id == InvitationRow.table_id)
            .where(InvitationRow.to_account == account_id, TableRow.status == TableStatus.OPEN.value)
            .order_by(InvitationRow.id.desc())
            .limit(LISTED)
        ).all()
    listed = []
    for invitation, name, settings in rows:
        table = json.loads(settings)
        listed.append(
            {
                "id": invitation.id,
                "from": name,
                "table": invitation.table_id,
                "players": table["rules"].get("players", 2),
                "rated": table.get("rated", False) is True,
                "made": invitation.made,
            }
        )
    return listed


@storage
def decline(store: Store, account_id: int, invitation_id: int) -> None:
    """Drop an invitation to ``account_id`` (another's is never touched)."""
    with Session(store.engine) as session, session.begin():
        session.execute(
            delete(InvitationRow).where(InvitationRow.id == invitation_id, InvitationRow.to_account == account_id)
        )


@storage
def block(store: Store, account_id: int, name: str) -> str:
    """``account_id`` blocks the account called ``name`` (their invitations to it go too); the
    name as written."""
    with Session(store.engine) as session, session.begin():
        blocked = _account(session, name)
        if blocked.id == account_id:
            raise TableError("block_self")
        count = len(session.scalars(select(BlockRow.blocked_id).where(BlockRow.account_id == account_id)).all())
        if count >= MOST_BLOCKED:
            raise TableError("too_many_blocked", limit=MOST_BLOCKED)
        if session.get(BlockRow, (account_id, blocked.id)) is None:
            session.add(BlockRow(account_id=account_id, blocked_id=blocked.id, made=_now()))
        session.execute(
            delete(InvitationRow).where(
                InvitationRow.from_account == blocked.id, InvitationRow.to_account == account_id
            )
        )
        return blocked.name


@storage
def unblock(store: Store, account_id: int, name: str) -> None:
    with Session(store.engine) as session, session.begin():
        blocked = _account(session, name)
        session.execute(delete(BlockRow).where(BlockRow.account_id == account_id, BlockRow.blocked_id == blocked.id))


@storage
def blocked_names(store: Store, account_id: int) -> list[str]:
    """The names ``account_id`` has blocked, in order."""
    with Session(store.engine) as session:
        return sorted(
            session.scalars(
                select(AccountRow.name)
                .join(BlockRow, BlockRow.blocked_id == AccountRow.id)
                .where(BlockRow.account_id == account_id)
            ).all()
        )


def _blocked(session: Session, accounts: set[int]) -> set[frozenset[int]]:
    rows = session.execute(
        select(BlockRow.account_id, BlockRow.blocked_id).where(
            BlockRow.account_id.in_(accounts), BlockRow.blocked_id.in_(accounts)
        )
    ).all()
    return {frozenset(row) for row in rows}


@storage
def blocked_pairs(store: Store, accounts: set[int]) -> set[frozenset[int]]:
    """The pairs among ``accounts`` where one blocked the other."""
    if len(accounts) < 2:
        return set()
    with Session(store.engine) as session:
        return _blocked(session, accounts)


def forget(session: Session, account_id: int) -> None:
    """A deleted account's invitations and blocks go (either way)."""
    session.execute(
        delete(InvitationRow).where(
            or_(InvitationRow.from_account == account_id, InvitationRow.to_account == account_id)
        )
    )
    session.execute(delete(BlockRow).where(or_(BlockRow.account_id == account_id, BlockRow.blocked_id == account_id)))

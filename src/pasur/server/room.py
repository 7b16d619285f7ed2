"""What a table's collaborators (replication, pacing, chat, hints, analysis) may use of the table:
the small interface `tables.TableRoom`, its master, offers them. They depend on this, not
on the master, so the master can hold them without an import circle."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from ..core import Match, MoveCode, Rules
from .audience import Audience
from .bots import BotPool
from .seats import Seat, TableSettings, TableStatus
from .shared import Hub
from .store import Store, StoredMove, StoredTable

T = TypeVar("T")


class Room(Protocol):
    """One table as its collaborators see it."""

    id: str
    settings: TableSettings
    status: TableStatus
    store: Store | None
    bots: BotPool | None
    hub: Hub | None
    owner: str
    audience: Audience
    match: Match | None
    version: int
    #: The table's revision as last stored or read (see `store.Store.update_table()`).
    revision: int
    waiting: frozenset[int] | None
    #: When the table last changed here (``time.monotonic()``).
    changed_at: float
    #: Held while the table changes (see TableRoom).
    changing: asyncio.Lock

    @property
    def rules(self) -> Rules: ...

    @property
    def seats(self) -> tuple[Seat, ...]: ...

    def tell(self, kind: str, **fields: Any) -> None:
        """Announce a change of the table to the other server processes."""

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is the host's."""

    async def take(self, settings: TableSettings | None = None, status: TableStatus | None = None) -> None:
        """Store the table with ``settings`` and ``status``, then take them (with the table held)."""

    async def again_if_changed(self, change: Callable[[], Awaitable[T]]) -> T:
        """``change`` (with the table held), made again while another process changed it first."""

    async def settle(self, change: Callable[[], Awaitable[T]]) -> T:
        """``change`` made with the table held, again while another process changed it first."""

    def offered(self, stored: StoredTable) -> TableSettings:
        """A stored copy of the table's settings, checked against the levels offered here."""

    def replay(self, moves: list[StoredMove]) -> None:
        """Play moves stored elsewhere on this copy."""

    async def changed(self) -> None:
        """Send every listener its projection; then schedule what happens without a person."""

    async def apply(self, seat: int, code: MoveCode, client_id: str | None = None, timed: bool = False) -> None:
        """Store a legal move, then play it (with the table held); ``timed``: the turn timer's."""

    async def ready(self, seat: int | None, tell: bool = True) -> None:
        """``seat`` is ready for the next deal (None: the wait is over)."""

    def round_under_way(self) -> Match:
        """The match while a round is played; TableError otherwise."""

    def must_be_turn_of(self, match: Match, seat: int) -> None:
        """TableError unless ``seat`` is to play."""

    def finished_match(self) -> Match:
        """The match once it is over; TableError before."""

"""One table's chat: the recent lines of each channel, saying a line, and the lines other processes
said (`chat` has what a line may say and who reads it). Two people at the table of whom one
blocked the other (`friends`) do not read each other's lines."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from typing import Any

from . import messages
from .chat import KEPT_LINES, Channel, ChatLine, chat_phrase, chat_text, kept_lines
from .errors import StorageUnavailable, TableError, TooManyRequests
from .friends import blocked_pairs
from .names import person_name
from .room import Room


class TableChat:
    """The chat of one table: its recent lines per channel, sent to whoever listens on each."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.lines: dict[Channel, deque[ChatLine]] = kept_lines()

    def __getitem__(self, channel: Channel) -> deque[ChatLine]:
        """The recent lines of ``channel``, oldest first."""
        return self.lines[channel]

    def recent(self, seat: int | None) -> list[dict[str, Any]]:
        """The recent lines of the channel of ``seat`` (None: a spectator's) that it reads, as sent."""
        apart = self._apart()
        return [
            messages.chat(line.stored())
            for line in self.lines[Channel.of(seat)]
            if frozenset((seat, line.seat)) not in apart
        ]

    def _apart(self) -> set[frozenset[int | None]]:
        """The pairs of seats whose people do not read each other (one blocked the other)."""
        room = self.room
        accounts = {seat.account: index for index, seat in enumerate(room.seats) if seat.account is not None}
        if room.store is None or len(accounts) < 2:
            return set()
        pairs: set[frozenset[int]] = set()
        with contextlib.suppress(StorageUnavailable):  # the chat goes on while the database does not answer
            pairs = blocked_pairs(room.store, set(accounts))
        return {frozenset(accounts[account] for account in pair) for pair in pairs}

    def read_stored(self) -> None:
        """Take the table's recent lines from the store."""
        room = self.room
        if room.store is None:
            return
        for channel in Channel:
            self.lines[channel].extend(ChatLine.read(line) for line in room.store.chat(room.id, channel, KEPT_LINES))

    async def say(
        self, seat: int | None, text: str | None, phrase: str | None, name: str | None, may_say: Callable[[], bool]
    ) -> dict[str, Any]:
        """A line from ``seat`` (None: a spectator, who may give a ``name``), told to its channel
        and stored, if ``may_say`` (the writer's pace) allows; TableError says what is wrong with
        it, and nothing is said then."""
        room = self.room
        if (text is None) == (phrase is None):
            raise TableError("chat_empty")
        channel = Channel.of(seat)
        shown = (room.seats[seat].name or "") if seat is not None else person_name(name) if name else "spectator"
        line = ChatLine(
            channel,
            seat,
            shown,
            text=chat_text(text) if text is not None else None,
            phrase=chat_phrase(phrase) if phrase is not None else None,
        )
        if not may_say():
            raise TooManyRequests("chat_too_fast")
        if room.store is not None:  # in a thread: a slow or locked database holds up only this line
            await asyncio.to_thread(room.store.add_chat, room.id, line.stored())
        room.tell("chat", line=line.stored())
        await self.heard(line)
        return messages.said()

    async def heard(self, line: ChatLine) -> None:
        """Keep a line said here or in another process, and send it to its channel's listeners."""
        self.lines[line.channel].append(line)
        self._send(line)

    async def reread(self) -> None:
        """Read the table's recent chat again: lines said in other processes whose notices were
        lost are kept, and sent to whoever listens on their channel here."""
        room = self.room
        if room.store is None:
            return
        for channel in Channel:
            stored = [ChatLine.read(line) for line in room.store.chat(room.id, channel, KEPT_LINES)]
            for line in unseen(list(self.lines[channel]), stored):
                await self.heard(line)

    def _send(self, line: ChatLine) -> None:
        apart = self._apart()
        self.room.audience.send_where(
            messages.chat(line.stored()),
            lambda listener: (
                Channel.of(listener.seat) is line.channel and frozenset((listener.seat, line.seat)) not in apart
            ),
        )


def unseen(known: list[ChatLine], stored: list[ChatLine]) -> list[ChatLine]:
    """The lines at the end of ``stored`` (the latest, oldest first) that ``known`` lacks: after
    the longest start of ``stored`` with which ``known`` ends."""
    if not known:
        return stored
    for kept in range(len(stored), -1, -1):
        overlap = min(kept, len(known))
        if stored[kept - overlap : kept] == known[len(known) - overlap :]:
            return stored[kept:]
    return stored

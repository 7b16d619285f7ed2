"""Who is connected to a table: each listener (a browser's WebSocket) with its seat, how many
watch, and the small presence message that tells everyone when someone comes or goes. A message
is posted to a listener, never awaited: its socket sends it in its own time (`outbox`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import messages
from .errors import TableError

#: A listener: what takes a JSON-ready message for it, at once (a socket's outbox, in the app).
Post = Callable[[dict[str, Any]], None]

#: Seconds over which spectators coming and going are told as one presence message.
PRESENCE_SECONDS = 0.25


@dataclass
class Listener:
    post: Post
    seat: int | None


@dataclass
class Audience:
    """The listeners of one table of ``seats`` seats, at most ``spectator_limit`` of them watching."""

    seats: int
    spectator_limit: int = 20
    listeners: list[Listener] = field(default_factory=list)
    #: When someone last came or went (``time.monotonic()``).
    touched: float = field(default_factory=time.monotonic)
    _presence: asyncio.TimerHandle | None = None

    def add(self, post: Post, seat: int | None) -> Listener:
        """A new listener; TableError when a spectator finds the table full."""
        if seat is None and self.spectators() >= self.spectator_limit:
            limit = self.spectator_limit
            raise TableError("too_many_spectators", limit=limit)
        listener = Listener(post, seat)
        self.listeners.append(listener)
        self.touched = time.monotonic()
        self._presence_changed()
        return listener

    def remove(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)
            self.touched = time.monotonic()
            self._presence_changed()

    def spectators(self) -> int:
        return sum(1 for listener in self.listeners if listener.seat is None)

    def connected(self) -> list[bool]:
        """For each seat, whether someone is connected to it."""
        present = {listener.seat for listener in self.listeners}
        return [index in present for index in range(self.seats)]

    def presence(self) -> dict[str, Any]:
        """Who is here: each seat's connection, and how many watch."""
        return messages.presence(self.connected(), self.spectators())

    def send_each(self, message_for: Callable[[Listener], dict[str, Any]]) -> None:
        """Send every listener its own message."""
        for listener in self.listeners:
            listener.post(message_for(listener))

    def send_where(self, message: dict[str, Any], wanted: Callable[[Listener], bool]) -> None:
        """Send ``message`` to the listeners ``wanted`` says."""
        for listener in self.listeners:
            if wanted(listener):
                listener.post(message)

    def _presence_changed(self) -> None:
        """Someone came or went: everyone is told in one small message, once for every change
        within `PRESENCE_SECONDS` (never a whole state per coming and going)."""
        if self._presence is None:
            self._presence = asyncio.get_running_loop().call_later(PRESENCE_SECONDS, self._tell_presence)

    def _tell_presence(self) -> None:
        self._presence = None
        message = self.presence()
        self.send_each(lambda _: message)

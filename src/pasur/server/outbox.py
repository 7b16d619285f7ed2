"""A listener's messages on their way to its socket. A table only ever posts (which never waits);
one task per socket sends, in order, so a socket that is slow to read holds up nobody else. One
that falls behind is sent the newest state instead of every state; one that stays behind is given
up, and its socket closed with the reason."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocketDisconnect

#: How a socket is sent one message.
Send = Callable[[dict[str, Any]], Awaitable[None]]
#: What sending on a socket that has gone away raises.
GONE = (WebSocketDisconnect, RuntimeError, OSError)
#: Messages a listener may have waiting to be sent; past it, it is too slow.
OUTBOX_LIMIT = 64
#: Kinds of message that say everything at once (a table's state, who is here): a newer one
#: replaces one still waiting.
WHOLE_KINDS = frozenset({"state", "presence"})
#: What the first state a socket is sent carries besides the table (recent chat, the plays it
#: missed): a state with them is never replaced.
EXTRAS = frozenset({"chat", "missed"})


class Outbox:
    """One listener's waiting messages, sent by `run()`; ``seconds`` is how long one message
    may take to be read before the listener is given up."""

    def __init__(self, send: Send, seconds: float, limit: int = OUTBOX_LIMIT) -> None:
        self.send = send
        self.seconds = seconds
        self.limit = limit
        self.waiting: deque[dict[str, Any]] = deque()
        self.posted = asyncio.Event()
        #: Why the listener was given up (None while it keeps up).
        self.too_slow: str | None = None

    def post(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (it never waits); a message of its whole kind still waiting goes."""
        if self.too_slow:
            return
        if message.get("type") in WHOLE_KINDS:
            for index, waiting in enumerate(self.waiting):
                if waiting.get("type") == message["type"] and not EXTRAS & waiting.keys():
                    del self.waiting[index]
                    break
        if len(self.waiting) >= self.limit:
            self.too_slow = f"more than {self.limit} messages were waiting to be read"
        else:
            self.waiting.append(message)
        self.posted.set()

    async def run(self) -> str:
        """Send what is posted, in order, until the listener is too slow; why it was given up.
        What sending on a socket that has gone away raises is raised."""
        while True:
            await self.posted.wait()
            self.posted.clear()
            while self.waiting and not self.too_slow:
                try:
                    async with asyncio.timeout(self.seconds):
                        await self.send(self.waiting.popleft())
                except TimeoutError:
                    self.too_slow = f"a message took more than {self.seconds:g} s to be read"
            if self.too_slow:
                return self.too_slow

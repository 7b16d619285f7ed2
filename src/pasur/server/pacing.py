"""What happens at a table without a person: a bot's move after its pause, the turn timer (the
stand-in plays for an absent person), the end of the wait between rounds, and how fast bots play
(the table's ``fast`` setting).

Only the process that owns the table (`shared`) runs these. The bots think in the bot workers
(`bots.BotPool`, with `pasur.host.bot_turn()`'s fault policy); a move they choose goes
through the table's one way of applying a move (`tables.TableRoom.apply()`)."""

from __future__ import annotations

import asyncio
import logging

from ..host import STAND_IN, bot_seed
from .errors import StorageUnavailable, VersionTaken
from .room import Room
from .seats import TableStatus

log = logging.getLogger("pasur.server")

#: Seconds between tries of a bot's move while the storage is not answering.
STORAGE_RETRY_SECONDS = 2.0
#: How much faster bots play when a player asks them to.
FAST_PACE = 4.0


class Pacing:
    """A table's clock: its next move without a person, and when the turn timer runs out."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: Loop time when the turn timer runs out (None: no timer running).
        self.deadline: float | None = None
        self._task: asyncio.Task[None] | None = None

    def restart(self) -> None:
        """The table changed: what was pending is dropped, and the turn timer starts again when a
        person is to act (to move, or to say they are ready for the next deal)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        room = self.room
        seat = room.match.turn if room.match is not None and room.status is TableStatus.PLAYING else None
        waiting_for_people = room.waiting is not None or (seat is not None and not room.seats[seat].bot)
        timer = room.settings.timer
        self.deadline = asyncio.get_running_loop().time() + timer if waiting_for_people and timer else None

    def seconds_left(self) -> float | None:
        """Seconds until the turn timer runs out (None: none runs)."""
        if self.deadline is None:
            return None
        return max(0.0, round(self.deadline - asyncio.get_running_loop().time(), 1))

    def runs_alone(self) -> bool:
        """Whether something happens next without a person (a bot's move, the turn timer): what
        the table's owner runs."""
        room = self.room
        if room.match is None or room.status is not TableStatus.PLAYING:
            return False
        seat = room.match.turn
        assert seat is not None
        return bool(room.settings.timer or (room.waiting is None and room.seats[seat].bot))

    def may_run_alone(self) -> bool:
        """Whether the table may ever need its owner: it has a turn timer or a bot."""
        room = self.room
        return bool(room.settings.timer or any(seat.bot for seat in room.seats))

    def schedule(self) -> None:
        """Start what happens next without a person: a bot's move, or the turn timer (only in the
        process that owns the table, when several share it)."""
        room = self.room
        if self._task is not None or not self.runs_alone():
            return
        if room.hub is not None and not room.hub.owns(room.id):
            return
        assert room.match is not None
        seat = room.match.turn
        assert seat is not None
        loop = asyncio.get_running_loop()
        timer = room.settings.timer
        if room.waiting is not None:
            if timer:  # the turn timer ends the wait between rounds too
                if self.deadline is None:
                    self.deadline = loop.time() + timer
                self._task = loop.create_task(self._end_wait(max(0.0, self.deadline - loop.time())))
        elif room.seats[seat].bot:
            delay = (room.bots.delay if room.bots is not None else 0.0) / (FAST_PACE if room.settings.fast else 1.0)
            self._task = loop.create_task(self._bot_move(seat, room.seats[seat].bot or STAND_IN, delay))
        elif timer:
            if self.deadline is None:
                self.deadline = loop.time() + timer
            self._task = loop.create_task(self._bot_move(seat, STAND_IN, max(0.0, self.deadline - loop.time())))

    async def _end_wait(self, delay: float) -> None:
        """The wait between rounds ends after ``delay`` seconds, ready or not."""
        await asyncio.sleep(delay)
        self._task = None
        await self.room.ready(None)

    async def _bot_move(self, seat: int, level: str, delay: float) -> None:
        """The bot of ``level`` plays for ``seat`` after ``delay`` seconds, unless the table moved
        on; while the storage does not answer it tries again every few seconds."""
        room = self.room
        assert room.match is not None and room.bots is not None
        version = room.version
        await asyncio.sleep(delay)
        game = room.match.rounds[-1]
        view, legal = game.view(seat), game.legal_moves()
        seed = bot_seed(room.settings.seed, seat, game=room.version)  # a bot is made afresh for each move
        move = await room.bots.move(room.owner, level, seed, view, legal)
        while room.version == version and room.status is TableStatus.PLAYING:
            try:
                self._task = None
                async with room.changing:
                    if room.version != version or room.status is not TableStatus.PLAYING:
                        return  # the table moved on while this waited for it
                    await room.apply(seat, move.code, timed=not room.seats[seat].bot)
            except VersionTaken:
                return  # another process moved first: this copy has caught up
            except StorageUnavailable:
                log.warning("table %s: the storage is not answering; the bot's move waits", room.id)
                self._task = asyncio.current_task()
                await asyncio.sleep(STORAGE_RETRY_SECONDS)

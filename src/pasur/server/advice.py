"""What a table's bots say besides their moves: a hint for the person to play, and the judgement of
the people's moves once the match is over. Both are thought out in the bot workers
(:class:`.bots.BotPool`), each at most once: a hint per seat, version and language, the judgement
once per finished match held here."""

from __future__ import annotations

import asyncio
from typing import Any

from ..bots.analysis import Task, analysis_tasks, judgement_line, players_summary
from ..bots.hint import Hint
from ..bots.reasons import reason_line
from ..core.errors import SolveError
from ..host import bot_seed
from ..i18n import LANGUAGES
from . import messages
from .errors import TableError, TooManyRequests
from .room import Room

#: Seconds a match's judgement waits when its owner has as much advice waiting as allowed.
WAIT_FOR_A_TURN = 0.5


class Hints:
    """The hints of one table: the last one asked for by each seat in each language."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: (seat, language) → the version the hint is for, and its thinking.
        self._asked: dict[tuple[int, str], tuple[int, asyncio.Future[Hint | None]]] = {}
        #: (seat, language) → how many askers wait for that hint (none left: it is dropped).
        self._askers: dict[tuple[int, str], int] = {}

    async def ask(self, seat: int | None, lang: str) -> dict[str, Any]:
        """A hint for the person to play, where the table allows hints: the move, a one-line
        reason in ``lang`` and the expected edge in points. One is thought out per seat and
        version, however often it is asked for."""
        room = self.room
        if seat is None:
            raise TableError("you have no seat at this table", "no_seat")
        if not room.settings.hints:
            raise TableError("this table gives no hints", "no_hints")
        match = room.round_under_way()
        room.must_be_turn_of(match, seat)
        if len(match.rounds[-1].legal_codes()) < 2:
            raise TableError("only one move is legal: there is nothing to advise", "hint_forced")
        assert room.bots is not None
        asked = self._asked.get((seat, lang))
        if asked is None or asked[0] != room.version:
            game = match.rounds[-1]
            seed = bot_seed(room.settings.seed, seat, game=room.version)
            thinking = room.bots.think_hint(room.owner, game.view(seat), game.legal_moves(), lang, seed)
            asked = (room.version, asyncio.ensure_future(thinking))
            self._asked[seat, lang] = asked
        version, thinking_task = asked
        key = (seat, lang)
        self._askers[key] = self._askers.get(key, 0) + 1
        try:
            advice = await asyncio.shield(thinking_task)
        except asyncio.CancelledError:
            if not thinking_task.cancelled():  # this request itself was cancelled
                raise
            raise TableError("the table moved on before the hint was ready", "hint_stale") from None
        finally:
            self._askers[key] -= 1
            if not self._askers[key]:  # nobody waits for it any more (the asker left)
                del self._askers[key]
                if not thinking_task.done():
                    thinking_task.cancel()  # one still waiting for a worker never takes one
                    self._asked.pop(key, None)
        assert advice is not None  # a forced move was refused above
        edge = None if advice.edge is None else round(advice.edge, 2)
        move = advice.move
        return messages.hint_message(version, move.to_json(), move.text(), advice.reason, advice.why, edge)

    def moved_on(self) -> None:
        """The table changed: hints still being thought out for an earlier version are dropped
        (one waiting for a worker never takes one)."""
        for key, (version, thinking) in list(self._asked.items()):
            if version != self.room.version:
                thinking.cancel()
                del self._asked[key]


class Analysis:
    """The judgement of the people's moves of one finished match, started when first asked."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._judging: asyncio.Future[None] | None = None
        self._judged: list[dict[str, Any]] = []
        self._total = 0

    def report(self) -> dict[str, Any]:
        """The people's moves of the finished match judged so far, each with its verdict and what
        to say of it in each language; the first call starts judging them, in the bot workers,
        one move at a time, unless the whole judgement was kept (it is kept once whole)."""
        room = self.room
        match = room.finished_match()
        if self._judging is None and room.store is not None and (kept := room.store.analysis(room.id)) is not None:
            self._judged, self._total = kept, len(kept)
            self._judging = asyncio.get_running_loop().create_future()
            self._judging.set_result(None)
        if self._judging is None:
            people = [seat for seat, place in enumerate(room.seats) if place.bot is None]
            try:
                tasks = analysis_tasks(match, people, room.settings.seed)
            except SolveError as error:
                return {"done": True, "moves": [], "total": 0, "unavailable": str(error)}
            self._judging = asyncio.ensure_future(self._judge_all(tasks))
            self._total = len(tasks)
        done = self._judging.done()
        players = players_summary(self._judged) if done else []
        return {"done": done, "moves": list(self._judged), "total": self._total, "players": players}

    async def _judge_all(self, tasks: list[Task]) -> None:
        room = self.room
        assert room.bots is not None
        whole = True
        for task in tasks:
            while True:
                try:
                    judged = await room.bots.judge(room.owner, task)
                    break
                except TooManyRequests:  # the owner's other analyses and hints go first
                    await asyncio.sleep(WAIT_FOR_A_TURN)
            if judged is None:  # a worker died on this move: the judgement is not whole, and is not kept
                whole = False
                continue
            lines = {lang: judgement_line(judged, lang, isolate=True) for lang in LANGUAGES}
            reasons = (
                {lang: reason_line(judged.reason, lang, isolate=True) for lang in LANGUAGES} if judged.reason else None
            )
            self._judged.append({**judged.to_json(), "lines": lines, "reasons": reasons})
        if whole and room.store is not None:
            room.store.keep_analysis(room.id, self._judged)

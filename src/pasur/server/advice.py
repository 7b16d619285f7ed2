"""What a table's bots say besides their moves: a hint for the person to play, and the judgement of
the people's moves once the match is over. Both are thought out in the bot workers
(`bots.BotPool`), charged to the visitor who asked, each at most once: a hint per seat,
version and language, the judgement once per finished match, whoever asks and however often
(`Reviews` holds it apart from the tables, which come and go from memory)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from typing import Any

from ..coach.analysis import Task, analysis_tasks, judgement_line, players_summary
from ..coach.hint import Advice
from ..coach.reasons import reason_line
from ..core.errors import SolveError
from ..host import bot_seed
from ..i18n import LANGUAGES
from . import messages
from .errors import StorageUnavailable, TableError, TooManyRequests
from .room import Room
from .seats import seated

#: Seconds a match's judgement waits when its asker has as much advice waiting as allowed.
WAIT_FOR_A_TURN = 0.5
#: Seconds a judgement goes on with nobody asking for it (the page asks every 2 s while it shows
#: the review): then it pauses, what it judged kept, and goes on when next asked for.
UNWATCHED_SECONDS = 5.0
#: Judgements one visitor may have under way at once.
REVIEWS_AT_ONCE = 2
#: Judgements held in memory, whole or partial (a whole one is in the store too); the least
#: recently asked for is let go first.
REVIEWS_HELD = 256


class Hints:
    """The hints of one table: the last one asked for by each seat, thought out once and said in
    each language asked for."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: seat → the version the hint is for, and its thinking.
        self._asked: dict[int, tuple[int, asyncio.Future[Advice | None]]] = {}
        #: seat → how many askers wait for that hint (none left: it is dropped).
        self._askers: dict[int, int] = {}

    async def ask(self, seat: int | None, lang: str, asker: str) -> dict[str, Any]:
        """A hint for the person to play, where the table allows hints: the move, a one-line
        reason in ``lang`` and the expected edge in points. One is thought out per seat and
        version, in whatever language and however often it is asked for, charged to the visitor ``asker``."""
        room = self.room
        seat = seated(seat)
        if not room.settings.hints:
            raise TableError("no_hints")
        match = room.round_under_way()
        room.must_be_turn_of(match, seat)
        if len(match.rounds[-1].legal_codes()) < 2:
            raise TableError("hint_forced")
        assert room.bots is not None
        game = match.rounds[-1]
        view = game.view(seat)
        asked = self._asked.get(seat)
        if asked is None or asked[0] != room.version:
            seed = bot_seed(room.settings.seed, seat, game=room.version)
            thinking = room.bots.think_hint(asker, view, game.legal_moves(), seed)
            asked = (room.version, asyncio.ensure_future(thinking))
            self._asked[seat] = asked
        version, thinking_task = asked
        self._askers[seat] = self._askers.get(seat, 0) + 1
        try:
            advice = await asyncio.shield(thinking_task)
        except asyncio.CancelledError:
            if not thinking_task.cancelled():  # this request itself was cancelled
                raise
            raise TableError("hint_stale") from None
        finally:
            self._askers[seat] -= 1
            if not self._askers[seat]:  # nobody waits for it any more (the asker left)
                del self._askers[seat]
                if not thinking_task.done():
                    thinking_task.cancel()  # one still waiting for a worker never takes one
                    self._asked.pop(seat, None)
        assert advice is not None  # a forced move was refused above
        said = advice.words(view, lang, isolate=True)
        edge = None if said.edge is None else round(said.edge, 2)
        move = said.move
        return messages.hint_message(version, move.to_json(), move.text(), said.reason, said.why, edge)

    def moved_on(self) -> None:
        """The table changed: hints still being thought out for an earlier version are dropped
        (one waiting for a worker never takes one)."""
        for key, (version, thinking) in list(self._asked.items()):
            if version != self.room.version:
                thinking.cancel()
                del self._asked[key]


class Reviews:
    """The judgements of finished matches, one for each table: found again whoever asks and
    however often, and kept while the table itself leaves memory. At most `REVIEWS_HELD`,
    the least recently asked for let go first (never one under way)."""

    def __init__(self) -> None:
        self._held: OrderedDict[str, Analysis] = OrderedDict()

    def report(self, room: Room, asker: str) -> dict[str, Any]:
        """The judgement of ``room``'s finished match so far (see `Analysis.report()`)."""
        analysis = self._held.pop(room.id, None) or Analysis(room)
        self._held[room.id] = analysis
        idle = [table for table, held in self._held.items() if not held.running]
        for table in idle[: max(0, len(self._held) - REVIEWS_HELD)]:
            del self._held[table]
        return analysis.report(asker, self)

    def under_way(self, asker: str) -> int:
        """How many judgements ``asker`` has under way."""
        return sum(1 for held in self._held.values() if held.running and held.asker == asker)


class Analysis:
    """The judgement of the people's moves of one finished match, started when first asked,
    paused when nobody has asked for a while, and kept in the store once whole."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: The visitor whose advice budget the judging is charged to: the one who set it going.
        self.asker = ""
        self._tasks: list[Task] = []
        self._judged: list[dict[str, Any]] = []
        self._next = 0  # the next task to judge
        self._read = False  # the tasks are made, or the whole judgement read back from the store
        self._whole = True  # no worker died on a move
        self._judging: asyncio.Task[None] | None = None
        self._asked = 0.0

    @property
    def running(self) -> bool:
        return self._judging is not None and not self._judging.done()

    @property
    def done(self) -> bool:
        return self._read and self._next >= len(self._tasks)

    def report(self, asker: str, reviews: Reviews) -> dict[str, Any]:
        """The people's moves of the finished match judged so far, each with its verdict and what
        to say of it in each language. Asking sets the judging going (charged to ``asker``, who
        may have `REVIEWS_AT_ONCE` under way) or keeps it going, one move at a time in the
        bot workers, unless the whole judgement was kept."""
        room = self.room
        match = room.finished_match()
        self._asked = time.monotonic()
        if not self._read:
            kept = room.store.analysis(room.id) if room.store is not None else None
            if kept is not None:
                self._judged = kept
            else:
                people = [seat for seat, place in enumerate(room.seats) if place.bot is None]
                try:
                    self._tasks = analysis_tasks(match, people, room.settings.seed)
                except SolveError as error:
                    return {"done": True, "moves": [], "total": 0, "unavailable": str(error)}
            self._read = True
        total = len(self._tasks) if self._tasks else len(self._judged)
        if not self.done and not self.running:
            if reviews.under_way(asker) >= REVIEWS_AT_ONCE:
                raise TooManyRequests("too_many_reviews", limit=REVIEWS_AT_ONCE)
            self.asker = asker
            self._judging = asyncio.ensure_future(self._judge_rest())
        done = self.done
        players = players_summary(self._judged) if done else []
        return {"done": done, "moves": list(self._judged), "total": total, "players": players}

    async def _judge_rest(self) -> None:
        """Judge the moves not judged yet, until all are or nobody has asked for a while."""
        room = self.room
        assert room.bots is not None
        while self._next < len(self._tasks):
            judging = asyncio.ensure_future(room.bots.judge(self.asker, self._tasks[self._next]))
            while not judging.done():
                watched = UNWATCHED_SECONDS - (time.monotonic() - self._asked)
                if watched <= 0:  # nobody is looking: pause here, what was judged is kept
                    judging.cancel()  # one still waiting for a worker never takes one
                    return
                await asyncio.wait({judging}, timeout=watched)
            try:
                judged = judging.result()
            except TooManyRequests:  # the asker's other analyses and hints go first
                await asyncio.sleep(WAIT_FOR_A_TURN)
                continue
            self._next += 1
            if judged is None:  # a worker died on this move: the judgement is not whole, and is not kept
                self._whole = False
                continue
            lines = {lang: judgement_line(judged, lang, isolate=True) for lang in LANGUAGES}
            reasons = (
                {lang: reason_line(judged.reason, lang, isolate=True) for lang in LANGUAGES} if judged.reason else None
            )
            self._judged.append({**judged.to_json(), "lines": lines, "reasons": reasons})
        if self._whole and room.store is not None:
            with contextlib.suppress(StorageUnavailable):  # kept in memory meanwhile; tried again when next judged
                await asyncio.to_thread(room.store.keep_analysis, room.id, self._judged)

"""The server's bots. Visitors choose a level by name; the server builds the bot from its own
table of levels (never from a spec a visitor wrote), caps each move's think time, and runs the
searching bots in worker processes, taking waiting moves round-robin across the addresses that
made the tables, so a flood of bot tables from one address slows only that address's tables."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import LEVELS, SEARCHING, capped_spec, make_bot, validate_spec
from ..coach.analysis import MoveJudgement, Precision, Task, judge_move
from ..coach.hint import Advice, advise
from ..core import Move, SeatView
from ..core.rules import TABLES
from ..host import STAND_IN, bot_turn
from .errors import TooManyRequests
from .settings import SERVER_DEFAULTS

#: Each built-in level's rating at each kind of rated table (`RATED_TABLES`), on the scale people
#: are rated on: measured on duplicate deals by benchmarks/strength.py (``beginner`` anchored at
#: 800, each level above it by the Elo of its step up that table's ladder), which writes
#: bot-ratings.json beside this file. A table whose ladder is not all measured takes the 2-player
#: ratings.
_MEASURED = json.loads((Path(__file__).parent / "bot-ratings.json").read_text(encoding="utf-8"))["tables"]
#: The kinds of table rated matches are played at (`pasur.Rules.table`), each rated apart: two
#: players, three, four in partnership and four each for themselves.
RATED_TABLES = tuple(TABLES)
BOT_RATINGS_AT: dict[str, dict[str, int]] = {
    kind: _MEASURED.get(kind, _MEASURED["2"])["ratings"] for kind in RATED_TABLES
}
#: The ratings at two players: the ones a level is offered with, and a puzzle's difficulty's.
BOT_RATINGS = BOT_RATINGS_AT["2"]

log = logging.getLogger("pasur.server")

#: Hints and judged moves one owner may have waiting for a worker.
ADVICE_WAITING = 4


@dataclass(frozen=True, slots=True)
class Level:
    """A level a visitor may name, and the built-in bot it plays (options included)."""

    name: str
    spec: str
    #: Whether its bot searches (and so runs in a worker), read once from the spec.
    searches: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "searches", validate_spec(self.spec)[0] in SEARCHING)


def server_levels(bot_ms: int, extra: Mapping[str, str] = {}) -> dict[str, Level]:
    """The levels a server offers: every one of `pasur.bots.LEVELS` and any the operator adds
    (``extra``: level name → built-in spec; never a program), each search bound to ``bot_ms``
    milliseconds a move. ValueError says what is wrong with an extra spec."""
    levels = {name: Level(name, bot) for name, bot in LEVELS.items()}
    for name, spec in extra.items():
        validate_spec(spec)  # exec:, unknown bots and bad options are refused here, at the start
        levels[name.strip().lower()] = Level(name.strip().lower(), spec.strip())
    return {name: Level(name, capped_spec(level.spec, bot_ms)) for name, level in levels.items()}


def choose(spec: str, seed: int, view: SeatView, legal: Sequence[Move]) -> Move:
    """A built-in bot's move, or the stand-in's if it failed (in a worker process or here)."""
    choice = bot_turn(make_bot(spec, seed=seed), view, legal)
    if choice.fault is not None:
        log.warning("bot %s failed (%s); the stand-in played", spec, choice.fault)
    return choice.move


def _timed(work: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``work(*args)`` in a worker, and the CPU seconds it took there."""
    started = time.process_time()
    return work(*args), time.process_time() - started


def _start_worker(server: int) -> None:
    """A worker runs at a lower priority, so that when the cores are busy acknowledging people's
    moves comes before a bot's search (which has its ceiling in time, not in CPU); and it ends
    when the server process does, however that ends."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    threading.Thread(target=_end_with, args=(server,), daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)


@dataclass
class _Job:
    """Work for a worker process: ``work(*args)``, and ``fallback()`` here if the worker died."""

    work: Callable[..., Any]
    args: tuple[Any, ...]
    fallback: Callable[[], Any]
    done: asyncio.Future[Any]
    #: Whose advice this is, charged with the CPU it takes (None: a bot's move).
    advised: str | None = None


@dataclass
class BotPool:
    """Runs bot moves: quick bots at once, searching bots in ``workers`` processes, at most one
    move a worker at a time, the waiting ones taken round-robin by owner (the visitor that made
    the table). Advice (hints, judging a finished match's moves) waits apart and is taken only
    when no bot move waits, at most `ADVICE_WAITING` jobs an owner, and none while the
    owner's advice took ``advice_budget`` CPU seconds of the last minute."""

    levels: dict[str, Level]
    workers: int = 1
    #: Seconds a bot waits before it moves, so people can follow.
    delay: float = SERVER_DEFAULTS.bot_delay
    #: The most a hint thinks, in milliseconds (the searching bots' ceiling).
    hint_ms: float = SERVER_DEFAULTS.bot_ms
    #: The workers' CPU seconds an owner's advice may take a minute.
    advice_budget: float = SERVER_DEFAULTS.advice_seconds
    #: The most one move of a finished match is judged for, in milliseconds.
    analysis_ms: float = SERVER_DEFAULTS.analysis_ms
    clock: Callable[[], float] = time.monotonic
    #: Bot moves, then advice, waiting: owner → its jobs in order.
    _moves: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    _advice: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    _running: int = 0
    _executor: ProcessPoolExecutor | None = None
    #: owner → (when, CPU seconds) of its advice that ended within the last minute.
    _advice_spent: dict[str, deque[tuple[float, float]]] = field(default_factory=dict)

    async def move(self, owner: str, level: str, seed: int, view: SeatView, legal: Sequence[Move]) -> Move:
        """The move the bot of ``level`` makes (the stand-in's when the level is unknown)."""
        chosen = self.levels.get(level, self.levels[STAND_IN])
        if not chosen.searches:
            return choose(chosen.spec, seed, view, legal)
        stand_in = functools.partial(choose, self.levels[STAND_IN].spec, seed, view, list(legal))
        move: Move = await self._queue(owner, choose, (chosen.spec, seed, view, list(legal)), stand_in)
        return move

    async def think_hint(self, owner: str, view: SeatView, legal: Sequence[Move], seed: int) -> Advice | None:
        """The advice for ``view``'s seat, thought out in a worker within the bots' ceiling
        (``hint_ms``), waiting in line with ``owner``'s bot moves (None for a forced move)."""
        legal = list(legal)
        quick = functools.partial(advise, view, legal, seed, ms=1)
        thought = functools.partial(advise, seed=seed, ms=self.hint_ms)
        advice: Advice | None = await self._queue(owner, thought, (view, legal), quick, advice=True)
        return advice

    async def judge(self, owner: str, task: Task) -> MoveJudgement | None:
        """One move of a finished match judged in a worker as ``pasur analyze`` does, within
        ``analysis_ms``, waiting in line with ``owner``'s bot moves; None if the worker died."""
        judge = functools.partial(judge_move, precision=Precision(ms=self.analysis_ms))
        judged: MoveJudgement | None = await self._queue(owner, judge, (task,), lambda: None, advice=True)
        return judged

    async def _queue(
        self,
        owner: str,
        work: Callable[..., Any],
        args: tuple[Any, ...],
        fallback: Callable[[], Any],
        advice: bool = False,
    ) -> Any:
        """``work(*args)`` in a worker when its turn comes; TooManyRequests for advice past
        `ADVICE_WAITING` of one owner's."""
        line = self._advice if advice else self._moves
        waiting = line.setdefault(owner, deque())
        if advice and (
            sum(not job.done.cancelled() for job in waiting) >= ADVICE_WAITING
            or self.advice_spent(owner) >= self.advice_budget
        ):
            raise TooManyRequests("too_much_advice")
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        waiting.append(_Job(work, args, fallback, done, owner if advice else None))
        self._dispatch()
        return await done

    def advice_spent(self, owner: str) -> float:
        """The workers' CPU seconds ``owner``'s advice took in the last minute."""
        spent = self._advice_spent.get(owner)
        if spent is None:
            return 0.0
        since = self.clock() - 60
        while spent and spent[0][0] < since:
            spent.popleft()
        if not spent:
            del self._advice_spent[owner]
        return sum(seconds for _, seconds in spent)

    def waiting(self) -> int:
        """Jobs waiting for a worker (cancelled ones included until their turn)."""
        return sum(len(queue) for line in (self._moves, self._advice) for queue in line.values())

    def _next_job(self) -> tuple[str, _Job] | None:
        """The next job: bot moves first, each line round-robin by owner."""
        for line in (self._moves, self._advice):
            while line:
                owner, queue = line.popitem(last=False)
                if not queue:
                    continue
                job = queue.popleft()
                if queue:
                    line[owner] = queue  # to the back of the line: round-robin
                return owner, job
        return None

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.workers and (next_job := self._next_job()) is not None:
            owner, job = next_job
            if job.done.cancelled():  # the table moved on (a person played, it was closed)
                continue
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(os.getpid(),),
                )
            try:
                running = self._executor.submit(_timed, job.work, *job.args)
            except BrokenProcessPool:  # a worker was killed: start afresh for this and later moves
                self._executor = None
                line = self._moves if job.advised is None else self._advice
                line.setdefault(owner, deque()).appendleft(job)
                continue
            self._running += 1
            running.add_done_callback(functools.partial(self._threadsafe_finished, loop, job))

    def _threadsafe_finished(self, loop: asyncio.AbstractEventLoop, job: _Job, finished: Future[Any]) -> None:
        loop.call_soon_threadsafe(self._finished, job, finished)

    def _finished(self, job: _Job, finished: Future[Any]) -> None:
        self._running -= 1
        if finished.cancelled():  # the pool is closing: the job's asker is going too
            job.done.cancel()
            return
        error = finished.exception()
        if error is None:
            result, seconds = finished.result()
            if job.advised is not None:  # charged even when nobody waits for it any more
                self._advice_spent.setdefault(job.advised, deque()).append((self.clock(), seconds))
            if not job.done.done():
                job.done.set_result(result)
        else:  # the worker died: the stand-in plays this move, and later moves get new workers
            if isinstance(error, BrokenProcessPool):
                self._executor = None
            log.warning("bot worker failed (%r); the stand-in answers", error)
            if not job.done.done():
                job.done.set_result(job.fallback())
        self._dispatch()

    def close(self) -> None:
        """Stop the workers (a move under way finishes first: at most the think-time ceiling)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

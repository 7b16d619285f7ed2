"""``pasur match``: many matches between bots on duplicate deals, in parallel.

A *set* is one seed's matches, played once for each rotation of the bots round the seats, so
every bot plays every seat of the same deals and luck cancels. Sets are independent and are the
unit of every interval.
"""

from __future__ import annotations

import math
import queue
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, BotError, checked_choice, make_bot, parse_spec
from ..bots.protocol import ExternalBot
from ..core import Match, Rules, to_record
from .stats import Estimate, Sprt, elo_estimate, ratio_estimate


@dataclass(frozen=True, slots=True)
class Plan:
    """What to play: bots by spec, the rules, and when to stop."""

    specs: tuple[str, ...]
    rules: Rules
    rounds: int = 200
    seed: int = 1
    records: bool = False
    sprt: Sprt | None = None
    max_sets: int | None = None
    move_timeout: float = 10.0

    def __post_init__(self) -> None:
        bots, players = len(self.specs), self.rules.players
        if not 2 <= bots <= 4:
            raise ValueError("a match needs 2, 3 or 4 bots")
        if players % bots:
            raise ValueError(f"{bots} bots cannot share {players} seats evenly: give {players} bots")
        if self.sprt is not None and bots != 2:
            raise ValueError("--sprt compares exactly two bots")
        for spec in self.specs:
            parse_spec(spec)

    def seating(self, rotation: int) -> list[int]:
        """Which bot (index into ``specs``) sits at each seat in a rotation."""
        return [(seat + rotation) % len(self.specs) for seat in range(self.rules.players)]


@dataclass(slots=True)
class GameResult:
    """One match of a set."""

    set_index: int
    rotation: int
    seating: list[int]
    round_points: list[list[int]]
    winner: int | None
    rounds_played: int = 0
    fault: str | None = None
    fault_bot: int | None = None
    record: dict[str, Any] | None = None


def bot_seed(seed: int, set_index: int, rotation: int, seat: int) -> int:
    """A bot's seed for one game, the same whatever worker plays it."""
    return ((seed * 1_000_003 + set_index) * 7 + rotation) * 5 + seat


_external: dict[str, ExternalBot] = {}


def _bot(spec: str, seed: int, plan: Plan) -> Bot:
    """Built-in bots are made afresh for each game (reproducible); external programs are kept
    running in the worker from game to game."""
    if parse_spec(spec)[0] == "exec":
        if spec not in _external:
            _external[spec] = ExternalBot(parse_spec(spec)[1]["command"], timeout=plan.move_timeout)
        return _external[spec]
    return make_bot(spec, seed=seed)


def close_external_bots() -> None:
    """End the external programs this process started."""
    while _external:
        _external.popitem()[1].close()


def play_game(plan: Plan, set_index: int, rotation: int) -> GameResult:
    """Play one match of a set; a bot's fault ends it, lost by that bot."""
    seating = plan.seating(rotation)
    match = Match(plan.rules, seed=plan.seed * 1_000_003 + set_index)
    bots = [
        _bot(plan.specs[index], bot_seed(plan.seed, set_index, rotation, seat), plan)
        for seat, index in enumerate(seating)
    ]
    fault, fault_bot = None, None
    while not match.over:
        game = match.rounds[-1]
        seat = game.turn
        try:
            move = checked_choice(bots[seat], game.view(seat), game.legal_moves())
        except BotError as error:
            fault, fault_bot = str(error), seating[seat]
            break
        match.play_code(move.code)
    names = [plan.specs[index] for index in seating]
    record = None
    if plan.records:
        extra: dict[str, Any] = {"event": "pasur match", "set": set_index, "rotation": rotation}
        if fault:
            extra["fault"] = fault
        record = to_record(match, names=names, **extra)
    return GameResult(
        set_index=set_index,
        rotation=rotation,
        seating=seating,
        round_points=[game.points() for game in match.rounds if game.over],
        winner=match.winner,
        rounds_played=len(match.rounds),
        fault=fault,
        fault_bot=fault_bot,
        record=record,
    )


def play_set(plan: Plan, set_index: int) -> list[GameResult]:
    """Every rotation of one set."""
    return [play_game(plan, set_index, rotation) for rotation in range(len(plan.specs))]


@dataclass(slots=True)
class BotSummary:
    """One bot's results."""

    name: str
    points_per_round: Estimate
    win_rate: Estimate
    rounds: int
    games: int
    faults: int


@dataclass(slots=True)
class Tally:
    """Results as they come in, per set."""

    plan: Plan
    sets: dict[int, list[GameResult]] = field(default_factory=dict)

    def add(self, results: list[GameResult]) -> None:
        self.sets[results[0].set_index] = results

    @property
    def games(self) -> int:
        return sum(len(results) for results in self.sets.values())

    @property
    def rounds(self) -> float:
        """Deals played (a round cut short by a fault counts), each counted once however many
        rotations played it."""
        total = sum(game.rounds_played for results in self.sets.values() for game in results)
        return total / len(self.plan.specs)

    def _relative(self, game: GameResult, bot: int) -> tuple[float, int]:
        """A bot's points against the mean of the other sides, summed over a game's rounds,
        and how many rounds that covers."""
        rules = self.plan.rules
        seats = [seat for seat, index in enumerate(game.seating) if index == bot]
        total = 0.0
        for points in game.round_points:
            for seat in seats:
                own = points[rules.side_of(seat)]
                others = (sum(points) - own) / (len(points) - 1)
                total += (own - others) / len(seats)
        return total, len(game.round_points)

    def _won(self, game: GameResult, bot: int) -> float:
        if game.fault is not None:
            return 0.0 if game.fault_bot == bot else 1.0 / (len(self.plan.specs) - 1)
        if game.winner is None:
            return 0.0
        return float(
            any(self.plan.rules.side_of(seat) == game.winner for seat, index in enumerate(game.seating) if index == bot)
        )

    def summaries(self) -> list[BotSummary]:
        """Each bot's points per round and match win rate, with 95% intervals over sets."""
        out = []
        ordered = [self.sets[key] for key in sorted(self.sets)]
        for bot, spec in enumerate(self.plan.specs):
            point_totals, round_counts, wins, games = [], [], [], []
            for results in ordered:
                pairs = [self._relative(game, bot) for game in results]
                point_totals.append(sum(total for total, _ in pairs))
                round_counts.append(sum(count for _, count in pairs))
                wins.append(sum(self._won(game, bot) for game in results))
                games.append(len(results))
            out.append(
                BotSummary(
                    name=spec,
                    points_per_round=ratio_estimate(point_totals, round_counts),
                    win_rate=ratio_estimate(wins, games).clamped(0.0, 1.0),
                    rounds=sum(round_counts),
                    games=sum(games),
                    faults=sum(1 for results in ordered for game in results if game.fault_bot == bot),
                )
            )
        return out

    def pair_scores(self) -> list[float]:
        """Per set, the first bot's share of the games won (two bots)."""
        return [sum(self._won(game, 0) for game in results) / len(results) for _, results in sorted(self.sets.items())]

    def faults(self) -> list[str]:
        return [game.fault for _, results in sorted(self.sets.items()) for game in results if game.fault]

    def done(self) -> bool:
        """Whether the plan's stopping rule is met."""
        plan = self.plan
        if plan.sprt is not None and plan.sprt.verdict(self.pair_scores()):
            return True
        if plan.max_sets is not None and len(self.sets) >= plan.max_sets:
            return True
        return self.rounds >= plan.rounds

    def report(self, interrupted: bool = False) -> dict[str, Any]:
        """Everything ``pasur match --json`` prints."""
        bots = [
            {
                "name": summary.name,
                "points_per_round": _number(summary.points_per_round.mean),
                "ci95": [_number(value) for value in summary.points_per_round.as_list()],
                "win_rate": _number(summary.win_rate.mean),
                "win_rate_ci95": [_number(value) for value in summary.win_rate.as_list()],
                "rounds": summary.rounds,
                "games": summary.games,
                "faults": summary.faults,
            }
            for summary in self.summaries()
        ]
        report: dict[str, Any] = {
            "bots": bots,
            "rules": self.plan.rules.to_dict(),
            "sets": len(self.sets),
            "games": self.games,
            "rounds": self.rounds,
            "interrupted": interrupted,
            "faults": self.faults(),
        }
        if len(self.plan.specs) == 2:
            elo = elo_estimate(self.pair_scores())
            report["elo"] = {"diff": _number(elo.mean), "ci95": [_number(v) for v in elo.as_list()]}
        if self.plan.sprt is not None:
            sprt = self.plan.sprt
            low, high = sprt.bounds
            report["sprt"] = {
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "llr": round(sprt.llr(self.pair_scores()), 4),
                "bounds": [round(low, 4), round(high, 4)],
                "verdict": sprt.verdict(self.pair_scores()),
            }
        return report


def _number(value: float) -> float | None:
    """JSON has no NaN or infinity: those become null."""
    return None if math.isnan(value) or math.isinf(value) else round(value, 4)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Intake:
    """Takes finished sets in any order and adds them to the tally in set order, stopping at
    the plan's rule, so the result does not depend on how many workers played it."""

    def __init__(self, tally: Tally, on_set: Callable[[Tally, list[GameResult]], None] | None) -> None:
        self.tally = tally
        self.on_set = on_set
        self.waiting: dict[int, list[GameResult]] = {}
        self.next_index = 0
        self.issued = 0

    def next_task(self) -> int | None:
        """The next set to play, or None once no more are needed."""
        if self.tally.done():
            return None
        self.issued += 1
        return self.issued - 1

    def offer(self, results: list[GameResult]) -> None:
        """A finished set."""
        self.waiting[results[0].set_index] = results
        while self.next_index in self.waiting and not self.tally.done():
            ready = self.waiting.pop(self.next_index)
            self.tally.add(ready)
            self.next_index += 1
            if self.on_set:
                self.on_set(self.tally, ready)


def run(
    plan: Plan,
    jobs: int = 1,
    backend: str = "local",
    on_set: Callable[[Tally, list[GameResult]], None] | None = None,
) -> tuple[Tally, bool]:
    """Play sets until the plan says stop; returns the tally and whether it was interrupted
    (Ctrl-C stops at once and keeps what has finished)."""
    intake = Intake(Tally(plan), on_set)
    if backend == "ray":
        from .ray_backend import run_on_ray

        return run_on_ray(plan, intake, jobs)
    if backend != "local":
        raise ValueError(f"unknown backend '{backend}' (local or ray)")
    if jobs <= 1:
        try:
            while (index := intake.next_task()) is not None:
                intake.offer(play_set(plan, index))
        except KeyboardInterrupt:
            return intake.tally, True
        finally:
            close_external_bots()
        return intake.tally, False
    return _run_pool(plan, intake, jobs)


def _run_pool(plan: Plan, intake: Intake, jobs: int) -> tuple[Tally, bool]:
    import multiprocessing

    finished: queue.Queue[list[GameResult] | BaseException] = queue.Queue()
    pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_ignore_interrupts)
    # Ctrl-C only sets a flag, read between steps: an interrupt raised inside the pool's own
    # bookkeeping (a lock held in apply_async) could leave terminate() waiting for ever.
    interrupted = threading.Event()
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda *_: interrupted.set()) if main_thread else None
    in_flight = 0
    try:
        while not interrupted.is_set():
            while in_flight < 2 * jobs and (index := intake.next_task()) is not None:
                pool.apply_async(play_set, (plan, index), callback=finished.put, error_callback=finished.put)
                in_flight += 1
            if in_flight == 0:
                return intake.tally, False
            try:
                item = finished.get(timeout=0.2)
            except queue.Empty:
                continue
            in_flight -= 1
            if isinstance(item, BaseException):
                raise item
            intake.offer(item)
        return intake.tally, True
    except KeyboardInterrupt:
        return intake.tally, True
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous)
        pool.terminate()
        pool.join()

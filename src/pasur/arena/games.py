"""The games of a match between bots: the plan, one duplicate set, and one match of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..bots import Bot, BotError, make_bot, parse_spec, validate_spec
from ..bots.protocol import ExternalBot
from ..bots.registry import OPEN_BOTS
from ..core import Match, Rules, to_record
from ..host import MatchHost, OnFault, bot_seed
from .stats import Sprt


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
            # the command line names them
            name, _ = validate_spec(spec, allow_exec=True, allow_open=True)
            if name in OPEN_BOTS and self.rules.sides != 2:
                raise ValueError(f"{name} solves two sides only (2 players, or 4 in partnership)")

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


_external: dict[str, ExternalBot] = {}


def _bot(spec: str, seed: int, plan: Plan) -> Bot:
    """Built-in bots are made afresh for each game (reproducible); external programs are kept
    running in the worker from game to game."""
    if parse_spec(spec)[0] == "exec":
        if spec not in _external:
            _external[spec] = ExternalBot(parse_spec(spec)[1]["command"], timeout=plan.move_timeout)
        return _external[spec]
    return make_bot(spec, seed=seed, allow_exec=True, allow_open=True)  # the command line named it


def close_external_bots() -> None:
    """End the external programs this process started."""
    while _external:
        _external.popitem()[1].close()


def play_game(plan: Plan, set_index: int, rotation: int) -> GameResult:
    """Play one match of a set; a bot's fault ends it, lost by that bot."""
    seating = plan.seating(rotation)
    seed = plan.seed * 1_000_003 + set_index  # the set's deals, the same in every rotation
    bots = {
        seat: _bot(plan.specs[index], bot_seed(seed, seat, game=rotation), plan) for seat, index in enumerate(seating)
    }
    host = MatchHost(Match(plan.rules, seed=seed), bots, OnFault.RAISE)
    match = host.match
    fault, fault_bot = None, None
    try:
        host.play_on()
    except BotError as error:
        fault, fault_bot = str(error), seating[host.turn]
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

"""Bots made from their names: specs such as ``ismcts:iterations=2000``, the levels people
choose from, and which callers may name a program."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

from .base import Bot
from .expert import ExpertBot
from .ismcts import IsmctsBot
from .omniscient import OmniscientBot
from .pimc import PimcBot
from .protocol import ExternalBot
from .simple import GreedyBot, RandomBot
from .solver_bot import SolverBot

#: Each built-in bot with its one-line description, weakest first.
BOT_DESCRIPTIONS = {
    "random": "plays a uniformly random legal move",
    "greedy": "takes the best immediate value: points taken, Sur, clubs",
    "expert": "hand-written judgement: counts unseen cards, weighs the next player's best reply, "
    "keeps Jacks and Aces, plays the clubs race and the last capture",
    "net": "a small network trained to give each move solver's value, run with NumPy; solver with 16 "
    "samples chooses in the deal before the last, which it solves exactly (at two players; at three "
    "and four, in partnership or each for themselves, a network of each table's own, the last deal "
    "sampled) (options: "
    "ties=X: expert's judgement chooses among the moves scored within X points of the best, 0.08 by "
    "default, 0 for none; endgame=solve|net: the last deal solved or played by the network; late=N: "
    "solver's samples in the deal before it, 16 by default, 0 for none; weights=FILE on the command "
    "line only)",
    "ismcts": "information-set Monte Carlo tree search over deals consistent with its view "
    "(options: iterations=N, ms=N, exploration=X, greedy=X)",
    "pimc": "sampling search: every move tried on the same sampled deals with the same luck "
    "(options: playouts=N, ms=N, greedy=X)",
    "solver": "sampled deals of the unseen cards, weighted by the others' plays, each solved exactly to "
    "the end of the deal (with 3 or more sides each of the others playing for itself) (options: samples=N, ms=N, "
    "nodes=N, horizon=deal|round, infer=solver|greedy, temper=X, gift=X, match=0|1: play for the round's "
    "points or the match, ties=expert|net: who tells apart moves of equal value, playouts=N: with 3 or more "
    "sides pimc's mean over N playouts, 1,200 by default, added to each move's value, others=each|coalition: "
    "with 3 or more sides the others searched each for itself, the default, or as one)",
}
BOT_NAMES = tuple(BOT_DESCRIPTIONS)


def net_bot(
    seed: int | None = None, weights: str = "", endgame: str = "solve", late: int = 16, ties: float = 0.08
) -> Bot:
    """The ``net`` bot, imported only when made (it needs NumPy, the net extra)."""
    from .net import NetBot

    return NetBot(seed=seed, weights=weights, endgame=endgame, late=late, ties=ties)


def solver_bot(ties: str = "expert", seed: int | None = None, **options: Any) -> Bot:
    """The ``solver`` bot; with ``ties=net`` the ``net`` bot tells apart its equal moves (without
    sampling of its own: no sampling inside the sampler)."""
    judge = net_bot(seed=seed, late=0) if ties == "net" else None
    return SolverBot(ties=ties, seed=seed, judge=judge, **options)


_MAKERS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
    "ismcts": IsmctsBot,
    "pimc": PimcBot,
    "solver": solver_bot,
    "net": net_bot,
    "exec": ExternalBot,
}

#: The bot a maker wraps, whose signature lists the options a spec may give.
_WRAPPED: dict[Callable[..., Bot], Callable[..., Bot]] = {solver_bot: SolverBot}

#: Bots that see every card: only the match runner seats them (``allow_open``), to measure with.
OPEN_BOTS: dict[str, Callable[..., Bot]] = {"omniscient": OmniscientBot}
OPEN_DESCRIPTIONS = {
    "omniscient": "the exact solver seeing every card: a cheat that measures the distance to perfect "
    "information; only pasur match seats it, two sides only"
}

#: Difficulty levels for people, easiest first, and the bot each one plays (see docs/STRENGTH.md).
LEVELS = {
    "beginner": "random",
    "easy": "greedy",
    "medium": "expert",
    "hard": "ismcts",
    "master": "pimc",
    "grandmaster": "solver",
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``ismcts:iterations=2000,ms=500`` into its name and options (numbers read as such)."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    options: dict[str, Any] = {}
    if name == "exec":
        if not rest.strip():
            raise ValueError("exec: needs a command, as exec:python3 mybot.py")
        options["command"] = rest.strip()
        return name, options
    for pair in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bot option '{pair}' must be KEY=VALUE, as {name}:iterations=2000")
        options[key.strip()] = _number(raw.strip())
    return name, options


def _number(raw: str) -> Any:
    """An option's value: a whole number, a finite number, else the word (``nan`` and ``inf``
    stay words, so a bot that takes a number refuses them)."""
    for kind in (int, float):
        try:
            value = kind(raw)
        except ValueError:
            continue
        if math.isfinite(value):
            return value
    return raw


def validate_spec(spec: str, *, allow_exec: bool = False, allow_open: bool = False) -> tuple[str, dict[str, Any]]:
    """The bot a spec names (a level read as its bot) and its options, all checked; ValueError
    says what is wrong. ``exec:COMMAND`` runs a program, so only a caller that trusts where the
    spec came from (the command line) may allow it; a file, a request or a message never names a
    program. A bot that sees every card needs ``allow_open`` (the match runner's)."""
    name, options = _named(spec, allow_exec, allow_open)
    if name != "exec":
        _build(spec, name, options, None)  # a built-in bot checks its options as it is made
    return name, options


def _named(spec: str, allow_exec: bool, allow_open: bool = False) -> tuple[str, dict[str, Any]]:
    name, options = parse_spec(spec)
    name = LEVELS.get(name, name)
    if name == "exec" and not allow_exec:
        raise ValueError(f"bot '{spec}': a program (exec:) may only be named on the command line")
    if name == "net" and "weights" in options and not allow_exec:
        raise ValueError(f"bot '{spec}': a weights file may only be named on the command line")
    if name in OPEN_BOTS:
        if not allow_open:
            raise ValueError(f"bot '{spec}': {name} sees every card, so only pasur match seats it")
        return name, options
    if name not in (*BOT_NAMES, "exec"):
        raise ValueError(
            f"unknown bot '{spec}' (known: {', '.join(BOT_NAMES)}, levels {', '.join(LEVELS)}, exec:COMMAND)"
        )
    return name, options


def make_bot(spec: str, seed: int | None = None, *, allow_exec: bool = False, allow_open: bool = False) -> Bot:
    """A bot from its spec: a name (``random`` … ``solver``) or a level (``beginner`` … ``grandmaster``),
    with options (``ismcts:iterations=2000``), or ``exec:COMMAND`` (BOT-PROTOCOL.md) when
    ``allow_exec``, or ``omniscient`` when ``allow_open`` (see `validate_spec()`). ValueError
    says what is wrong with a bad spec."""
    name, options = _named(spec, allow_exec, allow_open)
    return _build(spec, name, options, seed)


#: Bots that search: the option that counts their work, and its default. Their think time a
#: move can be capped (`capped_spec`).
SEARCHING = {
    "ismcts": ("iterations", IsmctsBot.DEFAULT_ITERATIONS),
    "pimc": ("playouts", PimcBot.DEFAULT_PLAYOUTS),
    "solver": ("samples", SolverBot.DEFAULT_SAMPLES),
}


def capped_spec(spec: str, ms: float) -> str:
    """``spec`` with its think time no longer than ``ms`` a move (searching bots only; any other,
    a program too, as it is). A search bounded by count alone (its default, or the spec's) keeps
    that count, and stops at ``ms`` if it gets there first. ValueError for a bad spec."""
    name, options = _named(spec, allow_exec=True)
    if name not in SEARCHING:
        return spec
    _build(spec, name, options, None)  # its options checked
    if "ms" not in options:
        count, default = SEARCHING[name]
        options.setdefault(count, default)
    options["ms"] = min(float(options.get("ms", ms)), ms)
    return f"{name}:" + ",".join(
        f"{key}={value:g}" if key == "ms" else f"{key}={value}" for key, value in options.items()
    )


def _build(spec: str, name: str, options: dict[str, Any], seed: int | None) -> Bot:
    maker = {**_MAKERS, **OPEN_BOTS}[name]
    _check_options(spec, maker, options)
    return maker(seed=seed, **options)


def _check_options(spec: str, maker: Callable[..., Bot], options: dict[str, Any]) -> None:
    """ValueError for an option the bot does not take, or a word where it takes a number."""
    made = _WRAPPED.get(maker, maker)
    parameters = {key: str(value.annotation) for key, value in inspect.signature(made).parameters.items()}
    parameters.pop("seed", None)  # the caller's, not the spec's
    parameters.pop("judge", None)  # the registry's
    for key, value in options.items():
        kind = parameters.get(key)
        if kind is None:
            raise ValueError(f"bot '{spec}': no option '{key}' (its options: {', '.join(parameters) or 'none'})")
        if "str" in kind:
            continue
        whole = "float" not in kind
        if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
            raise ValueError(f"bot '{spec}': {key} must be a {'whole ' if whole else ''}number, not '{value}'")

"""The bot interface, and bots made from their names."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..core import Move, SeatView


class Bot(Protocol):
    """A player that sees only its seat's view."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """One of ``legal``, chosen from what ``view`` shows."""
        ...


class BotError(Exception):
    """A bot that broke the rules of play: an illegal or unreadable answer, no answer, or a crash.

    ``answer`` is what it said, when it said anything. As with :class:`pasur.core.Refusal`,
    ``reason`` names the kind of fault and ``details`` what it names, so an app can say it in
    another language (``pasur.i18n.refusal``)."""

    def __init__(self, message: str, reason: str, *, bot: str, answer: str | None = None, **details: Any) -> None:
        answer = None if answer is None else shown_answer(answer)
        shown = f" (it answered {answer!r})" if answer is not None else ""
        super().__init__(f"bot {bot}: {message}{shown}")
        self.bot = bot
        self.reason = reason
        self.details = details
        self.answer = answer


#: How much of a faulty bot's answer a fault shows.
SHOWN_ANSWER = 80


def shown_answer(answer: str) -> str:
    """A bot's answer as a fault may show it: cut to :data:`SHOWN_ANSWER` characters, and a JSON
    object with only the fields a move answer has (a bot that echoes its view would otherwise
    show its hidden hand to whoever reads the fault)."""
    try:
        data = json.loads(answer)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict):
        kept = {key: data[key] for key in ("type", "id", "move") if key in data}
        others = [key for key in data if key not in kept]
        answer = json.dumps(kept)[:-1] + (f", … {len(others)} other fields" if others else "") + "}"
    return answer if len(answer) <= SHOWN_ANSWER else answer[: SHOWN_ANSWER - 1] + "…"


#: Each built-in bot with its one-line description, weakest first.
BOT_DESCRIPTIONS = {
    "random": "plays a uniformly random legal move",
    "greedy": "takes the best immediate value: points taken, Sur, clubs",
    "expert": "hand-written judgement: counts unseen cards, weighs the next player's best reply, "
    "keeps Jacks and Aces, plays the clubs race and the last capture",
    "ismcts": "information-set Monte Carlo tree search over deals consistent with its view "
    "(options: iterations=N, ms=N, exploration=X, greedy=X)",
    "pimc": "sampling search: every move tried on the same sampled deals with the same luck "
    "(options: playouts=N, ms=N, greedy=X)",
}
BOT_NAMES = tuple(BOT_DESCRIPTIONS)

#: Difficulty levels for people, easiest first, and the bot each one plays (see docs/STRENGTH.md).
LEVELS = {"beginner": "random", "easy": "greedy", "medium": "expert", "hard": "ismcts", "master": "pimc"}


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
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def validate_spec(spec: str, *, allow_exec: bool = False) -> tuple[str, dict[str, Any]]:
    """The bot a spec names (a level read as its bot) and its options; ValueError says what is
    wrong. ``exec:COMMAND`` runs a program, so only a caller that trusts where the spec came from
    (the command line) may allow it; a file, a request or a message never names a program."""
    name, options = parse_spec(spec)
    name = LEVELS.get(name, name)
    if name == "exec" and not allow_exec:
        raise ValueError(f"bot '{spec}': a program (exec:) may only be named on the command line")
    if name not in (*BOT_NAMES, "exec"):
        raise ValueError(
            f"unknown bot '{spec}' (known: {', '.join(BOT_NAMES)}, levels {', '.join(LEVELS)}, exec:COMMAND)"
        )
    return name, options


def make_bot(spec: str, seed: int | None = None, *, allow_exec: bool = False) -> Bot:
    """A bot from its spec: a name (``random`` … ``pimc``) or a level (``beginner`` … ``master``),
    with options (``ismcts:iterations=2000``), or ``exec:COMMAND`` (BOT-PROTOCOL.md) when
    ``allow_exec`` (see :func:`validate_spec`). ValueError says what is wrong with a bad spec."""
    from .expert import ExpertBot
    from .ismcts import IsmctsBot
    from .pimc import PimcBot
    from .protocol import ExternalBot
    from .simple import GreedyBot, RandomBot

    name, options = validate_spec(spec, allow_exec=allow_exec)
    makers: dict[str, Callable[..., Bot]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        "expert": ExpertBot,
        "ismcts": IsmctsBot,
        "pimc": PimcBot,
        "exec": ExternalBot,
    }
    try:
        return makers[name](seed=seed, **options)
    except TypeError as error:
        raise ValueError(f"bot '{spec}': {error}") from None


def checked_choice(bot: Bot, view: SeatView, legal: Sequence[Move]) -> Move:
    """The bot's move, refused with :class:`BotError` unless it is one of ``legal``."""
    try:
        move = bot.choose(view, legal)
    except BotError:
        raise
    except Exception as error:  # a built-in bot that fails is a fault like any other
        failure = f"{type(error).__name__}: {error}"
        raise BotError(f"failed: {failure}", "bot_crashed", bot=bot.name, error=failure) from error
    if move not in legal:
        text = str(move)
        raise BotError("that move is not legal here", "bot_illegal_move", bot=bot.name, answer=text, move=text)
    return move

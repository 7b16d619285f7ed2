"""The bot interface, and the faults a bot can commit."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ..core import Move, Round, SeatView
from ..core.record import read_json


class Bot(Protocol):
    """A player that sees only its seat's view."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """One of ``legal``, chosen from what ``view`` shows."""
        ...


@runtime_checkable
class OpenBot(Protocol):
    """A bot that sees every card (``omniscient``, for measurement): the host gives it the round."""

    name: str

    def choose_open(self, game: Round, legal: Sequence[Move]) -> Move:
        """One of ``legal``, chosen seeing the whole of ``game``."""
        ...


class BotError(Exception):
    """A bot that broke the rules of play: an illegal or unreadable answer, no answer, or a crash.

    ``answer`` is what it said, when it said anything; ``stderr`` the last lines a program wrote on
    its standard error (what a crash says), when it wrote any. As with `pasur.core.Refusal`,
    ``reason`` names the kind of fault and ``details`` what it names, so an app can say it in
    another language (``pasur.i18n.refusal``)."""

    def __init__(
        self, message: str, reason: str, *, bot: str, answer: str | None = None, stderr: str = "", **details: Any
    ) -> None:
        answer = None if answer is None else shown_answer(answer)
        shown = f" (it answered {answer!r})" if answer is not None else ""
        said = f"\n{STDERR_HEADING}\n{stderr}" if stderr else ""
        super().__init__(f"bot {bot}: {message}{shown}{said}")
        self.bot = bot
        self.reason = reason
        self.details = details
        self.answer = answer
        self.stderr = stderr


#: What comes before a program's last lines on standard error in a fault.
STDERR_HEADING = "its last lines on standard error:"


#: How much of a faulty bot's answer a fault shows.
SHOWN_ANSWER = 80


def shown_answer(answer: str) -> str:
    """A bot's answer as a fault may show it: cut to `SHOWN_ANSWER` characters, and a JSON
    object with only the fields a move answer has (a bot that echoes its view would otherwise
    show its hidden hand to whoever reads the fault)."""
    try:
        data = read_json(answer)
    except ValueError:
        data = None
    if isinstance(data, dict):
        kept = {key: data[key] for key in ("type", "id", "move") if key in data}
        others = [key for key in data if key not in kept]
        answer = json.dumps(kept)[:-1] + (f", … {len(others)} other fields" if others else "") + "}"
    return answer if len(answer) <= SHOWN_ANSWER else answer[: SHOWN_ANSWER - 1] + "…"


def checked_choice(bot: Bot, view: SeatView, legal: Sequence[Move]) -> Move:
    """The bot's move, refused with `BotError` unless it is one of ``legal``."""
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

"""Every error the core raises: what it refuses (a `Refusal`, with a reason an app can say in
another language), and what it cannot read or do."""

from __future__ import annotations

from typing import Any


class Refusal(ValueError):
    """Something refused, with a message saying why. ``reason`` names the kind of refusal and
    ``details`` what it names (cards as short text, capture options as lists of them, ``""`` for
    laying down), so an app can say it in another language (``pasur.i18n.refusal``)."""

    def __init__(self, message: str, reason: str = "", **details: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details


class IllegalMove(Refusal):
    """A move that is not legal in the position."""


class DeckError(Refusal):
    """A deck that is not 52 distinct cards or whose table breaks the deal rules in force."""


class RulesError(ValueError):
    """A rules option that does not exist or has a value it cannot take."""


class SolveError(ValueError):
    """A position the solver cannot take: more than two sides (for an exact value), no native core,
    or a limit reached."""


class RecordError(ValueError):
    """An invalid record: ``round`` and ``move`` count from 1; ``move`` is 0 when the deck or the
    rules are wrong, and ``round`` is 0 when the record as a whole is."""

    def __init__(self, round: int, move: int, message: str) -> None:
        super().__init__(message)
        self.round = round
        self.move = move
        self.message = message

    def to_json(self) -> dict[str, Any]:
        """The error object ``pasur replay --json`` prints."""
        return {"error": {"round": self.round, "move": self.move, "message": self.message}}

    def __str__(self) -> str:
        where = []
        if self.round:
            where.append(f"round {self.round}")
        if self.move:
            where.append(f"move {self.move}")
        return (", ".join(where) + ": " if where else "") + self.message


class MissingExtra(ImportError):
    """A part of pasur needs an optional dependency that is not installed: the message names the
    extra that brings it (``pip install 'pasur[ray]'``). An ImportError, so that code which
    tries an optional part goes on as before."""

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what} needs its extra: pip install 'pasur[{extra}]'")
        self.extra = extra

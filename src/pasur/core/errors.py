"""What the core refuses, with a reason an app can say in another language."""

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


class DeckError(ValueError):
    """A deck that is not 52 distinct cards or whose table breaks the deal rules in force."""

"""Moves: a played card and the table cards it takes, with the short text form.

Inside the engine a move is one int, ``card | take_mask << 6``; `Move` is the readable
value type built from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from .cards import CARDS, Card, CardMask, cards_in, mask_of

#: A move as the engine's int: the played card, and the mask of the cards it takes above it.
MoveCode: TypeAlias = int


@dataclass(frozen=True, slots=True, repr=False)
class Move:
    """A played card and the cards it takes (none when it is laid on the table)."""

    card: Card
    take: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", CARDS[self.card])
        object.__setattr__(self, "take", tuple(sorted(CARDS[card] for card in self.take)))

    @property
    def code(self) -> MoveCode:
        """The engine's int for this move."""
        return self.card | mask_of(self.take) << 6

    @property
    def take_mask(self) -> CardMask:
        """The taken cards as a mask."""
        return mask_of(self.take)

    @property
    def captures(self) -> bool:
        """Whether the card takes anything."""
        return bool(self.take)

    @classmethod
    def from_code(cls, code: MoveCode) -> Move:
        """The move an engine int stands for."""
        return cls(CARDS[code & 63], tuple(cards_in(code >> 6)))

    def text(self, symbols: bool = False) -> str:
        """The full short text: ``7Cx4H``, ``5Dx2C+4S``, or ``KD`` when laid on the table."""
        show = Card.symbol if symbols else Card.__str__
        if not self.take:
            return show(self.card)
        return show(self.card) + "x" + "+".join(show(card) for card in self.take)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.parse('{self.text()}')"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read the full short text (``7Cx4H``, ``KD``); a card alone reads as laid down."""
        card, take = split_move_text(text)
        return cls(card, tuple(take or ()))

    def to_json(self) -> dict[str, object]:
        """The record form: ``{"card": "7C", "take": ["4H"]}``."""
        return {"card": str(self.card), "take": [str(card) for card in self.take]}

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """Read the protocol's form back (``card`` and ``take`` both given, cards as strings);
        ValueError saying what is wrong."""
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("card"), str)
            or not isinstance(data.get("take"), list)
        ):
            raise ValueError('a move must be an object such as {"card": "7C", "take": ["4H"]}')
        if not all(isinstance(text, str) for text in data["take"]):
            raise ValueError('take must be a list of cards such as ["4H"]')
        if "move" in data and not isinstance(data["move"], str):
            raise ValueError("a move's text must be a string")
        return cls(Card.parse(data["card"]), tuple(Card.parse(text) for text in data["take"]))


def split_move_text(text: str) -> tuple[Card, list[Card] | None]:
    """Read ``7Cx4H``, ``7C`` or ``7C-`` into a card and its taken cards (None when none were
    named; none, for ``7C-``: laid down)."""
    raw = text.strip()
    if not raw:
        raise ValueError("empty move: name a card, as 7C, or a capture, as 7Cx4H")
    if raw.endswith("-"):
        return Card.parse(raw[:-1]), []
    head, sep, tail = raw.replace("X", "x").partition("x")
    if not head.strip():
        raise ValueError(f"'{raw}' is not a move: name a card, as 7C, or a capture, as 7Cx4H")
    card = Card.parse(head)
    if not sep:
        return card, None
    if not tail.strip():
        raise ValueError(f"'{raw}': name the cards to take after the x, as 7Cx4H or 5Dx2C+4S")
    return card, [Card.parse(part) for part in tail.split("+")]

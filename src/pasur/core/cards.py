"""Cards as small ints and sets of cards as bitmasks, with the short text notation.

A card is ``rank * 4 + suit``: ranks ``A 2 … 10 J Q K`` are 0 … 12 and suits ``C D H S`` are
0 … 3, so the four cards of one rank are four neighbouring bits of a 52-bit mask.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

#: A set of cards as an int, bit ``card`` set for each card in it (hands, the table, piles).
CardMask: TypeAlias = int

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_NAMES = ("C", "D", "H", "S")
#: Each card's text, by its number.
_TEXTS = tuple(rank + suit for rank in RANK_NAMES for suit in SUIT_NAMES)
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")

ACE, JACK, QUEEN, KING = 0, 10, 11, 12
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

FULL_DECK = (1 << 52) - 1
NUMERALS = (1 << 40) - 1  # A … 10 of every suit
JACKS = 0b1111 << (JACK * 4)
NUMERALS_AND_JACKS = NUMERALS | JACKS
QUEENS = 0b1111 << (QUEEN * 4)
KINGS = 0b1111 << (KING * 4)
ACES = 0b1111
CLUB_CARDS = sum(1 << (rank * 4) for rank in range(13))
TWO_OF_CLUBS = 1 * 4 + CLUBS
TEN_OF_DIAMONDS = 9 * 4 + DIAMONDS
RANK_MASKS = tuple(0b1111 << (rank * 4) for rank in range(13))


class Card(int):
    """One card: an int from 0 to 51 that prints as ``7C``, ``10D``, ``QS``."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """0 for the Ace … 9 for the ten, 10 Jack, 11 Queen, 12 King."""
        return self >> 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self & 3

    @property
    def value(self) -> int:
        """The numeral value (A = 1 … 10), 0 for J, Q and K."""
        rank = self >> 2
        return rank + 1 if rank < JACK else 0

    def symbol(self) -> str:
        """The card with its suit symbol, as ``7♣``."""
        return RANK_NAMES[self >> 2] + SUIT_SYMBOLS[self & 3]

    def __str__(self) -> str:
        return _TEXTS[self]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``7C``, ``10d``, ``T♦``, ``qs``; raise ValueError naming the bad text."""
        card = _PARSE.get(text)
        if card is None:
            card = _PARSE.get(text.strip().upper())
        if card is None:
            raise ValueError(f"'{text.strip()}' is not a card (write it as 7C, 10D, QS or 7♣)")
        return card


CARDS: tuple[Card, ...] = tuple(Card(index) for index in range(52))

_PARSE: dict[str, Card] = {}
for _card in CARDS:
    _ranks = [RANK_NAMES[_card.rank]] + (["T"] if _card.rank == 9 else []) + (["1"] if _card.rank == 0 else [])
    for _rank in _ranks:
        for _suit in (SUIT_NAMES[_card.suit], SUIT_SYMBOLS[_card.suit]):
            _PARSE[_rank + _suit] = _card


def card_of(text: str | int) -> Card:
    """A card from its text or its index."""
    if isinstance(text, str):
        return Card.parse(text)
    if isinstance(text, int) and 0 <= text < 52:
        return CARDS[text]
    raise ValueError(f"{text!r} is not a card")


def mask_of(cards: Iterable[int]) -> CardMask:
    """The bitmask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: CardMask) -> list[Card]:
    """The cards of a mask, lowest rank first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def format_cards(mask: CardMask, separator: str = " ", symbols: bool = False) -> str:
    """A mask's cards as text, lowest rank first."""
    return separator.join(card.symbol() if symbols else str(card) for card in cards_in(mask))

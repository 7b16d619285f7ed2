"""A move in its position: the one reading of a typed, sent or recorded move, with the refusal
that says what is wrong, and the one shortest text (RECORDS.md, The short move text).

Everything here needs only the mover's hand, the table and the legal moves, so it works from a
seat's view as well as from a whole round.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARDS, CardMask, format_cards, mask_of
from .errors import IllegalMove
from .moves import MoveCode, split_move_text


def short_texts(codes: Sequence[MoveCode]) -> list[str]:
    """The shortest text of each of a position's legal moves: the card alone when it is that
    card's only choice, else ``card x taken``, or ``card -`` for laying down a card that could
    capture (only without compulsory capture)."""
    choices: dict[int, int] = {}
    for code in codes:
        choices[code & 63] = choices.get(code & 63, 0) + 1
    return [str(CARDS[code & 63]) if choices[code & 63] == 1 else _full_text(code) for code in codes]


def short_text(code: MoveCode, codes: Sequence[MoveCode]) -> str:
    """The shortest text of the legal move ``code`` among the position's legal ``codes``."""
    card = code & 63
    return str(CARDS[card]) if sum(1 for other in codes if other & 63 == card) == 1 else _full_text(code)


def _full_text(code: MoveCode) -> str:
    take = code >> 6
    return str(CARDS[code & 63]) + ("x" + format_cards(take, "+") if take else "-")


def parse_move(text: str, hand: CardMask, table: CardMask, codes: Sequence[MoveCode]) -> MoveCode:
    """The legal move a short text names (``7C``, ``7Cx4H``, ``7♣x4♥``), given the mover's hand,
    the table and the legal ``codes``; `IllegalMove` saying why there is none."""
    try:
        card, take = split_move_text(text)
    except ValueError as error:
        raise IllegalMove(str(error), "unreadable", text=text.strip()[:40]) from None
    return find_code(card, take, hand, table, codes)


def find_code(
    card: int, take: Sequence[int] | None, hand: CardMask, table: CardMask, codes: Sequence[MoveCode]
) -> MoveCode:
    """The legal move that plays ``card`` taking ``take`` (None: unnamed, allowed when the card
    has exactly one legal choice); `IllegalMove` saying why there is none."""
    card = CARDS[card]
    take_mask = None if take is None else mask_of(take)
    if take_mask is not None and take_mask.bit_count() == len(take or ()) and card | take_mask << 6 in codes:
        return card | take_mask << 6
    named = str(card)
    if not hand >> card & 1:
        raise IllegalMove(f"{card} is not in your hand", "not_in_hand", card=named)
    choices = [code for code in codes if code & 63 == card]
    if take_mask is None:
        if len(choices) == 1:
            return choices[0]
        raise IllegalMove(
            f"{card} can take {_options_text(choices)} here: say which",
            "say_which",
            card=named,
            options=_takes(choices),
        )
    if take_mask.bit_count() != len(take or ()):
        raise IllegalMove(f"{card}: a card is named twice in what it takes", "named_twice", card=named)
    if not take_mask:
        raise IllegalMove(
            f"{card} must capture here: it can take {_options_text(choices)}",
            "must_capture",
            card=named,
            options=_takes(choices),
        )
    missing = take_mask & ~table
    if missing:
        verb = "is" if missing.bit_count() == 1 else "are"
        cards = format_cards(missing)
        raise IllegalMove(f"{cards} {verb} not on the table", "not_on_table", cards=cards)
    taken = format_cards(take_mask, "+")
    captures = [code for code in choices if code >> 6]
    if not captures:
        raise IllegalMove(
            f"{card} cannot take {taken}: it can only be laid on the table", "only_lay_down", card=named, take=taken
        )
    raise IllegalMove(
        f"{card} cannot take {taken}; it can take {_options_text(captures)}",
        "cannot_take",
        card=named,
        take=taken,
        options=_takes(captures),
    )


def _takes(codes: Sequence[MoveCode]) -> list[str]:
    """What each move takes, as short text; "" for laying the card down."""
    return [format_cards(code >> 6, "+") for code in codes]


def _options_text(codes: Sequence[MoveCode]) -> str:
    return " or ".join(take or "nothing (lay it down)" for take in _takes(codes))

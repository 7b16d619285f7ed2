"""Dealing (RULES.md, The deal): shuffling, the first table's rules, and dealing the cards a seat
has not seen at random, for search."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import CARDS, JACK, JACKS, KING, QUEEN, RANK_MASKS, Card, CardMask, cards_in, mask_of
from .rules import Rules


def table_problem(table: CardMask, rules: Rules) -> str | None:
    """Why a first-deal table must be dealt again under ``rules``, or None if it stands."""
    jacks = (table & JACKS).bit_count()
    if jacks >= 2:
        return "two or more Jacks on the table"
    if jacks == 1 and rules.bury_table_jack:
        return "a Jack on the table (it should have been buried)"
    if rules.redeal_on_faces:
        if (table & RANK_MASKS[QUEEN]).bit_count() >= 3:
            return "three or more Queens on the table"
        if (table & RANK_MASKS[KING]).bit_count() >= 3:
            return "three or more Kings on the table"
    return None


def deck_problem(deck: Sequence[int], rules: Rules) -> str | None:
    """Why a dealt deck (top card first) cannot start a round, or None if it can."""
    if len(deck) != 52 or mask_of(deck) != (1 << 52) - 1:
        return "the deck must hold each of the 52 cards exactly once"
    start = 4 * rules.players
    return table_problem(mask_of(deck[start : start + 4]), rules)


def deal_deck(rng: random.Random, rules: Rules) -> list[Card]:
    """Shuffle and make the first deal as RULES.md says; return the pack top first.

    A single Jack on the table is replaced by the top card of the undealt pack and buried at a
    random place in it, never on top; a table the rules refuse is gathered and dealt again.
    """
    start = 4 * rules.players
    while True:
        cards = list(CARDS)
        rng.shuffle(cards)
        table = cards[start : start + 4]
        jacks = [index for index, card in enumerate(table) if card >> 2 == JACK]
        if len(jacks) == 1 and rules.bury_table_jack:
            jack = table[jacks[0]]
            rest = cards[start + 4 :]
            table[jacks[0]] = rest.pop(0)
            rest.insert(rng.randrange(1, len(rest) + 1), jack)
            cards = cards[:start] + table + rest
        if table_problem(mask_of(table), rules) is None:
            return cards


def share_unseen(unseen: CardMask, counts: Sequence[int], rng: random.Random) -> tuple[list[CardMask], list[Card]]:
    """Deal the cards of ``unseen`` at random: ``counts[seat]`` to each seat, the rest to the pack.
    The hands (0 for a seat given none), and every unseen card in the order dealt, the pack last."""
    cards = cards_in(unseen)
    rng.shuffle(cards)
    hands = []
    start = 0
    for count in counts:
        hands.append(mask_of(cards[start : start + count]))
        start += count
    return hands, cards

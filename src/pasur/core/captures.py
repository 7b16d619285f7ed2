"""Capture options from precomputed tables.

What a card may take depends only on some of the table: numerals worth at most ``11 - value``
for a numeral, numerals and Jacks for a Jack, cards of its rank for a King or Queen
(`DECIDING`). So each card's moves are kept in a bounded table keyed by the card and those
table cards. A numeral's takes are built from the subset sums of the low cards (A … 5, also kept)
plus at most one card of 6 … 10, since two such cards already make 12.
"""

from __future__ import annotations

from .cards import JACK, NUMERALS_AND_JACKS, RANK_MASKS

LOW_NUMERALS = (1 << 20) - 1  # A … 5
_CACHE_LIMIT = 1 << 19

# UP_TO[t]: every numeral worth t or less; HIGH_UP_TO[t]: those worth 6 … t.
UP_TO = tuple((1 << (4 * t)) - 1 for t in range(11))
HIGH_UP_TO = tuple(UP_TO[t] & ~LOW_NUMERALS for t in range(11))

# _low_sums[low_mask][s]: every subset of low_mask whose values add up to s (0 … 10).
_low_sums: dict[int, tuple[tuple[int, ...], ...]] = {}
# _takes[(relevant_numerals << 4) | value]: the take masks of a numeral of that value.
_takes: dict[int, tuple[int, ...]] = {}


def _subset_sums(low: int) -> tuple[tuple[int, ...], ...]:
    """Every subset of a mask of low cards, grouped by its total (totals up to 10 only)."""
    found: list[list[int]] = [[] for _ in range(11)]
    found[0].append(0)
    partial = [(0, 0)]
    mask = low
    while mask:
        bit = mask & -mask
        mask ^= bit
        value = (bit.bit_length() - 1 >> 2) + 1
        grown = []
        for subset, total in partial:
            total += value
            if total <= 10:
                grown.append((subset | bit, total))
                found[total].append(subset | bit)
        partial += grown
    return tuple(tuple(group) for group in found)


def _compute_takes(table: int, target: int) -> tuple[int, ...]:
    low = table & LOW_NUMERALS
    sums = _low_sums.get(low)
    if sums is None:
        if len(_low_sums) >= _CACHE_LIMIT:
            _low_sums.clear()
        sums = _low_sums[low] = _subset_sums(low)
    found = list(sums[target])
    high = table & HIGH_UP_TO[target]
    while high:
        bit = high & -high
        high ^= bit
        found.extend(bit | subset for subset in sums[target - ((bit.bit_length() - 1 >> 2) + 1)])
    return tuple(found)


def numeral_takes(table: int, value: int) -> tuple[int, ...]:
    """The sets of table cards (masks) a numeral of ``value`` may take: totals of 11."""
    key = (table & UP_TO[11 - value]) << 4 | value
    takes = _takes.get(key)
    if takes is None:
        if len(_takes) >= _CACHE_LIMIT:
            _takes.clear()
        takes = _takes[key] = _compute_takes(table, 11 - value)
    return takes


# DECIDING[card]: the table cards that decide what ``card`` may take.
DECIDING = tuple(
    UP_TO[10 - (card >> 2)] if card >> 2 < JACK else NUMERALS_AND_JACKS if card >> 2 == JACK else RANK_MASKS[card >> 2]
    for card in range(52)
)

# _card_moves[compulsory][(deciding_table_cards << 6) | card]: the move codes of that card.
_card_moves: tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]] = ({}, {})


def card_move_table(compulsory: bool) -> dict[int, tuple[int, ...]]:
    """The cache `card_moves()` fills, keyed by ``(table & DECIDING[card]) << 6 | card``."""
    return _card_moves[compulsory]


def card_moves(table: int, card: int, compulsory: bool) -> tuple[int, ...]:
    """The legal move codes (``card | take << 6``) of one card in hand: its captures, and laying
    it down when it has none or capture is not compulsory."""
    key = (table & DECIDING[card]) << 6 | card
    cache = _card_moves[compulsory]
    codes = cache.get(key)
    if codes is None:
        takes = capture_takes(table, card)
        codes = tuple(card | take << 6 for take in takes)
        if not takes or not compulsory:
            codes += (card,)
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        cache[key] = codes
    return codes


def capture_takes(table: int, card: int) -> tuple[int, ...]:
    """Every set of table cards (as masks) that ``card`` may take; empty if it cannot capture.

    A numeral takes numerals totalling 11 with it; a King or Queen takes one card of its rank;
    a Jack takes every numeral and Jack at once.
    """
    rank = card >> 2
    if rank < JACK:
        return numeral_takes(table, rank + 1)
    if rank == JACK:
        taken = table & NUMERALS_AND_JACKS
        return (taken,) if taken else ()
    same = table & RANK_MASKS[rank]
    takes = []
    while same:
        bit = same & -same
        same ^= bit
        takes.append(bit)
    return tuple(takes)


def hand_moves(hand: int, table: int, compulsory: bool) -> list[int]:
    """The legal move codes of a hand on a table, card by card, lowest card first."""
    cache = _card_moves[compulsory]
    deciding = DECIDING
    codes: list[int] = []
    while hand:
        bit = hand & -hand
        hand ^= bit
        card = bit.bit_length() - 1
        found = cache.get((table & deciding[card]) << 6 | card)
        if found is None:
            found = card_moves(table, card, compulsory)
        codes += found
    return codes

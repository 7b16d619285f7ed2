"""Positions built by hand, and every rules option a round depends on, for the tests."""

from __future__ import annotations

import itertools
import random
from typing import Any

from pasur import CARDS, Round, Rules, deal_deck, from_record
from pasur.core.cards import Card, mask_of

#: Every rules option a round depends on, each value (target and Haft Khaj only score matches).
ROUND_OPTIONS = [
    Rules(
        players=players,
        partnership=partnership,
        compulsory_capture=compulsory,
        sur_in_last_deal=last_deal,
        sur_cutoff=cutoff,
        bury_table_jack=bury,
        redeal_on_faces=redeal,
    )
    for players, partnership, compulsory, last_deal, cutoff, bury, redeal in itertools.product(
        (2, 3, 4), (True, False), (True, False), (False, True), (50, None, 0), (True, False), (True, False)
    )
    if players == 4 or partnership
]


def cards(text: str) -> list[Card]:
    """Cards from space-separated short text."""
    return [Card.parse(part) for part in text.split()]


def position(table: str, hand: str, rules: Rules | None = None, *, last_deal: bool = False, seed: int = 0) -> Round:
    """A round of ``rules`` in which seat 0 is to play ``hand`` onto ``table``.

    The round is dealt normally and then the given cards are moved into place, so hands of the
    other seats and the pack hold the rest; ``last_deal`` empties the pack.
    """
    rules = rules or Rules()
    game = Round(rules, deal_deck(random.Random(seed), rules))
    wanted_table, wanted_hand = mask_of(cards(table)), mask_of(cards(hand))
    game.table = wanted_table
    game.hands = [0] * rules.players
    game.hands[0] = wanted_hand
    rest = [card for card in range(52) if not (wanted_table | wanted_hand) >> card & 1]
    for seat in range(1, rules.players):
        game.hands[seat] = mask_of(rest[: len(cards(hand))])
        rest = rest[len(cards(hand)) :]
    game.turn = 0
    if last_deal:
        game.dealt = 52
        game.deal = rules.deals
    return game


def moves_text(game: Round) -> set[str]:
    """The legal moves of a position as full short text."""
    return {str(move) for move in game.legal_moves()}


CARD_NAMES = {str(card) for card in CARDS}


def cards_named(value: Any) -> set[str]:
    """Every card name anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if value in CARD_NAMES else set()
    if isinstance(value, dict):
        return set().union(*(cards_named(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_named(item) for item in value)) if value else set()
    return set()


def hidden_from(record: dict[str, Any], seat: int, version: int, between_rounds: bool = False) -> set[str]:
    """The cards ``seat`` could not see after ``version`` moves of a recorded match: the other
    hands and the pack (read by replaying the record cut at that move). When ``version`` ended a
    round, the next deal is what is hidden, unless ``between_rounds`` (the finished round is
    still shown, and nothing of it is hidden)."""
    rounds, left = [], version
    for entry in record["rounds"]:
        moves = entry["moves"][:left]
        rounds.append({"deck": entry["deck"], "moves": moves})
        left -= len(moves)
        if left == 0 and (between_rounds or len(moves) < len(entry["moves"])):
            break
    game = from_record({**record, "rounds": rounds}).round
    assert game is not None
    return {str(card) for card in game.view(seat).unseen()}

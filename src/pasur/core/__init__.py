"""The rules engine: standard library only, no I/O, randomness only through a passed-in RNG."""

from .cards import CARDS, Card, cards_in, format_cards, mask_of
from .game import DeckError, IllegalMove, Match, Refusal, Round, SideScore, deal_deck, deck_problem
from .moves import Move
from .record import RecordError, from_record, replay_record, summarize, to_record
from .rules import Rules, RulesError
from .view import Play, SeatMasks, SeatView, public_json, seat_masks, seat_view

__all__ = [
    "CARDS",
    "Card",
    "DeckError",
    "IllegalMove",
    "Match",
    "Move",
    "Play",
    "RecordError",
    "Refusal",
    "Round",
    "Rules",
    "RulesError",
    "SeatMasks",
    "SeatView",
    "SideScore",
    "cards_in",
    "deal_deck",
    "deck_problem",
    "format_cards",
    "from_record",
    "mask_of",
    "public_json",
    "replay_record",
    "seat_masks",
    "seat_view",
    "summarize",
    "to_record",
]

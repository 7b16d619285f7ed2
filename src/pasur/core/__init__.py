"""The rules engine: standard library only, no I/O, randomness only through a passed-in RNG."""

from .cards import CARDS, Card, CardMask, cards_in, format_cards, mask_of
from .deal import deal_deck, deck_problem
from .errors import DeckError, IllegalMove, RecordError, Refusal, RulesError, SolveError
from .game import Round
from .match import Match
from .moves import Move, MoveCode
from .notation import parse_move, short_text, short_texts
from .record import from_record, replay_record, summarize, to_record
from .round_moves import Played
from .rules import Rules
from .scoring import SideScore, relative_points
from .view import Play, SeatMasks, SeatView

__all__ = [
    "CARDS",
    "Card",
    "CardMask",
    "DeckError",
    "IllegalMove",
    "Match",
    "Move",
    "MoveCode",
    "Play",
    "Played",
    "RecordError",
    "Refusal",
    "Round",
    "Rules",
    "RulesError",
    "SeatMasks",
    "SeatView",
    "SideScore",
    "SolveError",
    "cards_in",
    "deal_deck",
    "deck_problem",
    "format_cards",
    "from_record",
    "mask_of",
    "parse_move",
    "relative_points",
    "replay_record",
    "short_text",
    "short_texts",
    "summarize",
    "to_record",
]

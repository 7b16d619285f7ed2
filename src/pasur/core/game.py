"""A round of Pasur, exactly as RULES.md says: the deals, the turns, the captures, the scoring."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .captures import DECIDING, card_move_table, card_moves
from .cards import FULL_DECK, JACK, CardMask, cards_in, format_cards, mask_of
from .deal import deck_problem, share_unseen
from .errors import DeckError
from .moves import MoveCode
from .round_moves import Played, ReadableMoves
from .rules import Rules
from .scoring import SideScore, breakdown, sur_counts
from .view import Play, RoundViews, SeatView

__all__ = ["Played", "Round"]


class Round(RoundViews, ReadableMoves):
    """One round: the deals, the turns, the captures and the round's scoring.

    Cards are ints and hands, table and piles are bitmasks; `legal_codes()` and
    `play_code()` are the fast path that search uses, `legal_moves()` and `play()`
    the readable one.
    """

    __slots__ = (
        "_compulsory",
        "_final",
        "_last_deal_sur",
        "_move_table",
        "_plays",
        "_side",
        "_sur_ok",
        "banked",
        "captured",
        "deal",
        "dealt",
        "deck",
        "first",
        "hands",
        "history",
        "last_capturer",
        "number",
        "over",
        "players",
        "rules",
        "surs",
        "table",
        "turn",
    )

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[int],
        number: int = 1,
        banked: Sequence[int] | None = None,
        *,
        check_deck: bool = True,
    ) -> None:
        """Start round ``number`` (from 1) from a dealt deck, top first; ``banked`` is the
        match score of each side before this round. A deck that breaks the deal rules raises
        `DeckError` (``check_deck=False`` trusts one made by `deal_deck()`)."""
        if check_deck:
            problem = deck_problem(deck, rules)
            if problem:
                raise DeckError(problem)
        self._setup(rules, number, banked)
        self.deck: tuple[int, ...] = tuple(deck)
        self.hands = [0] * rules.players
        self.dealt = 0
        self._deal_hands()
        self.table = mask_of(self.deck[self.dealt : self.dealt + 4])
        self.dealt += 4
        self.deal = 1
        self.captured = [0] * rules.sides
        self.surs = [0] * rules.sides
        self.last_capturer = -1
        self.turn = self.first
        self.history: list[int] = []
        self._plays: list[Play] = []  # the history as views show it, filled in as views are made
        self.over = False

    def _setup(self, rules: Rules, number: int, banked: Sequence[int] | None) -> None:
        """The fields that follow from the rules, the round number and the banked scores."""
        self.rules = rules
        self.players = rules.players
        self.number = number
        self._final: list[SideScore] | None = None  # the breakdown, once asked of a round that is over
        self.first = (number - 1) % rules.players
        self.banked: tuple[int, ...] = tuple(banked) if banked is not None else (0,) * rules.sides
        self._side = tuple(rules.side_of(seat) for seat in range(rules.players))
        # Whether a Sur counts for each side: before the last deal, and in it (see play_code).
        self._sur_ok = tuple(sur_counts(rules, score, last_deal=False) for score in self.banked)
        self._compulsory = rules.compulsory_capture
        self._move_table = card_move_table(rules.compulsory_capture)
        self._last_deal_sur = tuple(sur_counts(rules, score, last_deal=True) for score in self.banked)

    @classmethod
    def from_view(cls, view: SeatView, rng: random.Random) -> Round:
        """A whole round consistent with a seat's view: the cards it has not seen are dealt at
        random to the other hands and the pack. A determinization, for search."""
        game = cls.__new__(cls)
        game._setup(view.rules, view.round, view.scores)
        game.hands = [0] * view.rules.players
        game.hands[view.seat] = mask_of(view.hand)
        game.table = mask_of(view.table)
        game.captured = [mask_of(pile) for pile in view.captured]
        game.surs = list(view.surs)
        game.last_capturer = -1 if view.last_capturer is None else view.last_capturer
        game.turn = view.turn
        game.deal = view.deal
        game.dealt = 52 - view.pack
        game.history = [play.card | mask_of(play.take) << 6 for play in view.history]
        game._plays = list(view.history)
        game.over = view.over
        counts = list(view.hands)
        counts[view.seat] = 0
        game._deal_unseen(mask_of(view.unseen()), counts, rng)
        return game

    def reshuffle_unseen(self, seat: int, rng: random.Random) -> None:
        """Deal again, at random, every card ``seat`` cannot see (the other hands and the pack),
        keeping how many each holds. The view of ``seat`` does not change."""
        unseen = mask_of(self.deck[self.dealt :])
        counts = [0] * self.players
        for other, hand in enumerate(self.hands):
            if other != seat:
                unseen |= hand
                counts[other] = hand.bit_count()
        self._deal_unseen(unseen, counts, rng)

    def _deal_unseen(self, unseen: CardMask, counts: Sequence[int], rng: random.Random) -> None:
        """Share the cards of ``unseen`` at random, ``counts[seat]`` to each seat and the rest to
        the pack; the deck then lists every other card, the new hands, and the pack."""
        hands, cards = share_unseen(unseen, counts, rng)
        for seat, count in enumerate(counts):
            if count:
                self.hands[seat] = hands[seat]
        self.deck = tuple(cards_in(FULL_DECK & ~unseen)) + tuple(cards)

    def _deal_hands(self) -> None:
        deck, dealt, players = self.deck, self.dealt, self.players
        for offset in range(players):
            hand = 0
            for card in deck[dealt : dealt + 4]:
                hand |= 1 << card
            self.hands[(self.first + offset) % players] = hand
            dealt += 4
        self.dealt = dealt

    def native_fields(self) -> tuple[Any, ...]:
        """The round as the native core reads it (``_native.c``'s ``read_round``, in this order)."""
        return (
            self.players,
            self._compulsory,
            self.first,
            self._side,
            self._sur_ok,
            self._last_deal_sur,
            self.deck,
            self.hands,
            self.table,
            self.captured,
            self.surs,
            self.last_capturer,
            self.turn,
            self.dealt,
            self.deal,
            self.over,
        )

    def take_native_state(self, state: tuple[Any, ...], codes: Sequence[MoveCode]) -> None:
        """Take back what the native core changed by playing ``codes`` (``round_state``'s order)."""
        hands, table, captured, surs, last_capturer, turn, dealt, deal, over = state
        self.hands, self.table, self.captured, self.surs = list(hands), table, list(captured), list(surs)
        self.last_capturer, self.turn, self.dealt, self.deal, self.over = last_capturer, turn, dealt, deal, over
        self._final = None  # its breakdown is worked out again when asked
        self.history += codes

    def copy(self) -> Round:
        """An independent copy, for search."""
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.captured = self.captured[:]
        other.surs = self.surs[:]
        other.history = self.history[:]
        other._plays = self._plays[:]
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        """The same as `copy()`: the move tables stay shared, the state is copied."""
        return self.copy()

    # -- the rules of a turn ---------------------------------------------------------------

    @property
    def last_deal(self) -> bool:
        """Whether this is the deal that emptied the pack."""
        return self.dealt == 52

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return self._side[seat]

    def legal_codes(self) -> list[MoveCode]:
        """The legal moves of the player to move, as engine ints (``card | take << 6``)."""
        if self.over:
            return []
        # captures.hand_moves, inlined: search calls this at every step.
        table = self.table
        hand = self.hands[self.turn]
        cache = self._move_table
        deciding = DECIDING
        codes: list[MoveCode] = []
        while hand:
            bit = hand & -hand
            hand ^= bit
            card = bit.bit_length() - 1
            found = cache.get((table & deciding[card]) << 6 | card)
            if found is None:
                found = card_moves(table, card, self._compulsory)
            codes += found
        return codes

    def card_codes(self, card: int) -> tuple[MoveCode, ...]:
        """The legal moves that play ``card``, as engine ints; none when it is not in the hand of
        the player to move."""
        if self.over or not self.hands[self.turn] >> card & 1:
            return ()
        found = self._move_table.get((self.table & DECIDING[card]) << 6 | card)
        return card_moves(self.table, card, self._compulsory) if found is None else found

    def play_code(self, code: MoveCode) -> None:
        """Play a legal move given as an engine int. Legality is not checked: see `play()`."""
        card = code & 63
        take = code >> 6
        seat = self.turn
        self.hands[seat] ^= 1 << card
        if take:
            table = self.table ^ take
            self.table = table
            side = self._side[seat]
            self.captured[side] |= take | 1 << card
            self.last_capturer = side
            # A Sur (scoring.clears_table and scoring.sur_counts, inlined: this is the hot path).
            if not table and card >> 2 != JACK and (self._sur_ok if self.dealt < 52 else self._last_deal_sur)[side]:
                self.surs[side] += 1
        else:
            self.table |= 1 << card
        self.history.append(code)
        seat += 1
        if seat == self.players:
            seat = 0
        self.turn = seat
        if not self.hands[seat]:
            if self.dealt < 52:
                self._deal_hands()
                self.deal += 1
            else:
                self._finish()

    def play_random(self, rng: random.Random) -> None:
        """Finish the round with uniformly random legal moves."""
        random_float = rng.random
        while not self.over:
            codes = self.legal_codes()
            self.play_code(codes[int(random_float() * len(codes))])

    def _finish(self) -> None:
        """The last capturer takes what is left on the table (never a Sur)."""
        if self.last_capturer >= 0:
            self.captured[self.last_capturer] |= self.table
            self.table = 0
        self.over = True

    # -- scoring -----------------------------------------------------------------------------

    def breakdown(self) -> list[SideScore]:
        """Each side's round points from what it has captured so far (final once over, and then
        worked out once)."""
        if not self.over:
            return breakdown(self.rules, self.captured, self.surs)
        if self._final is None:
            self._final = breakdown(self.rules, self.captured, self.surs)
        return list(self._final)

    def points(self) -> list[int]:
        """Each side's round points so far."""
        return [score.total for score in self.breakdown()]

    def __repr__(self) -> str:
        hands = " | ".join(format_cards(hand) for hand in self.hands)
        return (
            f"<Round {self.number} deal {self.deal} turn {self.turn} "
            f"table [{format_cards(self.table)}] hands [{hands}]>"
        )

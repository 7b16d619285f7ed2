"""A round and a match of Pasur, exactly as RULES.md says."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .captures import DECIDING, card_move_table, card_moves
from .cards import (
    ACES,
    CARDS,
    CLUB_CARDS,
    FULL_DECK,
    JACK,
    JACKS,
    KING,
    QUEEN,
    RANK_MASKS,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    Card,
    cards_in,
    format_cards,
    mask_of,
)
from .moves import Move, short_texts, split_move_text
from .rules import Rules
from .view import Play, SeatView, seat_masks, seat_view

__all__ = ["DeckError", "IllegalMove", "Match", "Refusal", "Round", "SideScore", "deal_deck", "deck_problem"]


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


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's round breakdown (RULES.md, Scoring a round)."""

    clubs: int
    haft_khaj: int
    two_of_clubs: int
    ten_of_diamonds: int
    aces: int
    jacks: int
    surs: int
    sur_points: int
    cards: int

    @property
    def total(self) -> int:
        """The round points: Haft Khaj, 2♣, 10♦, aces, jacks and Sur points."""
        return self.haft_khaj + self.two_of_clubs + self.ten_of_diamonds + self.aces + self.jacks + self.sur_points


def table_problem(table: int, rules: Rules) -> str | None:
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


class Round:
    """One round: the deals, the turns, the captures and the round's scoring.

    Cards are ints and hands, table and piles are bitmasks; :meth:`legal_codes` and
    :meth:`play_code` are the fast path that search uses, :meth:`legal_moves` and :meth:`play`
    the readable one.
    """

    __slots__ = (
        "_compulsory",
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
        :class:`DeckError` (``check_deck=False`` trusts one made by :func:`deal_deck`)."""
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
        self._plays: list[Play] = []  # the history as views show it, filled in by seat_view
        self.over = False

    def _setup(self, rules: Rules, number: int, banked: Sequence[int] | None) -> None:
        """The fields that follow from the rules, the round number and the banked scores."""
        self.rules = rules
        self.players = rules.players
        self.number = number
        self.first = (number - 1) % rules.players
        self.banked: tuple[int, ...] = tuple(banked) if banked is not None else (0,) * rules.sides
        self._side = tuple(rules.side_of(seat) for seat in range(rules.players))
        cutoff = rules.sur_cutoff
        self._sur_ok = tuple(cutoff is None or score < cutoff for score in self.banked)
        self._compulsory = rules.compulsory_capture
        self._move_table = card_move_table(rules.compulsory_capture)
        self._last_deal_sur = rules.sur_in_last_deal

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
        game.history = [Move(play.card, play.take).code for play in view.history]
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

    def _deal_unseen(self, unseen: int, counts: Sequence[int], rng: random.Random) -> None:
        """Share the cards of ``unseen`` at random, ``counts[seat]`` to each seat and the rest to
        the pack; the deck then lists every other card, the new hands, and the pack."""
        cards = cards_in(unseen)
        rng.shuffle(cards)
        start = 0
        for seat, count in enumerate(counts):
            if count:
                self.hands[seat] = mask_of(cards[start : start + count])
                start += count
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
        """The same as :meth:`copy`: the move tables stay shared, the state is copied."""
        return self.copy()

    # -- the rules of a turn ---------------------------------------------------------------

    @property
    def pack(self) -> int:
        """How many cards are still to be dealt."""
        return 52 - self.dealt

    @property
    def last_deal(self) -> bool:
        """Whether this is the deal that emptied the pack."""
        return self.dealt == 52

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return self._side[seat]

    def legal_codes(self) -> list[int]:
        """The legal moves of the player to move, as engine ints (``card | take << 6``)."""
        if self.over:
            return []
        table = self.table
        hand = self.hands[self.turn]
        cache = self._move_table
        deciding = DECIDING
        codes: list[int] = []
        while hand:
            bit = hand & -hand
            hand ^= bit
            card = bit.bit_length() - 1
            found = cache.get((table & deciding[card]) << 6 | card)
            if found is None:
                found = card_moves(table, card, self._compulsory)
            codes += found
        return codes

    def card_codes(self, card: int) -> tuple[int, ...]:
        """The legal moves that play ``card``, as engine ints; none when it is not in the hand of
        the player to move."""
        if self.over or not self.hands[self.turn] >> card & 1:
            return ()
        found = self._move_table.get((self.table & DECIDING[card]) << 6 | card)
        return card_moves(self.table, card, self._compulsory) if found is None else found

    def play_code(self, code: int) -> None:
        """Play a legal move given as an engine int. Legality is not checked: see :meth:`play`."""
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
            if not table and card >> 2 != JACK and self._sur_ok[side] and (self.dealt < 52 or self._last_deal_sur):
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

    # -- readable moves ----------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move."""
        return [Move.from_code(code) for code in self.legal_codes()]

    def play(self, move: Move | str | int) -> Move:
        """Play a move given as a :class:`Move`, its short text or an engine int.

        An illegal move raises :class:`IllegalMove` and changes nothing.
        """
        code = self.resolve(move)
        self.play_code(code)
        return Move.from_code(code)

    def resolve(self, move: Move | str | int) -> int:
        """The engine int of a legal move given in any form; :class:`IllegalMove` if it is not."""
        if self.over:
            raise IllegalMove("the round is over", "round_over")
        if isinstance(move, str):
            try:
                card, take = split_move_text(move)
            except ValueError as error:
                raise IllegalMove(str(error), "unreadable", text=move.strip()) from None
            return self.resolve_parts(card, take)
        if isinstance(move, Move):
            return self.resolve_parts(move.card, list(move.take))
        if isinstance(move, int) and move in self.legal_codes():
            return move
        raise IllegalMove(f"{move!r} is not a legal move here", "not_legal", text=str(move))

    def resolve_parts(self, card: int, take: Sequence[int] | None) -> int:
        """The engine int for a card and the cards it takes (None: unnamed, allowed when the
        card has exactly one legal choice)."""
        card = CARDS[card]
        named = str(card)
        if not self.hands[self.turn] >> card & 1:
            raise IllegalMove(f"{card} is not in your hand", "not_in_hand", card=named)
        choices = [code for code in self.legal_codes() if code & 63 == card]
        if take is None:
            if len(choices) == 1:
                return choices[0]
            raise IllegalMove(
                f"{card} can take {_options_text(choices)} here: say which",
                "say_which",
                card=named,
                options=_takes(choices),
            )
        take_mask = mask_of(take)
        if take_mask.bit_count() != len(take):
            raise IllegalMove(f"{card}: a card is named twice in what it takes", "named_twice", card=named)
        code = card | take_mask << 6
        if code in choices:
            return code
        if not take_mask:
            raise IllegalMove(
                f"{card} must capture here: it can take {_options_text(choices)}",
                "must_capture",
                card=named,
                options=_takes(choices),
            )
        missing = take_mask & ~self.table
        if missing:
            verb = "is" if missing.bit_count() == 1 else "are"
            cards = format_cards(missing)
            raise IllegalMove(f"{cards} {verb} not on the table", "not_on_table", cards=cards)
        taken = format_cards(take_mask, "+")
        captures = [c for c in choices if c >> 6]
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

    def notation(self, code: int) -> str:
        """The shortest short text of a legal move here: the card alone when it has one choice."""
        legal = self.legal_codes()
        return short_texts([Move.from_code(other) for other in legal])[legal.index(code)]

    # -- scoring -----------------------------------------------------------------------------

    def breakdown(self) -> list[SideScore]:
        """Each side's round points from what it has captured so far (final once over)."""
        rules = self.rules
        clubs = [(pile & CLUB_CARDS).bit_count() for pile in self.captured]
        if rules.haft_khaj == "seven":
            haft = [7 if count >= 7 else 0 for count in clubs]
        else:
            most = max(clubs)
            haft = [7 if count == most and clubs.count(most) == 1 else 0 for count in clubs]
        fewest = min(self.surs) if rules.sur_cancel else 0
        return [
            SideScore(
                clubs=clubs[side],
                haft_khaj=haft[side],
                two_of_clubs=2 * (pile >> TWO_OF_CLUBS & 1),
                ten_of_diamonds=3 * (pile >> TEN_OF_DIAMONDS & 1),
                aces=(pile & ACES).bit_count(),
                jacks=(pile & JACKS).bit_count(),
                surs=self.surs[side],
                sur_points=5 * (self.surs[side] - fewest),
                cards=pile.bit_count(),
            )
            for side, pile in enumerate(self.captured)
        ]

    def points(self) -> list[int]:
        """Each side's round points so far."""
        return [score.total for score in self.breakdown()]

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: the only way information should leave the core."""
        return seat_view(self, seat)

    #: ``masks(seat)``: the same as :meth:`view` but the history, as card masks: the fast form
    #: (the function itself, so reading a view at every step costs one call).
    masks = seat_masks

    def hand(self, seat: int) -> list[Card]:
        """A seat's cards (the full state: use views outside the core)."""
        return cards_in(self.hands[seat])

    def __repr__(self) -> str:
        hands = " | ".join(format_cards(hand) for hand in self.hands)
        return (
            f"<Round {self.number} deal {self.deal} turn {self.turn} "
            f"table [{format_cards(self.table)}] hands [{hands}]>"
        )


def _takes(codes: Sequence[int]) -> list[str]:
    """What each move takes, as short text; "" for laying the card down."""
    return [format_cards(code >> 6, "+") for code in codes]


def _options_text(codes: Sequence[int]) -> str:
    return " or ".join(take or "nothing (lay it down)" for take in _takes(codes))


class Match:
    """A match: rounds until a side reaches the target with the highest score (RULES.md, The
    match). The deal passes one seat each round."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        auto_deal: bool = True,
        rng: random.Random | None = None,
    ) -> None:
        """Start a match; with ``auto_deal`` each round is shuffled from ``seed`` as the previous
        one ends, else :meth:`next_round` deals a given deck. ``rng``, when given, shuffles
        instead of a generator seeded from ``seed`` (and goes on being used by its owner)."""
        self.rules = rules or Rules()
        self.scores = [0] * self.rules.sides
        self.rounds: list[Round] = []
        self.winner: int | None = None
        self.auto_deal = auto_deal
        self._rng = random.Random(seed) if rng is None else rng
        if auto_deal:
            self.next_round()

    @property
    def round(self) -> Round | None:
        """The round being played, or the last one."""
        return self.rounds[-1] if self.rounds else None

    @property
    def over(self) -> bool:
        """Whether a side has won."""
        return self.winner is not None

    @property
    def turn(self) -> int | None:
        """The seat to play, or None when no round is under way."""
        current = self.round
        return None if current is None or current.over else current.turn

    def next_round(self, deck: Sequence[int] | None = None) -> Round:
        """Deal the next round from ``deck`` (top first) or a fresh shuffle."""
        if self.over:
            raise IllegalMove("the match is over", "match_over")
        if self.round is not None and not self.round.over:
            raise IllegalMove("the current round is not over")
        trusted = deck is None
        if deck is None:
            deck = deal_deck(self._rng, self.rules)
        current = Round(self.rules, deck, len(self.rounds) + 1, self.scores, check_deck=not trusted)
        self.rounds.append(current)
        return current

    def keep_dealing(self, seed: int | None) -> None:
        """Shuffle every later round from ``seed`` as the one before ends, dealing one now if the
        last round is over: how a match read from a record is played on."""
        self.auto_deal = True
        self._rng = random.Random(seed)
        if not self.over and (self.round is None or self.round.over):
            self.next_round()

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move."""
        current = self.round
        return current.legal_moves() if current is not None else []

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know of the current round."""
        if self.round is None:
            raise IllegalMove("no round has been dealt")
        return self.round.view(seat)

    def play(self, move: Move | str | int) -> Move:
        """Play a move in the current round; bank the round when it ends."""
        current = self.round
        if current is None or current.over:
            raise IllegalMove("no round is under way")
        played = current.play(move)
        if current.over:
            self._bank(current)
        return played

    def play_code(self, code: int) -> None:
        """Play a legal engine int unchecked, banking the round when it ends."""
        current = self.rounds[-1]
        current.play_code(code)
        if current.over:
            self._bank(current)

    def _bank(self, finished: Round) -> None:
        for side, points in enumerate(finished.points()):
            self.scores[side] += points
        best = max(self.scores)
        if best >= self.rules.target and self.scores.count(best) == 1:
            self.winner = self.scores.index(best)
        elif self.auto_deal:
            self.next_round()

    def copy(self) -> Match:
        """An independent copy, for search (the copy's own shuffles differ)."""
        other = Match.__new__(Match)
        other.rules = self.rules
        other.scores = self.scores[:]
        other.rounds = [*self.rounds[:-1], self.rounds[-1].copy()] if self.rounds else []
        other.winner = self.winner
        other.auto_deal = self.auto_deal
        other._rng = random.Random(self._rng.random())
        return other

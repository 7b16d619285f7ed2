"""A match of Pasur: rounds until a side wins (RULES.md, The match)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .deal import deal_deck
from .errors import IllegalMove
from .game import Round
from .moves import Move, MoveCode
from .round_moves import Played
from .rules import Rules

__all__ = ["Match"]


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
        one ends, else `next_round()` deals a given deck. ``rng``, when given, shuffles
        instead of a generator seeded from ``seed`` (and goes on being used by its owner)."""
        self.rules = rules or Rules()
        self.scores = [0] * self.rules.sides
        self.rounds: list[Round] = []
        self.winner: int | None = None
        self.auto_deal = auto_deal
        self._rng = random.Random(seed) if rng is None else rng
        if auto_deal:
            self.next_round()

    @classmethod
    def first_dealt(cls, rules: Rules, deck: Sequence[int], seed: int | None = None) -> Match:
        """A match whose first round is dealt from ``deck`` (top first; DeckError if the rules
        refuse it) and every later one shuffled from ``seed``: a lesson's chosen deal."""
        match = cls(rules, auto_deal=False)
        match.next_round(deck)
        match.keep_dealing(seed)
        return match

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

    def play(self, move: Move | str | MoveCode) -> Played:
        """Play a move in the current round, and say what it did; bank the round when it ends."""
        current = self.round
        if current is None or current.over:
            raise IllegalMove("no round is under way")
        played = current.play(move)
        if current.over:
            self._bank(current)
        return played

    def play_code(self, code: MoveCode) -> None:
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

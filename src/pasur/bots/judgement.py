"""Hand-written Pasur judgement from a seat's view, shared by the bots.

Everything here reads a `SeatView` turned into masks (`Position`); nothing sees a
hidden card. Values are in round points from the viewpoint of the seat to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from ..core import Rules, SeatView
from ..core.captures import card_moves
from ..core.cards import CardMask, mask_of
from ..core.scoring import (
    HAFT_KHAJ_CLUBS,
    HAFT_KHAJ_POINTS,
    SUR_POINTS,
    card_points,
    clears_table,
    club_count,
    sur_counts,
)

#: A club's worth when the race for the most clubs is shared among more than two sides: its share
#: of Haft Khaj, weighed up as a tie breaker.
SHARED_CLUB = HAFT_KHAJ_POINTS / 13 * 1.5


@lru_cache(maxsize=4096)
def club_weight(mine: int, theirs: int, remaining: int) -> float:
    """What one more club is worth to a side holding ``mine`` against ``theirs`` (Haft Khaj:
    7 points for 7 or more), with ``remaining`` clubs still to be taken, shared at random."""
    if mine >= HAFT_KHAJ_CLUBS or theirs >= HAFT_KHAJ_CLUBS or remaining <= 0:
        return 0.0

    def race(a: int, b: int, rest: int) -> float:
        """7 × (P(a reaches 7) − P(b reaches 7)) when the rest split evenly at random."""
        total = 0.0
        for gained in range(rest + 1):
            weight = comb(rest, gained) / 2**rest
            total += weight * ((a + gained >= HAFT_KHAJ_CLUBS) - (b + rest - gained >= HAFT_KHAJ_CLUBS))
        return HAFT_KHAJ_POINTS * total

    return (race(mine + 1, theirs, remaining - 1) - race(mine, theirs + 1, remaining - 1)) / 2


def club_worth(rules: Rules, clubs: Sequence[int], side: int) -> float:
    """What one more club is worth to ``side``, each side holding ``clubs``: its share of Haft
    Khaj by the odds of the race (two sides), else a tie breaker while the race is open."""
    if rules.sides == 2:
        return club_weight(clubs[side], clubs[1 - side], 13 - sum(clubs))
    if rules.haft_khaj == "seven" and max(clubs) >= HAFT_KHAJ_CLUBS:
        return 0.0
    return SHARED_CLUB


def others_sur_count(rules: Rules, scores: Sequence[int], side: int, last_deal: bool) -> bool:
    """Whether a Sur would count for any side but ``side``."""
    return any(sur_counts(rules, score, last_deal) for other, score in enumerate(scores) if other != side)


def expected_best(offers: Sequence[tuple[float, float]]) -> float:
    """The expected best of several gains, each (gain, chance) on offer with its chance,
    independently: the best is taken when offered, the next when the best is not, and so on."""
    expected, none_better = 0.0, 1.0
    for gain, chance in sorted(offers, reverse=True):
        expected += gain * chance * none_better
        none_better *= 1 - chance
    return expected


@dataclass(slots=True)
class Position:
    """A view as masks, with what the bots derive from it."""

    view: SeatView
    hand: int
    table: int
    unseen: int
    side: int
    club_value: float
    my_sur: bool
    their_sur: bool
    next_hand: int

    @classmethod
    def of(cls, view: SeatView) -> Position:
        """Read a view."""
        rules = view.rules
        side = view.side
        club_value = club_worth(rules, [club_count(mask_of(pile)) for pile in view.captured], side)
        my_sur = sur_counts(rules, view.scores[side], view.last_deal)
        their_sur = others_sur_count(rules, view.scores, side, view.last_deal)
        next_seat = (view.seat + 1) % rules.players
        next_hand = view.hands[next_seat] or (4 if view.pack else 0)
        return cls(
            view=view,
            hand=mask_of(view.hand),
            table=mask_of(view.table),
            unseen=mask_of(view.unseen()),
            side=side,
            club_value=club_value,
            my_sur=my_sur,
            their_sur=their_sur,
            next_hand=next_hand,
        )

    def value(self, mask: CardMask) -> float:
        """What capturing these cards is worth, the clubs weighed by the state of the race."""
        return card_points(mask) + self.club_value * club_count(mask)

    def gain(self, code: int, sur_allowed: bool) -> float:
        """The immediate value of a move: the cards taken with the played one, and a Sur."""
        take = code >> 6
        if not take:
            return 0.0
        card = code & 63
        gained = self.value(take | 1 << card)
        if sur_allowed and clears_table(card, take, self.table):
            gained += SUR_POINTS
        return gained

    def best_reply(self, table: int, card: int, compulsory: bool) -> float:
        """The most an opponent holding ``card`` can gain on ``table``."""
        best = 0.0
        for code in card_moves(table, card, compulsory):
            take = code >> 6
            if take:
                gained = self.value(take | 1 << card)
                if self.their_sur and clears_table(card, take, table):
                    gained += SUR_POINTS
                best = max(best, gained)
        return best

    def threat(self, table: int, unseen: int) -> float:
        """Expected best gain of the next player on ``table``: the unseen cards sorted by what
        each would gain, each held with probability (their hand) / (cards unseen)."""
        holding = self.next_hand
        count = unseen.bit_count()
        if not holding or not count:
            return 0.0
        chance = min(1.0, holding / count)
        compulsory = self.view.rules.compulsory_capture
        gains = []
        mask = unseen
        while mask:
            bit = mask & -mask
            mask ^= bit
            gained = self.best_reply(table, bit.bit_length() - 1, compulsory)
            if gained > 0:
                gains.append(gained)
        return expected_best([(gained, chance) for gained in gains])


def move_substance(code: int) -> tuple[tuple[int, int, int], tuple[tuple[int, int, int], ...]]:
    """What a move is, twin cards aside: the played card's rank, points and club, and the same of
    each card it takes (a 6♥ taking 2♣ 3♥ is the 6♦ taking 2♣ 3♠; a 5♣ is not a 5♦)."""
    card, take = code & 63, code >> 6
    return _worth(card), tuple(sorted(_worth(taken) for taken in range(52) if take >> taken & 1))


def _worth(card: int) -> tuple[int, int, int]:
    return card >> 2, card_points(1 << card), club_count(1 << card)

"""What cards and plays are worth (RULES.md, Scoring a round): the one place the core, the bots,
the environments, the arena and the apps learn it from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from .cards import ACES, CLUB_CARDS, JACK, JACKS, TEN_OF_DIAMONDS, TWO_OF_CLUBS, CardMask
from .rules import Rules

#: Points for a Sur, for the most (or seven) clubs (Haft Khaj), for the 2♣ and for the 10♦; every
#: Ace and Jack is worth 1.
SUR_POINTS = 5
HAFT_KHAJ_POINTS = 7
#: How many clubs make Haft Khaj under ``haft_khaj="seven"`` (of the 13 in the deck).
HAFT_KHAJ_CLUBS = 7
TWO_OF_CLUBS_POINTS = 2
TEN_OF_DIAMONDS_POINTS = 3


def card_points(cards: CardMask) -> int:
    """Points of the cards themselves: Aces and Jacks 1, the 2♣ 2, the 10♦ 3."""
    return (
        (cards & ACES).bit_count()
        + (cards & JACKS).bit_count()
        + TWO_OF_CLUBS_POINTS * (cards >> TWO_OF_CLUBS & 1)
        + TEN_OF_DIAMONDS_POINTS * (cards >> TEN_OF_DIAMONDS & 1)
    )


def point_cards(cards: CardMask) -> CardMask:
    """The cards of a mask that are worth points of their own."""
    return cards & (ACES | JACKS | 1 << TWO_OF_CLUBS | 1 << TEN_OF_DIAMONDS)


def club_count(cards: CardMask) -> int:
    """How many clubs a mask holds."""
    return (cards & CLUB_CARDS).bit_count()


def clears_table(card: int, take: CardMask, table: CardMask) -> bool:
    """Whether playing ``card`` to take ``take`` from ``table`` takes all of it with a card that is
    not a Jack: a Sur, when Surs count for the side (`sur_counts()`)."""
    return take != 0 and take == table and card >> 2 != JACK


def sur_counts(rules: Rules, banked: int, last_deal: bool) -> bool:
    """Whether a Sur counts for a side that has banked ``banked`` match points, in the last deal
    or not: the Sur cut-off, and Surs in the last deal only when the rules say so."""
    cutoff = rules.sur_cutoff
    return (cutoff is None or banked < cutoff) and (not last_deal or rules.sur_in_last_deal)


def relative_points(points: Sequence[float], side: int) -> float:
    """A side's points minus the mean of the other sides' (the measure of the arena, the
    environments' reward and the search bots' playouts)."""
    own = points[side]
    return own - (sum(points) - own) / (len(points) - 1)


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

    def to_json(self) -> dict[str, int]:
        """Every line of the breakdown, and the round points as ``points``."""
        return {"points": self.total, **{name: getattr(self, name) for name in _SCORE_LINES}}


#: The lines of a side's breakdown, in order.
_SCORE_LINES = tuple(field.name for field in fields(SideScore))


def breakdown(rules: Rules, captured: Sequence[CardMask], surs: Sequence[int]) -> list[SideScore]:
    """Each side's round points from the piles it has captured and the Surs it has made."""
    clubs = [club_count(pile) for pile in captured]
    if rules.haft_khaj == "seven":
        haft = [HAFT_KHAJ_POINTS if count >= HAFT_KHAJ_CLUBS else 0 for count in clubs]
    else:
        most = max(clubs)
        haft = [HAFT_KHAJ_POINTS if count == most and clubs.count(most) == 1 else 0 for count in clubs]
    fewest = min(surs) if rules.sur_cancel else 0
    return [
        SideScore(
            clubs=clubs[side],
            haft_khaj=haft[side],
            two_of_clubs=TWO_OF_CLUBS_POINTS * (pile >> TWO_OF_CLUBS & 1),
            ten_of_diamonds=TEN_OF_DIAMONDS_POINTS * (pile >> TEN_OF_DIAMONDS & 1),
            aces=(pile & ACES).bit_count(),
            jacks=(pile & JACKS).bit_count(),
            surs=surs[side],
            sur_points=SUR_POINTS * (surs[side] - fewest),
            cards=pile.bit_count(),
        )
        for side, pile in enumerate(captured)
    ]

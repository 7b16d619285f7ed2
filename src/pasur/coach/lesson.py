"""The first-game lesson: a round on a chosen deal against a gentle bot, with tips that tell each
rule once, as it first arises (docs/RULES.md has every rule).

`lesson_tips()` reads one seat's view and returns every tip the position gives, in the order
to tell them: what the last plays showed (a numeral's 11, a King or Queen taking its like, a Jack,
a Sur, point cards, Haft Khaj), what the round's end did (the last sweep, the points), then what
the learner can do now, each with the move it suggests. The page tells each topic once, so tips
need no memory here; the chosen first deal makes the rules arise in a sensible order when the
learner follows the suggestions, and the tips still fit when they do not. Only the seat's view
is used, and only in the first round: after it the learner plays on without tips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.simple import immediate_value
from ..core import Card, Match, Move, Rules, SeatView, cards_in, mask_of
from ..core.cards import ACES, JACK, JACKS, KING, QUEEN, TEN_OF_DIAMONDS, TWO_OF_CLUBS, card_of
from ..core.scoring import HAFT_KHAJ_CLUBS, breakdown, clears_table, club_count, sur_counts
from ..i18n import LANGUAGES, cards_words, isolated, move_words, number_text, text

__all__ = ["LEARNER", "LESSON_DECK", "LESSON_LEVEL", "Tip", "lesson_match", "lesson_tips", "untold"]

#: The level the learner plays against: it takes what is worth most at once, no more.
LESSON_LEVEL = "easy"
#: The lesson's first round, top card first: the learner (seat 0) holds 5♥ 6♥ J♥ K♦, the bot
#: Q♣ 10♥ 4♠ K♣, and the table shows 6♣ Q♦ 2♦ 3♠. Following the tips, the learner takes with a
#: numeral (5♥ × 6♣), sees the bot's Queen take a Queen, makes a Sur (6♥ × 2♦+3♠) and clears the
#: table with a Jack that makes none. The rest of the pack is the shuffle, of 300 tried, that left
#: the learner furthest ahead at the round's end in its worst case (+19 points), whether it then
#: played greedily, at random or as ``medium`` (benchmarks/lesson_deals.py): a first game ends well.
_LESSON_CARDS = (
    "5H 6H JH KD  QC 10H 4S KC  6C QD 2D 3S  "
    "4C 2C 3D 3H 7S AS 8H 10S 5S 9C 8D 8S KS 4H 4D 6D 9D JD 10D 6S 3C 10C QH 7C JS 5C AH AD 9S 9H "
    "7H QS JC KH 5D 7D 8C AC 2H 2S"
)
LESSON_DECK: tuple[Card, ...] = tuple(card_of(text) for text in _LESSON_CARDS.split())
#: The learner's seat at a lesson table.
LEARNER = 0
#: Point cards, for the tip that first names them.
_POINT_CARDS = ACES | JACKS | 1 << TWO_OF_CLUBS | 1 << TEN_OF_DIAMONDS


@dataclass(frozen=True, slots=True)
class Tip:
    """One thing to tell the learner: its topic (told once), its words in each language, and the
    move it suggests (None when it suggests none)."""

    topic: str
    words: dict[str, str]
    move: Move | None = None

    def to_json(self) -> dict[str, Any]:
        """The form the page gets: ``{"topic", "text": {lang: words}, "card", "take"}``."""
        card, take = (str(self.move.card), [str(card) for card in self.move.take]) if self.move else (None, [])
        return {"topic": self.topic, "text": self.words, "card": card, "take": take}


@dataclass(slots=True)
class _Replayed:
    """The round's plays as the seat saw them, with the table each left (before the end's sweep)."""

    tables_after: list[int] = field(default_factory=list)
    surs: list[bool] = field(default_factory=list)


def lesson_match(seed: int | None = None) -> Match:
    """A lesson's match: the lesson's first round, every later one shuffled from ``seed``."""
    return Match.first_dealt(Rules(), LESSON_DECK, seed)


def untold(tips: Sequence[Tip], told: set[str]) -> list[Tip]:
    """What to tell now, as the page does: the tips whose topic is not in ``told``, in order, up
    to and including the first that suggests a move; their topics join ``told``. (Each topic is
    told once, so a few at most are new at any time.)"""
    fresh: list[Tip] = []
    for tip in tips:
        if tip.topic in told:
            continue
        fresh.append(tip)
        if tip.move is not None:
            break
    told.update(tip.topic for tip in fresh)
    return fresh


def lesson_tips(view: SeatView) -> list[Tip]:
    """Every tip ``view`` gives its seat in a lesson's first round, in the order to tell them
    (none in later rounds)."""
    if view.round != 1:
        return []
    replayed = _replay(view)
    tips: list[Tip] = []
    if not view.history:
        tips.append(_tip("welcome"))
    recent = range(max(0, len(view.history) - view.rules.players), len(view.history))
    for index in recent:
        tips += _play_tips(view, index, replayed)
    tips += _club_tips(view)
    if view.over:
        tips += _end_tips(view, replayed)
    elif view.turn == view.seat:
        tips += _turn_tips(view)
    return tips


def _tip(topic: str, form: str = "", suggest: Move | None = None, **values: Any) -> Tip:
    """The tip ``topic`` in every language, told in its catalog ``form`` ("now", "you", "other":
    ``lesson_{topic}_{form}``); values that are functions of the language are called."""
    key = f"lesson_{topic}_{form}" if form else f"lesson_{topic}"
    words = {
        lang: text(key, lang, **{name: value(lang) if callable(value) else value for name, value in values.items()})
        for lang in LANGUAGES
    }
    return Tip(topic, words, suggest)


def _replay(view: SeatView) -> _Replayed:
    """The table after each play and which plays made a Sur. The first table is every card seen
    that nobody played: whatever was dealt to the table ends on it or in a pile."""
    seen = mask_of(view.table)
    for pile in view.captured:
        seen |= mask_of(pile)
    table = seen & ~mask_of(play.card for play in view.history)
    plays_a_deal = 4 * view.rules.players
    replayed = _Replayed()
    for index, play in enumerate(view.history):
        take = mask_of(play.take)
        last_deal = index // plays_a_deal + 1 == view.rules.deals
        banked = view.scores[view.rules.side_of(play.seat)]
        sur = clears_table(play.card, take, table) and sur_counts(view.rules, banked, last_deal)
        table = table & ~take if take else table | 1 << play.card
        replayed.tables_after.append(table)
        replayed.surs.append(sur)
    return replayed


def _who(view: SeatView, side: int) -> str:
    """The form of an event's words: the learner's side did it, or the other."""
    return "you" if side == view.side else "other"


def _play_tips(view: SeatView, index: int, replayed: _Replayed) -> list[Tip]:
    """What play ``index`` of the round showed."""
    play = view.history[index]
    move = Move(play.card, play.take)
    who = _who(view, view.rules.side_of(play.seat))
    tips = []
    if replayed.surs[index]:
        tips.append(_tip("sur", who, move=_move_text(move)))
    topic = _capture_topic(move)
    if topic:
        tips.append(_tip(topic, who, move=_move_text(move), sum=_sum_text(move)))
    points = (mask_of(play.take) | 1 << play.card) & _POINT_CARDS if play.take else 0
    if points:
        tips.append(_tip("points", who, cards=_cards_text(cards_in(points))))
    return tips


def _capture_topic(move: Move) -> str | None:
    """Which rule a capture shows: a numeral's 11, a face taking its like, or a Jack."""
    if not move.take:
        return None
    if move.card.rank == JACK:
        return "jack"
    return "faces" if move.card.rank in (QUEEN, KING) else "eleven"


def _club_tips(view: SeatView) -> list[Tip]:
    """Haft Khaj, once a side's pile holds 7 clubs."""
    for side, pile in enumerate(view.captured):
        if club_count(mask_of(pile)) >= HAFT_KHAJ_CLUBS:
            return [_tip("haft_khaj", _who(view, side))]
    return []


def _end_tips(view: SeatView, replayed: _Replayed) -> list[Tip]:
    """The round's end: the last sweep, the points (the lesson's two sides), and playing on."""
    tips = []
    left = replayed.tables_after[-1] if replayed.tables_after else 0
    if left and view.last_capturer is not None:
        tips.append(_tip("last_sweep", _who(view, view.rules.side_of(view.last_capturer)), count=left.bit_count()))
    scores = breakdown(view.rules, [mask_of(pile) for pile in view.captured], view.surs)
    own, other = scores[view.side], scores[1 - view.side]
    tips.append(_tip("scoring", clubs=own.clubs, other_clubs=other.clubs, points=own.total, other_points=other.total))
    tips.append(_tip("play_on", target=view.rules.target))
    return tips


def _turn_tips(view: SeatView) -> list[Tip]:
    """What the learner can do now, the topic's best move suggested (by what it takes at once)."""
    legal = view.legal_moves()
    table = mask_of(view.table)
    tips = []
    if view.deal == 2:
        tips.append(_tip("deal"))
    if view.last_deal:
        tips.append(_tip("last_deal"))
    sur_allowed = sur_counts(view.rules, view.scores[view.side], view.last_deal)
    sweeps = [move for move in legal if clears_table(move.card, move.take_mask, table) and sur_allowed]
    if sweeps:
        best = _best(view, sweeps)
        tips.append(_tip("sur", "now", best, move=_move_text(best)))
    for topic in ("eleven", "faces", "jack"):
        moves = [move for move in legal if _capture_topic(move) == topic]
        if moves:
            best = _best(view, moves)
            tips.append(_tip(topic, "now", best, move=_move_text(best), sum=_sum_text(best)))
    takers = sorted({move.card for move in legal if move.take})
    if takers and any(not move.take for move in legal):
        tips.append(_tip("must", "now", cards=_cards_text(takers)))
    return tips


def _best(view: SeatView, moves: Sequence[Move]) -> Move:
    """The move among ``moves`` that gains most at once (the first of equals)."""
    return max(moves, key=lambda move: immediate_value(view, move))


def _move_text(move: Move) -> Any:
    """The move in each language's words, kept left to right inside Persian."""
    return lambda lang: move_words(str(move.card), [str(card) for card in move.take], lang, isolate=True)


def _cards_text(cards: Sequence[Card]) -> Any:
    """Cards in each language's words (``5♥+6♥``), kept left to right inside Persian."""
    return lambda lang: cards_words([str(card) for card in cards], lang, isolate=True)


def _sum_text(move: Move) -> Any:
    """A numeral capture's sum, ``5 + 6 = 11``, in each language's digits."""
    values = [move.card.value, *(card.value for card in move.take)]
    return lambda lang: isolated(
        " + ".join(number_text(value, lang) for value in values) + " = " + number_text(11, lang), lang
    )

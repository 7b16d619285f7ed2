"""A seat's view: everything one seat may know, and the only way information leaves the core."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .captures import hand_moves
from .cards import CARDS, FULL_DECK, Card, CardMask, cards_in, mask_of
from .errors import RulesError
from .moves import Move, MoveCode
from .notation import parse_move, short_text
from .rules import Rules


def is_number(value: Any) -> bool:
    """Whether a JSON value is a number (true and false are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def whole_number(value: Any, name: str, negative: bool = False) -> int:
    """A JSON whole number (not true or false, not 2.0), 0 or more unless ``negative``; ValueError
    naming the field otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or (value < 0 and not negative):
        raise ValueError(f"{name} must be a whole number{'' if negative else ' (0 or more)'}, not {value!r}")
    return value


def read_card(value: Any) -> Card:
    """A card written as a string (``7C``, ``10d``, ``T♦``); ValueError otherwise."""
    if not isinstance(value, str):
        raise ValueError(f'a card is written as a string such as "7C", not {value!r}')
    return Card.parse(value)


def card_list(value: Any, name: str) -> tuple[Card, ...]:
    """A JSON list of cards; ValueError naming the field otherwise."""
    return tuple(read_card(text) for text in _list(value, name))


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list, not {type(value).__name__}")
    return value


@dataclass(frozen=True, slots=True)
class Play:
    """One play of the round so far, as every seat saw it."""

    seat: int
    card: Card
    take: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """The protocol form: ``{"seat": 1, "card": "7C", "take": ["4H"]}``."""
        return {"seat": self.seat, "card": str(self.card), "take": [str(card) for card in self.take]}


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know (BOT-PROTOCOL.md, The view): its own hand, the table, every card
    played and taken this round, how many cards the others and the pack hold, and the scores."""

    rules: Rules
    seat: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], ...]
    history: tuple[Play, ...]
    hands: tuple[int, ...]
    pack: int
    scores: tuple[int, ...]
    surs: tuple[int, ...]
    round: int
    deal: int
    turn: int
    first: int
    last_capturer: int | None
    over: bool

    @property
    def side(self) -> int:
        """This seat's side."""
        return self.rules.side_of(self.seat)

    @property
    def last_deal(self) -> bool:
        """Whether the pack is empty, so no Sur can be made (unless the rules allow it)."""
        return self.pack == 0

    @property
    def sees_everything(self) -> bool:
        """Whether every card's place is known to this seat: the pack is empty and at most one
        other hand holds cards (it holds every card not seen), so nothing is left to chance."""
        holding = sum(1 for seat, count in enumerate(self.hands) if seat != self.seat and count)
        return self.pack == 0 and holding <= 1

    def unseen(self) -> tuple[Card, ...]:
        """The cards this seat has not seen: the other hands and the pack, in card order."""
        seen = set(self.hand) | set(self.table)
        for pile in self.captured:
            seen.update(pile)
        return tuple(card for card in CARDS if card not in seen)

    def legal_codes(self) -> list[MoveCode]:
        """This seat's legal moves as engine ints when it is to play; none otherwise."""
        if self.over or self.turn != self.seat:
            return []
        return hand_moves(mask_of(self.hand), mask_of(self.table), self.rules.compulsory_capture)

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves when it is to play; none otherwise."""
        return [Move.from_code(code) for code in self.legal_codes()]

    def read_move(self, text: str) -> Move:
        """The legal move a short text names; `IllegalMove` saying why not."""
        code = parse_move(text, mask_of(self.hand), mask_of(self.table), self.legal_codes())
        return Move.from_code(code)

    def move_text(self, move: Move | MoveCode) -> str:
        """The shortest text of one of this seat's legal moves."""
        return short_text(move.code if isinstance(move, Move) else move, self.legal_codes())

    def masks(self) -> SeatMasks:
        """The same knowledge as card masks (what ``Round.masks`` gives)."""
        hand, table = mask_of(self.hand), mask_of(self.table)
        piles = tuple(mask_of(pile) for pile in self.captured)
        seen = hand | table
        for pile in piles:
            seen |= pile
        return SeatMasks(
            self.rules,
            self.seat,
            self.side,
            hand,
            table,
            piles,
            FULL_DECK & ~seen,
            self.hands,
            self.pack,
            self.scores,
            self.surs,
            self.round,
            self.deal,
            self.turn,
            -1 if self.last_capturer is None else self.last_capturer,
        )

    @classmethod
    def from_json(cls, data: Any) -> SeatView:
        """Read a view as BOT-PROTOCOL.md sends it (schemas/pasur-bot-1.schema.json's ``view``):
        each field of its type, or ValueError saying which is not."""
        if not isinstance(data, dict):
            raise ValueError("the view is not a JSON object")
        try:
            last = data["last_capturer"]
            over = data["over"]
            if not isinstance(over, bool):
                raise ValueError(f"the view's over must be true or false, not {over!r}")
            history = _list(data["history"], "history")
            for play in history:
                if not isinstance(play, dict):
                    raise ValueError("each play of the view's history must be a JSON object")
            return cls(
                rules=Rules.from_dict(data["rules"]),
                seat=whole_number(data["seat"], "seat"),
                hand=card_list(data["hand"], "hand"),
                table=card_list(data["table"], "table"),
                captured=tuple(card_list(pile, "captured") for pile in _list(data["captured"], "captured")),
                history=tuple(
                    Play(whole_number(play["seat"], "seat"), read_card(play["card"]), card_list(play["take"], "take"))
                    for play in history
                ),
                hands=tuple(whole_number(count, "hands") for count in _list(data["hands"], "hands")),
                pack=whole_number(data["pack"], "pack"),
                scores=tuple(whole_number(score, "scores", negative=True) for score in _list(data["scores"], "scores")),
                surs=tuple(whole_number(count, "surs") for count in _list(data["surs"], "surs")),
                round=whole_number(data["round"], "round"),
                deal=whole_number(data["deal"], "deal"),
                turn=whole_number(data["turn"], "turn"),
                first=whole_number(data["first"], "first"),
                last_capturer=None if last is None else whole_number(last, "last_capturer"),
                over=over,
            )
        except KeyError as missing:
            raise ValueError(f"the view has no {missing}") from None
        except RulesError as error:
            raise ValueError(f"the view's rules: {error}") from None

    def to_json(self) -> dict[str, Any]:
        """The view as BOT-PROTOCOL.md sends it."""
        return {
            "rules": self.rules.to_dict(),
            "seat": self.seat,
            "hand": [str(card) for card in self.hand],
            "table": [str(card) for card in self.table],
            "captured": [[str(card) for card in pile] for pile in self.captured],
            "history": [play.to_json() for play in self.history],
            "hands": list(self.hands),
            "pack": self.pack,
            "scores": list(self.scores),
            "surs": list(self.surs),
            "round": self.round,
            "deal": self.deal,
            "turn": self.turn,
            "first": self.first,
            "last_capturer": self.last_capturer,
            "over": self.over,
        }


class SeatMasks(NamedTuple):
    """The same knowledge as a `SeatView` but the history, as card masks and counts: the
    fast form for code that reads a view at every step (the research environments)."""

    rules: Rules
    seat: int
    side: int
    hand: CardMask
    table: CardMask
    captured: tuple[CardMask, ...]
    #: The cards this seat has not seen: the other hands and the pack.
    unseen: CardMask
    hands: tuple[int, ...]
    pack: int
    scores: tuple[int, ...]
    surs: tuple[int, ...]
    round: int
    deal: int
    turn: int
    #: The side that captured last, or -1 when nobody has.
    last_capturer: int


class RoundViews:
    """What a round shows: each seat's view, the same as card masks, and the spectators' view.
    Mixed into `Round <pasur.core.game.Round>`, whose state it reads."""

    __slots__ = ()

    rules: Rules
    players: int
    number: int
    first: int
    banked: tuple[int, ...]
    hands: list[CardMask]
    table: CardMask
    captured: list[CardMask]
    surs: list[int]
    last_capturer: int
    turn: int
    dealt: int
    deal: int
    over: bool
    history: list[MoveCode]
    _plays: list[Play]
    _side: tuple[int, ...]

    @property
    def pack(self) -> int:
        """How many cards are still to be dealt."""
        return 52 - self.dealt

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: the only way information should leave the core."""
        plays = self._plays
        for index in range(len(plays), len(self.history)):
            move = Move.from_code(self.history[index])
            plays.append(Play((self.first + index) % self.players, move.card, move.take))
        return SeatView(
            rules=self.rules,
            seat=seat,
            hand=tuple(cards_in(self.hands[seat])),
            table=tuple(cards_in(self.table)),
            captured=tuple(tuple(cards_in(pile)) for pile in self.captured),
            history=tuple(plays),
            hands=tuple(hand.bit_count() for hand in self.hands),
            pack=self.pack,
            scores=self.banked,
            surs=tuple(self.surs),
            round=self.number,
            deal=self.deal,
            turn=self.turn,
            first=self.first,
            last_capturer=None if self.last_capturer < 0 else self.last_capturer,
            over=self.over,
        )

    def masks(self, seat: int) -> SeatMasks:
        """The same as `view()` but the history, as card masks: the fast form for code that
        reads a view at every step (the research environments)."""
        hand, table, captured = self.hands[seat], self.table, tuple(self.captured)
        # Built as a plain tuple; the piles are disjoint, so their sum is their union.
        fields = (
            self.rules,
            seat,
            self._side[seat],
            hand,
            table,
            captured,
            FULL_DECK & ~(hand | table | sum(captured)),
            tuple(map(int.bit_count, self.hands)),
            52 - self.dealt,
            self.banked,
            tuple(self.surs),
            self.number,
            self.deal,
            self.turn,
            self.last_capturer,
        )
        return tuple.__new__(SeatMasks, fields)

    def public_json(self) -> dict[str, Any]:
        """What everyone at the table may know (a spectator's view): a seat's view without its
        hand, in the same JSON form, with ``seat`` null."""
        shown = self.view(self.first).to_json()
        del shown["hand"]
        shown["seat"] = None
        return shown

"""A table's settings as the store keeps them: the rules, the seed, the seats (people, bots, open),
the host, the turn timer and the level that fills open seats (and a lesson's first deal); and a
table's status."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ..core import Match, Rules
from ..core.cards import Card, card_of
from ..host import STAND_IN
from .errors import TableError

#: The longest name, in characters a person sees, and in code points with its marks and joiners
#: (what the database keeps, on SQLite and PostgreSQL alike).
NAME_LENGTH = 32
NAME_CODE_POINTS = 64
#: Format characters a name or a line may hold: the zero-width non-joiner (Persian writes with it)
#: and joiner (emoji sequences).
_JOINERS = frozenset("\u200c\u200d")
#: Characters that show nothing though they are not spaces (Hangul fillers, the blank braille cell).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: The most combining marks one character may carry.
MARKS_IN_A_ROW = 3


class TableStatus(StrEnum):
    """Where a table is: waiting for people, playing, done, or left unfinished (nobody came back
    for a day: its moves are kept, nothing more is played)."""

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


def has_controls(text: str) -> bool:
    """Whether ``text`` holds what is never shown to others: control characters, format characters
    (text-direction marks and embeddings, zero-width spaces, tags; not the joiners), line and
    paragraph separators, private-use and unassigned code points, or a character under more than
    :data:`MARKS_IN_A_ROW` combining marks."""
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp", "Co", "Cn", "Cs") or (category == "Cf" and char not in _JOINERS):
            return True
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MARKS_IN_A_ROW:
            return True
    return False


def shows(char: str) -> bool:
    """Whether a character shows as something (not a space, a joiner, a mark or a blank)."""
    return char not in _BLANKS and unicodedata.category(char) not in ("Cf", "Zs", "Zl", "Zp", "Mn", "Me")


def person_name(raw: str) -> str:
    """A person's name as the tables keep it: trimmed, 1 to :data:`NAME_LENGTH` visible
    characters of any script with ordinary punctuation. TableError refuses what is never shown
    (:func:`has_controls`: ``name_control``), a name nothing of which shows (``name_empty``)
    and a longer one (``name_too_long``)."""
    name = unicodedata.normalize("NFC", raw).strip()
    if has_controls(name):
        raise TableError("a name may not hold control, invisible or text-direction characters", "name_control")
    visible = [char for char in name if shows(char)]
    if not visible:
        raise TableError("say a name with at least one visible character", "name_empty")
    if len(visible) > NAME_LENGTH or len(name) > NAME_CODE_POINTS:
        limit = NAME_LENGTH
        raise TableError(f"a name may have at most {limit} characters", "name_too_long", limit=limit)
    return name


#: What a table id looks like (the lobby makes them with ``secrets.token_urlsafe(6)``).
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def _table_id(value: Any) -> str | None:
    """A stored table id, or None for anything else."""
    return value if isinstance(value, str) and TABLE_ID.fullmatch(value) else None


def _seat_number(value: Any, seats: int) -> int | None:
    """A stored seat number, or None for anything else."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats else None


def _deck(value: Any) -> tuple[Card, ...] | None:
    """A stored deck (card texts, top first), or None; ValueError if it is not 52 cards. Whether
    it may be dealt is the engine's to say (:class:`pasur.core.DeckError`)."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 52:
        raise ValueError("a lesson's deck must list 52 cards")
    return tuple(card_of(str(text)) for text in value)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def network_key(network: str) -> str:
    """What a rated table keeps of the network a person sat down from: a digest, never the address."""
    return hashlib.sha256(f"pasur network {network}".encode()).hexdigest()[:24]


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat: open (waiting for a friend), a person's (token hash kept; with their account's id
    when they sat down signed in, and at a rated table a digest of the network they sat down
    from), or a bot's."""

    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    account: int | None = None
    network: str | None = None

    @property
    def open(self) -> bool:
        return self.name is None and self.bot is None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
            "account": self.account,
            "network": self.network,
        }


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Everything about a table but its moves."""

    rules: Rules
    seed: int
    seats: tuple[Seat, ...]
    host_hash: str
    timer: int = 0
    fill_level: str = STAND_IN
    #: Whether the lobby lists the table while it waits for people (else only its link finds it).
    public: bool = False
    #: Whether its people may ask for a hint (from the strongest bot) on their turn.
    hints: bool = False
    #: Whether a player asked the bots to play faster (kept with the table, so a restart keeps it).
    fast: bool = False
    #: Once the match is over and a player asked for one: the rematch table's id.
    rematch: str | None = None
    #: Whether the match changes its people's ratings (:mod:`.ratings`).
    rated: bool = False
    #: The seat that resigned, when one did (its side lost).
    resigned: int | None = None
    #: A first-game lesson's chosen first deal, top card first (None: every round is shuffled);
    #: kept with the table so that its moves replay whatever later versions deal.
    lesson_deck: tuple[Card, ...] | None = None

    @property
    def lesson(self) -> bool:
        """Whether the table is a first-game lesson (:mod:`pasur.bots.lesson`)."""
        return self.lesson_deck is not None

    def new_match(self) -> Match:
        """The table's match before its first move: the lesson's deal first, when it has one, and
        every other round shuffled from the seed."""
        if self.lesson_deck is None:
            return Match(self.rules, seed=self.seed)
        return Match.first_dealt(self.rules, self.lesson_deck, self.seed)

    def with_seats(self, seats: tuple[Seat, ...]) -> TableSettings:
        return replace(self, seats=seats)

    def host_seat(self) -> int | None:
        """The seat the host sits in (None if the host has none)."""
        return next((index for index, seat in enumerate(self.seats) if seat.token_hash == self.host_hash), None)

    def for_rematch(self, seed: int, host_hash: str) -> TableSettings:
        """The same table again, seats turned by one so that the next seat opens: the bots keep
        their levels and the people their names and tokens; ``host_hash`` starts it."""
        turned = self.seats[1:] + self.seats[:1]
        return replace(
            self, seed=seed, seats=turned, host_hash=host_hash, rematch=None, resigned=None, lesson_deck=None
        )

    def bot_levels(self) -> list[str]:
        """Every bot level the table names: its fill level and its bots'."""
        return [self.fill_level, *(seat.bot for seat in self.seats if seat.bot)]

    def to_json(self) -> dict[str, Any]:
        """The form the store keeps."""
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "seats": [seat.to_json() for seat in self.seats],
            "host_hash": self.host_hash,
            "timer": self.timer,
            "fill_level": self.fill_level,
            "public": self.public,
            "hints": self.hints,
            "fast": self.fast,
            "rematch": self.rematch,
            "rated": self.rated,
            "resigned": self.resigned,
            "lesson_deck": None if self.lesson_deck is None else [str(card) for card in self.lesson_deck],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        """Read what :meth:`to_json` wrote; ValueError, KeyError or TypeError if it cannot."""
        return cls(
            rules=Rules.from_dict(data["rules"]),
            seed=int(data["seed"]),
            seats=tuple(Seat(**seat) for seat in data["seats"]),
            host_hash=str(data["host_hash"]),
            timer=int(data.get("timer", 0)),
            fill_level=str(data.get("fill_level", STAND_IN)),
            public=data.get("public", False) is True,
            hints=data.get("hints", False) is True,
            fast=data.get("fast", False) is True,
            rematch=_table_id(data.get("rematch")),
            rated=data.get("rated", False) is True,
            resigned=_seat_number(data.get("resigned"), len(data["seats"])),
            lesson_deck=_deck(data.get("lesson_deck")),
        )

    def listing(self, table_id: str) -> dict[str, Any]:
        """What the lobby shows of a table waiting for people."""
        return {
            "id": table_id,
            "players": self.rules.players,
            "seated": [seat.name for seat in self.seats if seat.name is not None and seat.bot is None],
            "free": sum(1 for seat in self.seats if seat.open),
            "rules": self.rules.to_dict(),
            "bots": [seat.bot for seat in self.seats if seat.bot],
            "rated": self.rated,
        }

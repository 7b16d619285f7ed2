"""A table's settings as the store keeps them: the rules, the seed, the seats (people, bots, open),
the host, the turn timer and the level that fills open seats (and a lesson's first deal); a
table's status; and the seat rules, as pure functions of the settings and status (each gives the
new settings, or a TableError saying why not): joining, moving seat, freeing one, starting."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ..core import Match, Rules
from ..core.cards import Card, card_of
from ..host import STAND_IN
from .errors import NotSignedIn, TableError
from .names import seat_name


class TableStatus(StrEnum):
    """Where a table is: waiting for people, playing, done, or left unfinished (nobody came back
    for a day: its moves are kept, nothing more is played)."""

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


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
    it may be dealt is the engine's to say (`pasur.core.DeckError`)."""
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
    #: Whether the match changes its people's ratings (`ratings`).
    rated: bool = False
    #: The seat that resigned, when one did (its side lost).
    resigned: int | None = None
    #: A first-game lesson's chosen first deal, top card first (None: every round is shuffled);
    #: kept with the table so that its moves replay whatever later versions deal.
    lesson_deck: tuple[Card, ...] | None = None

    @property
    def lesson(self) -> bool:
        """Whether the table is a first-game lesson (`pasur.coach.lesson`)."""
        return self.lesson_deck is not None

    def new_match(self) -> Match:
        """The table's match before its first move: the lesson's deal first, when it has one, and
        every other round shuffled from the seed."""
        if self.lesson_deck is None:
            return Match(self.rules, seed=self.seed)
        return Match.first_dealt(self.rules, self.lesson_deck, self.seed)

    def with_seats(self, seats: tuple[Seat, ...]) -> TableSettings:
        return replace(self, seats=seats)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None."""
        if not token:
            return None
        digest = token_hash(token)
        return next((index for index, seat in enumerate(self.seats) if seat.token_hash == digest), None)

    def people(self) -> frozenset[int]:
        """The seats people sit in."""
        return frozenset(index for index, seat in enumerate(self.seats) if seat.token_hash)

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
        """Read what `to_json()` wrote; ValueError, KeyError or TypeError if it cannot."""
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


# -- the seat rules ------------------------------------------------------------------------------


def joined(
    settings: TableSettings,
    status: TableStatus,
    name: str,
    seat: int | None,
    account: int | None,
    network: str,
    token: str,
) -> TableSettings:
    """A person sits down under ``name`` in ``seat`` (the first open one when None) with the new
    ``token``, as ``account`` when signed in, from the visitor ``network`` (a rated table takes
    only accounts, and never two from one network)."""
    if status is not TableStatus.OPEN:
        raise TableError("no_seat_free")
    free = [index for index, place in enumerate(settings.seats) if place.open]
    if seat is None:
        if not free:
            raise TableError("no_seat_free")
        seat = free[0]
    if seat not in free:
        raise TableError("seat_not_free", seat=seat + 1)
    key = None
    if settings.rated:
        if account is None:
            raise NotSignedIn("rated_needs_account")
        key = network_key(network)
        if any(place.network == key for place in settings.seats):
            raise TableError("rated_same_network")
    others = [place.name for place in settings.seats if place.name and not place.bot]
    person = Seat(name=seat_name(name, others), token_hash=token_hash(token), account=account, network=key)
    return settings.with_seats((*settings.seats[:seat], person, *settings.seats[seat + 1 :]))


def moved(settings: TableSettings, status: TableStatus, seat: int | None, to: int) -> TableSettings:
    """Before the start, the person in ``seat`` moves to the open seat ``to`` (their name and
    token go with them)."""
    if seat is None:
        raise TableError("not_seated")
    if status is not TableStatus.OPEN:
        raise TableError("already_started")
    if not 0 <= to < len(settings.seats) or not settings.seats[to].open:
        raise TableError("seat_not_free", seat=to + 1)
    seats = list(settings.seats)
    seats[to], seats[seat] = seats[seat], Seat()
    return settings.with_seats(tuple(seats))


def freed(settings: TableSettings, status: TableStatus, seat: int, here: bool) -> TableSettings:
    """The host frees the seat of a person who is away (not ``here``): open again before the
    start; after it, the table's bot level plays it (not at a rated table, where the turn timer
    plays for the absent)."""
    if not 0 <= seat < len(settings.seats) or not settings.seats[seat].token_hash:
        raise TableError("no_person_there", seat=seat + 1)
    if settings.seats[seat].token_hash == settings.host_hash:
        raise TableError("own_seat")
    if here:
        raise TableError("player_here", seat=seat + 1)
    if status is TableStatus.FINISHED:
        raise TableError("match_over")
    if status is TableStatus.PLAYING and settings.rated:
        raise TableError("rated_seat")
    level = settings.fill_level
    gone = Seat() if status is TableStatus.OPEN else Seat(name=level, bot=level)
    return settings.with_seats((*settings.seats[:seat], gone, *settings.seats[seat + 1 :]))


def started(settings: TableSettings, status: TableStatus) -> TableSettings:
    """The host starts the match: open seats get the table's bot level."""
    if status is not TableStatus.OPEN:
        raise TableError("already_started")
    level = settings.fill_level
    return settings.with_seats(tuple(Seat(name=level, bot=level) if seat.open else seat for seat in settings.seats))


def seated(seat: int | None) -> int:
    """The seat of a person who asks for what only a player may (TableError when they hold none)."""
    if seat is None:
        raise TableError("no_seat")
    return seat


def under_way(status: TableStatus) -> None:
    """TableError unless the match is being played."""
    if status is not TableStatus.PLAYING:
        raise TableError("not_under_way")

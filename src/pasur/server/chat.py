"""Table chat: what a line may say, who reads it, and how fast one may write.

Two channels per table: the seated players talk among themselves, the spectators among
themselves (so nobody watching can tell a player about the others' hands). A line is either free
text (checked here: length, no control or text-direction characters) or one of the quick
`PHRASES`, which each page shows in its own language."""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from .errors import TableError
from .names import has_controls, shows

#: The longest line, in characters.
LINE_LENGTH = 200
#: The most bytes a line takes (UTF-8): a line of emoji, four bytes each, is shorter.
LINE_BYTES = 3 * LINE_LENGTH
#: Lines one writer (a seat, or an address's spectators) may write within `BURST_SECONDS`.
BURST_LINES = 5
BURST_SECONDS = 10.0
#: Lines a table keeps per channel (in memory; the store keeps every line).
KEPT_LINES = 50
#: The quick phrases, by key; the pages say them in their language.
PHRASES = ("hello", "good_luck", "well_played", "nice_sur", "oops", "thanks", "good_game")


class Channel(StrEnum):
    PLAYERS = "players"
    SPECTATORS = "spectators"

    @classmethod
    def of(cls, seat: int | None) -> Channel:
        """Where someone in ``seat`` (None: a spectator) talks and listens."""
        return cls.SPECTATORS if seat is None else cls.PLAYERS


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line said at a table: the seat (None: a spectator), the name shown, and its text or
    quick phrase (exactly one of them)."""

    channel: Channel
    seat: int | None
    name: str
    text: str | None = None
    phrase: str | None = None

    def stored(self) -> dict[str, Any]:
        """The line as the store keeps it."""
        return asdict(self) | {"channel": self.channel.value}

    @classmethod
    def read(cls, stored: dict[str, Any]) -> ChatLine:
        """A line as `stored()` wrote it."""
        return cls(**(stored | {"channel": Channel(stored["channel"])}))


def chat_text(raw: str) -> str:
    """A line of free text as it will be shown; TableError says what is wrong with it."""
    text = unicodedata.normalize("NFC", raw).strip()
    if has_controls(text):
        raise TableError("chat_control")
    if not any(shows(char) for char in text):
        raise TableError("chat_empty")
    # counted as a person sees it (a letter with its marks is one), and bounded in bytes too
    if (
        sum(1 for char in text if unicodedata.category(char) not in ("Mn", "Me")) > LINE_LENGTH
        or len(text.encode()) > LINE_BYTES
    ):
        raise TableError("chat_too_long", limit=LINE_LENGTH)
    return text


def chat_phrase(key: str) -> str:
    """A quick phrase's key, checked."""
    if key not in PHRASES:
        raise TableError("chat_phrase", key=key[:40], phrases=", ".join(PHRASES))
    return key


def kept_lines() -> dict[Channel, deque[ChatLine]]:
    """A table's recent lines, per channel."""
    return {channel: deque(maxlen=KEPT_LINES) for channel in Channel}

"""Every message of the web table's protocol, declared once: what a browser may send (pydantic
models, checked at the door) and what the server sends (one builder each), with the refusal's one
shape over a WebSocket and over HTTP. The README's protocol section is checked against
`CLIENT_MESSAGES` and `SERVER_MESSAGES` by a test, and the page handles every kind it
is sent."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..i18n import LANGUAGES, refusal
from .chat import LINE_LENGTH
from .errors import TableError

#: A message as sent: a JSON object whose ``type`` names its kind.
Message = dict[str, Any]
#: A name as typed: its characters are checked by `pasur.server.names.person_name()`.
Name = Annotated[str, Field(min_length=1, max_length=200)]

# -- what a browser sends over HTTP ------------------------------------------------------------

Level = Annotated[str, Field(min_length=1, max_length=40)]


class CreateTable(BaseModel):
    """A new table: the creator's name, the rules, who sits in the other seats (``"friend"`` or
    a level), the turn timer in seconds, and the level of the seats left open at the start."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    rules: dict[str, Any] = Field(default_factory=dict)
    seats: list[Level] = Field(default_factory=lambda: ["medium"], max_length=8)
    timer: int = Field(default=0, ge=0, le=3600)
    fill_level: Level = "medium"
    #: Listed in the lobby while it waits for people (else found only by its link).
    public: bool = False
    #: Whether people may ask for hints; by default, when every other seat is a bot.
    hints: bool | None = None
    #: Whether the match changes ratings (signed-in people, standard rules of 2 or 4, a timer).
    rated: bool = False


class StartLesson(BaseModel):
    """A first-game lesson: the learner's name (the rest is the lesson's own)."""

    model_config = ConfigDict(extra="forbid")

    name: Name


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    seat: int | None = Field(default=None, ge=0, le=3)


#: A password as typed: its rules are checked by `pasur.server.passwords.check_password()`.
Password = Annotated[str, Field(min_length=1, max_length=1024)]


class Credentials(BaseModel):
    """A name and a password: a new account's, or those of an account to sign in to."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    password: Password


class PuzzleAnswer(BaseModel):
    """A move tried on a puzzle, in the short text (``7Cx4H``), and a guest's puzzle rating before
    it, as their page keeps it (a signed-in person's is the account's; it is on no board)."""

    model_config = ConfigDict(extra="forbid")

    move: str = Field(min_length=1, max_length=40)
    rating: float | None = Field(default=None, ge=0, le=4000)
    deviation: float | None = Field(default=None, ge=30, le=350)


class ChangePassword(BaseModel):
    """A new password for the one in use (every session ends; this browser gets a new one)."""

    model_config = ConfigDict(extra="forbid")

    old: Password
    new: Password


class ClaimMatches(BaseModel):
    """The seat tokens a browser holds, by table: the matches it played as a guest, to keep under
    the account it signed up to."""

    model_config = ConfigDict(extra="forbid")

    tokens: dict[Annotated[str, Field(max_length=16)], Annotated[str, Field(max_length=64)]] = Field(max_length=500)


class DeviceSeat(BaseModel):
    """A seat of a match played on a device: a person's name, or a bot's level."""

    model_config = ConfigDict(extra="forbid")

    name: Name | None = None
    bot: Level | None = None


class DeviceGame(BaseModel):
    """A match played on a device with no server, to add to the account signed in: its record
    (pasur-record/1, replayed under its rules), the seed it was shuffled from, who sat where, and
    the seat the account's player held."""

    model_config = ConfigDict(extra="forbid")

    record: dict[str, Any]
    seed: Annotated[str, Field(pattern=r"^[0-9]{1,20}$")]
    seats: list[DeviceSeat] = Field(min_length=2, max_length=4)
    seat: int = Field(ge=0, le=3)
    #: Whether it was the first-game lesson (its first round dealt from the lesson's deck).
    lesson: bool = False


class NamedPlayer(BaseModel):
    """A player named: to invite to a table, or to block."""

    model_config = ConfigDict(extra="forbid")

    name: Name


class DeleteAccount(BaseModel):
    """Deleting the account signed in, its password given again."""

    model_config = ConfigDict(extra="forbid")

    password: Password


# -- what a browser sends on its WebSocket -----------------------------------------------------


class HelloMessage(BaseModel):
    """A connection's first message: the seat token (none for a spectator), and the version the
    browser last saw (the moves since then come as ``missed``). Tokens never travel in URLs."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=64)
    since: int | None = Field(default=None, ge=0)


class MoveMessage(BaseModel):
    """A move in short text, against the version it was made at; ``id`` is the seat's own."""

    type: Literal["move"]
    version: int = Field(ge=0)
    move: str = Field(min_length=1, max_length=64)
    id: str | None = Field(default=None, max_length=64)


class StartMessage(BaseModel):
    """The host starts the match: open seats get the table's bot level."""

    type: Literal["start"]


class PingMessage(BaseModel):
    """Is the table there? Answered with its version."""

    type: Literal["ping"]


class ContinueMessage(BaseModel):
    """Between rounds: this player has seen the breakdown and is ready for the next deal."""

    type: Literal["continue"]


class PaceMessage(BaseModel):
    """A player asks the bots to play faster (or at the usual pace again)."""

    type: Literal["pace"]
    fast: bool


class HintMessage(BaseModel):
    """A player asks for a hint on their turn, in a language of the page."""

    type: Literal["hint"]
    lang: Literal["en", "fa"] = "en"


class ChatMessage(BaseModel):
    """A chat line: free ``text`` or a quick ``phrase``; a spectator may say a ``name``."""

    type: Literal["chat"]
    text: str | None = Field(default=None, max_length=4 * LINE_LENGTH)
    phrase: str | None = Field(default=None, max_length=40)
    name: Name | None = None


class SeatMessage(BaseModel):
    """Before the start, a person moves to another (open) seat."""

    type: Literal["seat"]
    seat: int = Field(ge=0, le=3, strict=True)


class RematchMessage(BaseModel):
    """After the match, a player asks for the rematch (made once; the same table after that)."""

    type: Literal["rematch"]


class ResignMessage(BaseModel):
    """A player resigns the match: their side loses it."""

    type: Literal["resign"]


class FreeSeatMessage(BaseModel):
    """The host frees the seat of a person who is away: open again before the start, the table's
    bot level's after (not at a rated table, whose turn timer plays for them)."""

    type: Literal["free"]
    seat: int = Field(ge=0, le=3, strict=True)


#: What a browser may send after its hello, by ``type``.
CLIENT_MESSAGES: dict[str, type[BaseModel]] = {
    "move": MoveMessage,
    "start": StartMessage,
    "ping": PingMessage,
    "continue": ContinueMessage,
    "pace": PaceMessage,
    "hint": HintMessage,
    "chat": ChatMessage,
    "seat": SeatMessage,
    "rematch": RematchMessage,
    "resign": ResignMessage,
    "free": FreeSeatMessage,
}

# -- what the server sends ---------------------------------------------------------------------

#: What the server sends, by ``type``: what each means.
SERVER_MESSAGES: dict[str, str] = {
    "state": "everything the seat may know, on every change (pasur.server.projection)",
    "presence": "who is connected and how many watch, when people come and go",
    "chat": "a chat line on the listener's channel",
    "ack": "a move was applied (or, repeated, had been)",
    "refused": "a message was refused, and why: nothing changed",
    "error": "a connection-level refusal: no hello, a bad token, too many messages",
    "started": "the match was started",
    "dealt_on": "this player is ready for the next deal",
    "pace": "the bots' pace was set",
    "hint": "a hint for the player to move",
    "said": "a chat line was said",
    "pong": "the table is there, at this version",
    "seated": "this person now sits in that seat (connect again as it)",
    "rematch": "the rematch table's id, for the player who asked",
    "resigned": "this player resigned the match",
    "freed": "the host freed that seat",
}


def state(version: int, table: dict[str, Any]) -> Message:
    """The start of a state: its version and table (the projection adds the rest)."""
    return {"type": "state", "version": version, "table": table}


def presence(connected: list[bool], spectators: int) -> Message:
    return {"type": "presence", "connected": connected, "spectators": spectators}


def chat(line: dict[str, Any]) -> Message:
    """A chat line (its stored fields: channel, seat, name, text, phrase, at)."""
    return {"type": "chat", **line}


def ack(client_id: str | None, version: int, repeated: bool = False) -> Message:
    acknowledged: Message = {"type": "ack", "id": client_id, "version": version}
    if repeated:
        acknowledged["repeated"] = True
    return acknowledged


def started() -> Message:
    return {"type": "started"}


def dealt_on(version: int) -> Message:
    return {"type": "dealt_on", "version": version}


def pace(fast: bool) -> Message:
    return {"type": "pace", "fast": fast}


def hint_message(
    version: int, move: dict[str, Any], text: str, reason: str, why: str | None, edge: float | None
) -> Message:
    """A hint: the move (``card``, ``take``) and its short text, what it takes and how it compares
    with the next best move, why (from the solver's lines, or None), and its known edge (or None)."""
    return {"type": "hint", "version": version, **move, "move": text, "reason": reason, "why": why, "edge": edge}


def said() -> Message:
    return {"type": "said"}


def pong(version: int) -> Message:
    return {"type": "pong", "version": version}


def seated(seat: int) -> Message:
    return {"type": "seated", "seat": seat}


def rematch(table_id: str) -> Message:
    return {"type": "rematch", "id": table_id}


def resigned() -> Message:
    return {"type": "resigned"}


def freed(seat: int) -> Message:
    return {"type": "freed", "seat": seat}


# -- refusals: one shape ------------------------------------------------------------------------


def explained(error: TableError) -> dict[str, Any]:
    """What every refusal carries besides its English message: its reason, and what to show in
    each language of the page."""
    return {"reason": error.reason, "messages": {lang: refusal(error, lang) for lang in LANGUAGES}}


def refused(error: TableError, version: int, client_id: str | None = None) -> Message:
    """A message refused (with the move's ``id`` when a move was)."""
    answer: Message = {"type": "refused", "message": str(error), "version": version}
    if client_id is not None:
        answer["id"] = client_id
    return {**answer, **explained(error)}


def error(refusal_: TableError) -> Message:
    """A refusal of the connection itself."""
    return {"type": "error", "message": str(refusal_), **explained(refusal_)}


def not_understood(problem: str) -> Message:
    return error(TableError("not_understood", problem=problem))


def http_refusal(refusal_: TableError) -> dict[str, Any]:
    """A refusal as an HTTP body."""
    return {"error": str(refusal_), **explained(refusal_)}


def first_problem(error: ValidationError | RequestValidationError) -> str:
    """The first thing wrong with a message or request, and where: ``seats.0: Input should be …``."""
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"] if part != "body")
    return f"{where}: {problem['msg']}"

"""Game records (pasur-record/1, RECORDS.md): write a match, read one back, replay and check."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import CARDS, Card, mask_of
from .errors import DeckError, IllegalMove, RecordError, RulesError
from .game import Round
from .match import Match
from .moves import Move
from .notation import find_code
from .rules import Rules

FORMAT = "pasur-record/1"


def read_json(text: str) -> Any:
    """`json.loads`, with JSON nested deeper than the parser goes (a line of 20,000 ``[``) refused
    as any other text that is not JSON: `json.JSONDecodeError`, not RecursionError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None


#: The bidirectional embeddings, overrides and isolates: each turns the text after it around as
#: shown (a name holding U+202E would show the rest of its line backwards).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def holds_controls(text: str) -> bool:
    """Whether ``text`` holds a control character (a terminal acts on ESC, BEL and the like) or a
    bidirectional control: a name from a file never does."""
    return any(unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS for char in text)


def to_record(match: Match, names: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A match as a pasur-record/1 object (rules left at their default are left out)."""
    record: dict[str, Any] = {"format": FORMAT, "rules": match.rules.to_dict(changed_only=True)}
    if names is not None:
        record["names"] = list(names)
    record.update(extra)
    record["rounds"] = [
        {
            "deck": [str(CARDS[card]) for card in game.deck],
            "moves": [Move.from_code(code).to_json() for code in game.history],
        }
        for game in match.rounds
    ]
    return record


def from_record(record: Any) -> Match:
    """Replay a record into a `Match`, checking every rule; `RecordError` if not."""
    if not isinstance(record, dict):
        raise RecordError(0, 0, "a record must be a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(0, 0, f'unknown format {record.get("format")!r} (expected "{FORMAT}")')
    try:
        rules = Rules.from_dict(record.get("rules", {}))
    except (RulesError, TypeError) as error:
        raise RecordError(0, 0, f"rules: {error}") from None
    names = record.get("names")
    if "names" in record and not (
        isinstance(names, list) and len(names) == rules.players and all(isinstance(name, str) for name in names)
    ):
        raise RecordError(0, 0, f"names must be a list of {rules.players} strings, one per seat")
    if names and any(holds_controls(name) for name in names):
        raise RecordError(0, 0, "names must hold no control characters")
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError(0, 0, "rounds must be a list")
    match = Match(rules, auto_deal=False)
    for number, entry in enumerate(rounds, start=1):
        _replay_round(match, number, entry, last=number == len(rounds))
    return match


def _replay_round(match: Match, number: int, entry: Any, last: bool) -> None:
    if match.over:
        raise RecordError(number, 0, f"the match was already won by side {match.winner}")
    if not isinstance(entry, dict):
        raise RecordError(number, 0, "a round must be a JSON object with deck and moves")
    deck_texts = entry.get("deck")
    if not isinstance(deck_texts, list) or not all(isinstance(text, str) for text in deck_texts):
        raise RecordError(number, 0, 'deck must be a list of 52 cards such as "7C"')
    try:
        deck = [Card.parse(text) for text in deck_texts]
    except ValueError as error:
        raise RecordError(number, 0, f"deck: {error}") from None
    if len(deck) != 52 or mask_of(deck) != (1 << 52) - 1:
        raise RecordError(number, 0, "deck must hold each of the 52 cards exactly once")
    try:
        game = match.next_round(deck)
    except DeckError as error:
        raise RecordError(number, 0, f"deck: {error}") from None
    moves = entry.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError(number, 0, "moves must be a list")
    for index, item in enumerate(moves, start=1):
        if game.over:
            raise RecordError(number, index, "the round is already over: there are too many moves")
        try:
            code = _resolve(game, item)
        except IllegalMove as error:
            raise RecordError(number, index, str(error)) from None
        match.play_code(code)
    if not game.over and not last:
        raise RecordError(number, len(moves) + 1, "the round stops before its end but is not the last")


def _resolve(game: Round, item: Any) -> int:
    """The engine int of a record's move object; `IllegalMove` saying what is wrong."""
    if not isinstance(item, dict) or not isinstance(item.get("card"), str):
        raise IllegalMove('a move must be an object such as {"card": "7C", "take": ["4H"]}')
    take_texts = item.get("take")
    if "take" in item and not (isinstance(take_texts, list) and all(isinstance(text, str) for text in take_texts)):
        raise IllegalMove('take must be a list of cards such as ["4H"]')
    try:
        card = Card.parse(item["card"])
        take = None if take_texts is None else [Card.parse(text) for text in take_texts]
    except ValueError as error:
        raise IllegalMove(str(error)) from None
    return find_code(card, take, game.hands[game.turn], game.table, game.legal_codes())


@dataclass(frozen=True, slots=True)
class ReplaySummary:
    """What ``pasur replay`` reports of a match."""

    rounds: list[dict[str, list[int]]]
    scores: list[int]
    winner: int | None
    over: bool

    def to_json(self) -> dict[str, Any]:
        """The JSON object of RECORDS.md."""
        return {"rounds": self.rounds, "scores": self.scores, "winner": self.winner, "over": self.over}


def positions(match: Match) -> Iterator[tuple[Round, Move | None]]:
    """Every position of a match in order: each round as dealt, then after each of its moves,
    with the move just played. One Round per round moves on: copy it to keep a position."""
    for recorded in match.rounds:
        game = Round(match.rules, recorded.deck, recorded.number, recorded.banked)
        yield game, None
        for code in recorded.history:
            game.play_code(code)
            yield game, Move.from_code(code)


def summarize(match: Match) -> ReplaySummary:
    """Per completed round and side: points, Surs counted, clubs and cards; then the match."""
    rounds = []
    for game in match.rounds:
        if not game.over:
            continue
        breakdown = game.breakdown()
        rounds.append(
            {
                "points": [side.total for side in breakdown],
                "surs": [side.surs for side in breakdown],
                "clubs": [side.clubs for side in breakdown],
                "cards": [side.cards for side in breakdown],
            }
        )
    return ReplaySummary(rounds, list(match.scores), match.winner, match.over)


def replay_record(record: Any) -> dict[str, Any]:
    """Replay one record: its summary object, or the error object when it is invalid."""
    try:
        return summarize(from_record(record)).to_json()
    except RecordError as error:
        return error.to_json()


def replay_line(line: str) -> dict[str, Any]:
    """Replay one JSON Lines line: the summary object, or the error object."""
    try:
        return replay_record(load_json(line))
    except RecordError as error:
        return error.to_json()


def load_json(text: str) -> Any:
    """Parse a single record file; `RecordError` when it is not JSON, or not UTF-8 text (a file
    read with ``errors="surrogateescape"`` keeps each byte that is not as a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        line = text.count("\n", 0, error.start) + 1
        column = error.start - text.rfind("\n", 0, error.start)
        raise RecordError(0, 0, f"not UTF-8 text at line {line} column {column}") from None
    try:
        return read_json(text)
    except json.JSONDecodeError as error:
        raise RecordError(0, 0, f"not JSON: {error.msg} at line {error.lineno} column {error.colno}") from None

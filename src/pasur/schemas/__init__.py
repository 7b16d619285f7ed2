"""JSON Schemas (draft 2020-12) of the formats others build on: the game record
(``pasur-record/1``), the puzzle (``pasur-puzzle/1``), the training targets (``pasur-targets/1``,
each line) and every ``pasur-bot/1`` message. They are built here, once, from the same names the
readers use, and shipped as the JSON files beside this module (``python -m pasur.schemas`` writes
them again; a test holds them equal). Each reader refuses whatever its schema refuses (a test tries
every field with every wrong type); a reader may refuse more (an illegal move, a deck that repeats
a card), which no schema can say.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: The file of each format's schema, beside this module.
FILES = {
    "pasur-record/1": "pasur-record-1.schema.json",
    "pasur-puzzle/1": "pasur-puzzle-1.schema.json",
    "pasur-targets/1": "pasur-targets-1.schema.json",
    "pasur-bot/1": "pasur-bot-1.schema.json",
}

CARD = {
    "type": "string",
    "description": "a card: rank (A or 1, 2-10 or T, J, Q, K) then suit (C D H S or ♣ ♦ ♥ ♠), "
    'any case: "7C", "10d", "T♦"',
    "pattern": "^\\s*(?:10|[1-9AaTtJjQqKk])[CcDdHhSs♣♦♥♠]\\s*$",
}
CARDS = {"type": "array", "items": {"$ref": "#/$defs/card"}}
WHOLE = {"type": "integer", "minimum": 0}
#: A name as a terminal may show it: no control character and no bidirectional control
#: (`pasur.core.record.holds_controls`).
NO_CONTROLS = {"not": {"pattern": "[\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]"}}


def rules_schema() -> dict[str, Any]:
    """The rules options (RECORDS.md's table); an option left out has its default."""
    from ..core import Rules

    options: dict[str, Any] = {
        "players": {"type": "integer", "enum": [2, 3, 4]},
        "target": {"type": "integer", "minimum": 1},
        "sur_cutoff": {"type": ["integer", "null"], "minimum": 0},
        "haft_khaj": {"enum": ["seven", "most"]},
    }
    for field in fields(Rules):
        options.setdefault(field.name, {"type": "boolean"})
    for field in fields(Rules):
        options[field.name] = {**options[field.name], "default": getattr(Rules(), field.name)}
    return {"type": "object", "properties": options, "additionalProperties": False}


def view_schema() -> dict[str, Any]:
    """A seat's view as pasur-bot/1 sends it (BOT-PROTOCOL.md, "The view")."""
    play = {
        "type": "object",
        "required": ["seat", "card", "take"],
        "properties": {"seat": WHOLE, "card": {"$ref": "#/$defs/card"}, "take": CARDS},
    }
    whole_list = {"type": "array", "items": WHOLE}
    properties = {
        "rules": {"$ref": "#/$defs/rules"},
        "seat": WHOLE,
        "hand": CARDS,
        "table": CARDS,
        "captured": {"type": "array", "items": CARDS},
        "history": {"type": "array", "items": play},
        "hands": whole_list,
        "pack": WHOLE,
        "scores": {"type": "array", "items": {"type": "integer"}},
        "surs": whole_list,
        "round": WHOLE,
        "deal": WHOLE,
        "turn": WHOLE,
        "first": WHOLE,
        "last_capturer": {"type": ["integer", "null"], "minimum": 0},
        "over": {"type": "boolean"},
    }
    return {"type": "object", "required": list(properties), "properties": properties}


def move_entry(extra: dict[str, Any]) -> dict[str, Any]:
    """A move as pasur-bot/1's ``moves`` list it: its short text, the card and what it takes."""
    return {
        "type": "object",
        "required": ["card", "take", *extra],
        "properties": {"move": {"type": "string"}, "card": {"$ref": "#/$defs/card"}, "take": CARDS, **extra},
    }


def definitions(*names: str) -> dict[str, Any]:
    """The shared pieces a schema refers to (``#/$defs/…``)."""
    known = {"card": CARD, "rules": rules_schema(), "view": view_schema()}
    return {name: known[name] for name in names}


def record_schema() -> dict[str, Any]:
    move = {
        "type": "object",
        "required": ["card"],
        "properties": {"card": {"$ref": "#/$defs/card"}, "take": CARDS},
        "description": "take left out: the card's only legal move",
    }
    round_ = {
        "type": "object",
        "required": ["deck"],
        "properties": {
            "deck": {**CARDS, "minItems": 52, "maxItems": 52, "uniqueItems": True},
            "moves": {"type": "array", "items": move},
        },
    }
    return {
        "title": "pasur-record/1: a match of Pasur (docs/RECORDS.md)",
        "type": "object",
        "required": ["rounds"],
        "properties": {
            "format": {"const": "pasur-record/1"},
            "rules": {"$ref": "#/$defs/rules"},
            "names": {"type": "array", "items": {"type": "string", **NO_CONTROLS}, "minItems": 2, "maxItems": 4},
            "rounds": {"type": "array", "items": round_},
        },
        "$defs": definitions("card", "rules"),
    }


def puzzle_schema() -> dict[str, Any]:
    from ..coach.puzzles import DIFFICULTIES, EXACTNESS

    return {
        "title": "pasur-puzzle/1: a position with one clearly best move (one JSON Lines line)",
        "type": "object",
        "required": ["format", "view", "values", "answers", "margin", "exact", "arrangements", "difficulty"],
        "properties": {
            "format": {"const": "pasur-puzzle/1"},
            "id": {"type": "string"},
            "view": {"$ref": "#/$defs/view"},
            "values": {"type": "object", "additionalProperties": {"type": "number"}},
            "answers": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "margin": {"type": "number"},
            "exact": {"enum": list(EXACTNESS)},
            "arrangements": WHOLE,
            "difficulty": {"enum": list(DIFFICULTIES)},
            "source": {"type": ["object", "null"]},
        },
        "$defs": definitions("card", "rules", "view"),
    }


def targets_schema() -> dict[str, Any]:
    header = {
        "type": "object",
        "required": ["format", "rules"],
        "properties": {
            "format": {"const": "pasur-targets/1"},
            "rules": {"$ref": "#/$defs/rules"},
            "samples": {"type": "integer", "minimum": 1},
            "horizon": {"type": "string"},
            "explore": {"type": "number", "minimum": 0, "maximum": 1},
            "seed": {"type": "integer"},
            "player": {"type": "string"},
            "weights": {"type": "string"},
        },
    }
    decision = {
        "type": "object",
        "required": ["view", "moves"],
        "properties": {
            "view": {"$ref": "#/$defs/view"},
            "moves": {"type": "array", "items": move_entry({"value": {"type": "number"}}), "minItems": 1},
        },
    }
    return {
        "title": "pasur-targets/1: one line of a targets file (docs/TRAINING.md): the header, then decisions",
        "oneOf": [{"$ref": "#/$defs/header"}, {"$ref": "#/$defs/decision"}],
        "$defs": {**definitions("card", "rules", "view"), "header": header, "decision": decision},
    }


def bot_schema() -> dict[str, Any]:
    def message(kind: str, required: list[str], **properties: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["type", *required],
            "properties": {"type": {"const": kind}, **properties},
        }

    move_id = {"type": "integer"}
    messages = {
        "hello": message("hello", ["protocol"], protocol={"const": "pasur-bot/1"}),
        "move": message(
            "move",
            ["id", "view", "legal"],
            id=move_id,
            view={"$ref": "#/$defs/view"},
            legal={"type": "array", "items": {"type": "string"}, "minItems": 1},
            moves={"type": "array", "items": move_entry({})},
        ),
        "quit": message("quit", []),
        "hello_answer": message("hello", [], name={"type": "string"}),
        "move_answer": message("move", ["id", "move"], id=move_id, move={"type": "string"}),
    }
    return {
        "title": "pasur-bot/1: one message, the host's (hello, move, quit) or the bot's answer (docs/BOT-PROTOCOL.md)",
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in messages],
        "$defs": {**definitions("card", "rules", "view"), **messages},
    }


def build() -> dict[str, dict[str, Any]]:
    """Every schema, by format."""
    built = {
        "pasur-record/1": record_schema(),
        "pasur-puzzle/1": puzzle_schema(),
        "pasur-targets/1": targets_schema(),
        "pasur-bot/1": bot_schema(),
    }
    return {name: {"$schema": DIALECT, "$id": FILES[name], **schema} for name, schema in built.items()}


def load(name: str) -> dict[str, Any]:
    """The shipped schema of a format (``"pasur-record/1"`` …)."""
    schema: dict[str, Any] = json.loads((HERE / FILES[name]).read_text(encoding="utf-8"))
    return schema


def text(schema: dict[str, Any]) -> str:
    """A schema as its file holds it."""
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"

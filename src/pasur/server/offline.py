"""What the page needs to play on the device with no server (static/js/offline-table.js), read from
the Python definitions so that a level, a name or a word is changed in one place: the levels that
play offline and the bot each plays (the engine's own, compiled to WebAssembly), the bots' names,
the first-game lesson's deal and its tips' words, the refusals' words, the rules' defaults, and a
version that changes with the engine."""

from __future__ import annotations

import hashlib
import inspect
from pathlib import Path
from typing import Any

from .. import __version__
from ..bots import LEVELS, IsmctsBot, PimcBot
from ..bots.solver_bot import SolverBot
from ..coach.lesson import LEARNER, LESSON_DECK, LESSON_LEVEL
from ..core import Rules
from ..core.sampling import node_limit_within
from ..i18n import BOT_PERSONAS, CATALOG, LANGUAGES, PERSIAN_LEVELS, refusal_words, text

ENGINE = Path(__file__).parent / "static" / "engine.wasm"
#: How long the strongest offline bot samples a move, in milliseconds of the device's time: the last
#: batch of deals may run past it, and a move then stays within a second (benchmarks/offline_budget.py).
OFFLINE_BOT_MS = 800
#: The solver bot's options as SolverBot plays them (the ``grandmaster`` level), bounded in time.
SOLVER_OPTIONS = {
    "samples": SolverBot.DEFAULT_SAMPLES,
    "ms": OFFLINE_BOT_MS,
    "nodeLimit": node_limit_within(OFFLINE_BOT_MS),
    "temper": 2.0,
    "gift": 1.0,
    "playouts": inspect.signature(SolverBot).parameters["playouts"].default,  # with 3 or more sides
    "each": inspect.signature(SolverBot).parameters["others"].default == "each",  # with 3 or more sides
    "greedy": inspect.signature(PimcBot).parameters["greedy"].default,
}
#: The ismcts bot's options as IsmctsBot plays them (the ``hard`` level), bounded in time.
ISMCTS_OPTIONS = {
    "iterations": IsmctsBot.DEFAULT_ITERATIONS,
    "ms": OFFLINE_BOT_MS,
    **{name: inspect.signature(IsmctsBot).parameters[name].default for name in ("exploration", "greedy")},
}
#: The pimc bot's options as PimcBot plays them (the ``master`` level), bounded in time.
PIMC_OPTIONS = {
    "playouts": PimcBot.DEFAULT_PLAYOUTS,
    "ms": OFFLINE_BOT_MS,
    "greedy": inspect.signature(PimcBot).parameters["greedy"].default,
}
#: The searching bots' options offline.
OFFLINE_OPTIONS = {"ismcts": ISMCTS_OPTIONS, "pimc": PIMC_OPTIONS, "solver": SOLVER_OPTIONS}
#: The levels offered offline, each with the bot that plays it in the browser's engine: every level
#: a server offers (pasur.bots.LEVELS).
OFFLINE_LEVELS: dict[str, dict[str, Any]] = {
    level: {"name": bot, "options": OFFLINE_OPTIONS.get(bot, {})} for level, bot in LEVELS.items()
}
#: The refusals a table on the device can give, with what each one's words name.
OFFLINE_REFUSALS = {"not_your_turn": ("name",), "stale_version": ("version",), "not_understood": ("problem",)}


def offline_about() -> dict[str, Any]:
    """Everything offline play reads besides the engine, in every language of the page; ``version``
    changes whenever the package or the engine does (the service worker fetches again then)."""
    engine = hashlib.sha256(ENGINE.read_bytes()).hexdigest()[:12]
    return {
        "version": f"{__version__}+{engine}",
        "levels": OFFLINE_LEVELS,
        "defaults": Rules().to_dict(),
        "names": {
            "personas": {lang: list(BOT_PERSONAS[lang]) for lang in LANGUAGES},
            "level_names": PERSIAN_LEVELS,
            "bot_name": {lang: text("bot_name", lang, name="{name}", level="{level}") for lang in LANGUAGES},
        },
        "lesson": {
            "deck": [int(card) for card in LESSON_DECK],
            "level": LESSON_LEVEL,
            "learner": LEARNER,
            "words": {
                key: dict(zip(LANGUAGES, words, strict=True))
                for key, words in CATALOG.items()
                if key.startswith("lesson_") or key == "lay_card"
            },
        },
        "refusals": {
            reason: {lang: refusal_words(reason, lang, {key: f"{{{key}}}" for key in keys}) for lang in LANGUAGES}
            for reason, keys in OFFLINE_REFUSALS.items()
        },
    }

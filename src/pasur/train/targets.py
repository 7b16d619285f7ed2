"""The distillation targets: positions, each with every legal move's value by ``solver``.

A targets file (``pasur-targets/1``) is gzip-compressed JSON lines. The first line says what made it::

    {"format": "pasur-targets/1", "rules": {...}, "samples": 128, "horizon": "deal",
     "explore": 0.1, "seed": 1, "player": "solver"}

and every other line is one decision of one seat, as that seat saw it::

    {"view": {...}, "moves": [{"move": "5H", "card": "5H", "take": ["6C"], "value": 2.41}, ...]}

``view`` is the seat's view exactly as pasur-bot/1 sends it (BOT-PROTOCOL.md, nothing hidden),
``moves`` every legal move as in the protocol's ``moves`` with ``value``: the mean, over the
sampled deals of the unseen cards (weighted by how likely the others' plays were with them), of
the exact value of the rest of the deal with the move played, in points for the seat's side less
the other side's, Haft Khaj included as each side can expect it (``solver``'s ``horizon=deal``).
Only decisions with two or more legal moves are written.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import count
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from ..bots.solver_bot import SolverBot
from ..core import Move, MoveCode, Round, Rules, SeatView
from ..core.deal import deal_deck
from ..core.errors import RulesError
from ..core.notation import short_texts
from ..core.record import read_json
from ..core.view import is_number, whole_number

FORMAT = "pasur-targets/1"
#: Rounds one task of the pool plays: enough to keep a worker busy for a few seconds.
ROUNDS_A_TASK = 4
#: The longest line a targets file may hold (a view with a full history is about 3 KB).
MAX_LINE = 64 * 1024


@dataclass(frozen=True)
class Plan:
    """How positions are made: ``samples`` solved deals a decision; the move played is the best by
    those values (``player`` "solver") or the one ``net``'s network scores highest (``player``
    "net", with ``weights`` or the shipped ones, so the positions are the ones the network meets
    itself; in the last deal too, which the ``net`` bot solves instead), and
    a random legal move instead with chance ``explore``."""

    rules: Rules
    samples: int = 128
    explore: float = 0.1
    seed: int = 1
    player: str = "solver"
    weights: str = ""  # the net player's weights file ("": the shipped ones)

    def header(self) -> dict[str, Any]:
        """The file's first line."""
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "samples": self.samples,
            "horizon": "deal",
            "explore": self.explore,
            "seed": self.seed,
            "player": self.player,
            **({"weights": Path(self.weights).name} if self.weights else {}),
        }


def position_line(view: SeatView, legal: list[Move], values: dict[MoveCode, float]) -> str:
    """One decision as a line of the file."""
    texts = short_texts([move.code for move in legal])
    moves = [
        {"move": text, **move.to_json(), "value": round(values[move.code], 4)}
        for text, move in zip(texts, legal, strict=True)
    ]
    return json.dumps({"view": view.to_json(), "moves": moves}, separators=(",", ":"))


def play_rounds(plan: Plan, task: int) -> list[str]:
    """The lines of `ROUNDS_A_TASK` rounds played by ``plan.player`` in every seat; each round
    starts from random banked scores (below the target) so that every stage of a match is seen."""
    rng = random.Random(f"{plan.seed}:{task}")
    # the others as one coalition: the targets the shipped networks were trained on
    bot = SolverBot(samples=plan.samples, seed=rng.randrange(1 << 30), others="coalition")
    player = None
    if plan.player == "net":
        from ..bots.net import NetBot  # NumPy only when it plays

        player = NetBot(weights=plan.weights)
    rules = plan.rules
    lines = []
    for _ in range(ROUNDS_A_TASK):
        banked = [rng.randrange(rules.target) if rng.random() < 0.5 else 0 for _ in range(rules.sides)]
        number = 1 + rng.randrange(rules.players) + rules.players * (sum(banked) > 0)
        game = Round(rules, deal_deck(rng, rules), number, banked, check_deck=False)
        while not game.over:
            legal = game.legal_moves()
            view = game.view(game.turn)
            if len(legal) == 1:
                game.play(legal[0])
                continue
            values = bot.mean_values(view, legal)
            if values is None:  # no native core: the targets cannot be made
                raise RuntimeError("making targets needs the native core (a C compiler at install)")
            lines.append(position_line(view, legal, values))
            if rng.random() < plan.explore:
                game.play(rng.choice(legal))
            elif player is not None:
                game.play(legal[player.best(view.masks(), [move.code for move in legal])])
            else:
                game.play(max(legal, key=lambda move: values[move.code]))
    return lines


def generate(plan: Plan, positions: int, out: Path, jobs: int, progress: Callable[[int], None] | None = None) -> int:
    """Write ``positions`` positions to ``out`` with ``jobs`` processes, and say how many were
    written. The rounds are played in tasks 0, 1, 2, ... and written in that order, so the file
    is the same whatever ``jobs`` is. ``progress(n)`` is told each task's count as it is written."""
    written = 0
    with gzip.open(out, "wt", encoding="utf-8") as sink:
        sink.write(json.dumps(plan.header()) + "\n")
        with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
            tasks = count()
            pending = deque(pool.submit(play_rounds, plan, next(tasks)) for _ in range(2 * jobs))
            while written < positions:
                kept = pending.popleft().result()[: positions - written]
                sink.writelines(line + "\n" for line in kept)
                written += len(kept)
                if progress is not None:
                    progress(len(kept))
                pending.append(pool.submit(play_rounds, plan, next(tasks)))
            for future in pending:
                future.cancel()
    return written


def read_targets(path: Path) -> tuple[dict[str, Any], Iterator[tuple[SeatView, list[tuple[MoveCode, float]]]]]:
    """The header of a targets file and its positions (the view and each legal move's code and
    value); ValueError naming the line for anything malformed."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            header = read_json(stream.readline(MAX_LINE))
    except (OSError, EOFError, ValueError) as error:
        raise ValueError(f"{path} is not a targets file: {error}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{path} is not a {FORMAT} file (its first line names no such format)")
    try:
        check_header(header)
    except (RulesError, ValueError) as error:
        raise ValueError(f"{path}, line 1: {error}") from None
    return header, _positions(path)


def read_decision(data: Any) -> tuple[SeatView, list[tuple[MoveCode, float]]]:
    """One decision line's view and each legal move's code and value; ValueError (or KeyError)
    saying what is wrong, as when the moves are not the view's legal moves."""
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list) or not data["moves"]:
        raise ValueError("a decision is an object with a view and its moves")
    view = SeatView.from_json(data["view"])
    moves = [(Move.from_json(entry).code, _value(entry)) for entry in data["moves"]]
    if sorted(code for code, _ in moves) != sorted(view.legal_codes()):
        raise ValueError("the moves are not the view's legal moves")
    return view, moves


def _value(entry: dict[str, Any]) -> float:
    value = entry["value"]
    if not is_number(value):
        raise ValueError(f"a move's value must be a number, not {value!r}")
    return float(value)


def check_header(header: dict[str, Any]) -> None:
    """A header's fields each of its type (schemas/pasur-targets-1.schema.json); ValueError or
    RulesError saying which is not."""
    Rules.from_dict(header.get("rules"))
    if "samples" in header and whole_number(header["samples"], "samples") < 1:
        raise ValueError("samples must be 1 or more")
    explore = header.get("explore", 0)
    if not is_number(explore) or not 0 <= explore <= 1:
        raise ValueError("explore must be a number from 0 to 1")
    if "seed" in header:
        whole_number(header["seed"], "seed", negative=True)
    for name in ("horizon", "player", "weights"):
        if not isinstance(header.get(name, ""), str):
            raise ValueError(f"{name} must be a string")


def _positions(path: Path) -> Iterator[tuple[SeatView, list[tuple[MoveCode, float]]]]:
    """The positions of a targets file whose header was read."""
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        stream.readline(MAX_LINE)
        for number, line in enumerate(iter(lambda: stream.readline(MAX_LINE + 1), ""), start=2):
            if len(line) > MAX_LINE:
                raise ValueError(f"{path}, line {number}: longer than {MAX_LINE} characters")
            try:
                view, moves = read_decision(read_json(line))
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}, line {number}: {error}") from None
            yield view, moves

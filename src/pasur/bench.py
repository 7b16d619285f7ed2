"""Throughput measurements behind ``pasur bench``."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from .core import Match, Round, Rules, deal_deck, replay_record, to_record


def random_rounds_per_second(seconds: float = 2.0, seed: int = 1, rules: Rules | None = None) -> float:
    """Complete rounds per second with uniformly random legal moves, on this core."""
    rules = rules or Rules()
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    while True:
        Round(rules, deal_deck(rng, rules), check_deck=False).play_random(rng)
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def random_match(rules: Rules, seed: int) -> Match:
    """A whole match played with uniformly random legal moves."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    while not match.over:
        codes = match.rounds[-1].legal_codes()
        match.play_code(codes[rng.randrange(len(codes))])
    return match


def replay_throughput(records: int = 200, seed: int = 1, rules: Rules | None = None) -> dict[str, float]:
    """Records and moves replayed (parsed from JSON, checked, scored) per second."""
    rules = rules or Rules()
    lines = [json.dumps(to_record(random_match(rules, seed + index))) for index in range(records)]
    moves = sum(line.count('"card"') for line in lines)
    start = time.perf_counter()
    for line in lines:
        result = replay_record(json.loads(line))
        if "error" in result:
            raise RuntimeError(f"a generated record did not replay: {result}")
    elapsed = time.perf_counter() - start
    return {"records_per_second": records / elapsed, "moves_per_second": moves / elapsed}


def run(seconds: float = 2.0, records: int = 200) -> dict[str, Any]:
    """Every figure ``pasur bench`` prints."""
    replay = replay_throughput(records)
    return {
        "rounds_per_second": round(random_rounds_per_second(seconds)),
        "replay_records_per_second": round(replay["records_per_second"]),
        "replay_moves_per_second": round(replay["moves_per_second"]),
    }

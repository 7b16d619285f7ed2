"""What a move costs the server to show: ``state_json`` for both seats of a 2-player match in its
fourth round (three finished rounds to summarise), and encoding both states as the server sends
them (orjson) and as the standard library would; microseconds a move.

    .venv/bin/python benchmarks/projection.py
"""

from __future__ import annotations

import json
import random
import timeit

import orjson

from pasur import Match, Rules
from pasur.server.projection import state_json, table_json
from pasur.server.seats import Seat, TableSettings, TableStatus


def main() -> None:
    match = Match(Rules(), seed=3)
    rng = random.Random(1)
    while len(match.rounds) < 4 or len(match.rounds[-1].history) < 20:
        match.play(rng.choice(match.legal_moves()))
    settings = TableSettings(rules=Rules(), seats=(Seat(name="Ava"), Seat(name="Bea")), seed=1, host_hash="")

    def both_seats() -> list[dict[str, object]]:
        return [
            state_json(match, seat, 100, table_json("t", settings, TableStatus.PLAYING, [True, True], seat))
            for seat in (0, 1)
        ]

    states = both_seats()
    timed = {
        "both seats' states": both_seats,
        "encoded by orjson": lambda: [orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS).decode() for state in states],
        "encoded by json": lambda: [json.dumps(state, separators=(",", ":"), ensure_ascii=False) for state in states],
    }
    runs = 2000
    for name, work in timed.items():
        print(f"{timeit.timeit(work, number=runs) / runs * 1e6:6.0f} us a move: {name}")


if __name__ == "__main__":
    main()

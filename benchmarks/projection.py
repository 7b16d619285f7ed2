"""What a move costs the server to show: ``state_json`` for both seats of a 2-player match in its
fourth round (three finished rounds to summarise), microseconds a move.

    .venv/bin/python benchmarks/projection.py
"""

from __future__ import annotations

import random
import timeit

from pasur import Match, Rules
from pasur.server.projection import state_json, table_json
from pasur.server.seats import Seat, TableSettings, TableStatus


def main() -> None:
    match = Match(Rules(), seed=3)
    rng = random.Random(1)
    while len(match.rounds) < 4 or len(match.rounds[-1].history) < 20:
        match.play(rng.choice(match.legal_moves()))
    settings = TableSettings(rules=Rules(), seats=(Seat(name="Ava"), Seat(name="Bea")), seed=1, host_hash="")

    def both_seats() -> None:
        for seat in (0, 1):
            state_json(match, seat, 100, table_json("t", settings, TableStatus.PLAYING, [True, True], seat))

    runs = 2000
    print(f"{timeit.timeit(both_seats, number=runs) / runs * 1e6:.0f} us a move (both seats' states)")


if __name__ == "__main__":
    main()

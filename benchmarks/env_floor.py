"""The least a numpy-observation environment can cost per move, against the engine's playout loop.

    .venv/bin/python benchmarks/env_floor.py

A bare loop that does only what any such environment must: read the mover's view (``masks``),
unpack its cards into one int8 array with one numpy call, cut the action mask out of it, let a
random agent choose from the mask, and play the card's move. No AEC bookkeeping, no counts or
scores in the observation. Its cost per move, set against the engine's own random playout loop
(``legal_codes``, ``play_code``), is the floor under ``pasur bench``'s ``cost_per_playout_move``.
"""

from __future__ import annotations

import random
import time

import numpy as np

from pasur.bench import ENGINE_LOOPS, engine_moves
from pasur.core import Round, Rules, deal_deck

BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").view(np.int8)


def bare_loop(moves: int, seed: int) -> float:
    """Seconds of CPU for ``moves`` random moves through the bare loop."""
    rng = random.Random(seed)
    rules = Rules()
    played = 0
    packed = np.zeros(27, np.uint8)
    start = time.process_time()
    while played < moves:
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        while not game.over and played < moves:
            view = game.masks(game.turn)
            bits = view.hand | view.table << 105 | view.unseen << 157
            packed.data[:] = bits.to_bytes(27, "little")
            allowed = BITS.take(packed, 0).ravel()[:105].nonzero()[0]
            card = int(allowed[rng.randrange(len(allowed))])
            game.play_code(game.card_codes(card)[0])
            played += 1
    return time.process_time() - start


def main() -> None:
    moves, engine, bare = 20_000, float("inf"), float("inf")
    for _ in range(8):  # interleaved, best of eight: the machine is noisy
        engine = min(engine, engine_moves(moves, 1, ENGINE_LOOPS[0], 2))
        bare = min(bare, bare_loop(moves, 1))
    print(
        f"engine playout {1e6 * engine / moves:.2f} us/move; bare observation loop "
        f"{1e6 * bare / moves:.2f} us/move: {bare / engine:.2f}x"
    )


if __name__ == "__main__":
    main()

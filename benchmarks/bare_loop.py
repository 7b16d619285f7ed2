"""The native engine's cost a move against a bare loop of the same bit operations (one core).

.venv/bin/python benchmarks/bare_loop.py [--rounds 200000]

Compiles benchmarks/bare_loop.c with the C compiler (cc, -O2, as the extension is built) and runs
it: random 2-player rounds played by the engine's loop (every legal move listed, one played) and
by a bare loop that plays a random card of the hand, taking one table card of its rank, with the
same masks, dealing and play. Times are interleaved round by round.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200_000)
    args = parser.parse_args()
    source = Path(__file__).with_name("bare_loop.c")
    with tempfile.TemporaryDirectory() as folder:
        program = Path(folder) / "bare_loop"
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-o", str(program), str(source)], check=True)
        figures = json.loads(
            subprocess.run([str(program), str(args.rounds)], capture_output=True, text=True, check=True).stdout
        )
    ratio = figures["engine_ns_per_move"] / figures["bare_ns_per_move"]
    print(
        f"{figures['rounds']:,} random 2-player rounds ({figures['moves']:,} moves): engine "
        f"{figures['engine_ns_per_move']:.1f} ns a move, bare loop {figures['bare_ns_per_move']:.1f} ns ({ratio:.1f}x)"
    )


if __name__ == "__main__":
    main()

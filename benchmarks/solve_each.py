"""The two searches of a deal with more than two sides, on one core: the others as one coalition,
and each for themselves (max-n, docs/SOLVER.md), from a deal's first play to its end.

.venv/bin/python benchmarks/solve_each.py [--deals 40] [--seed 5] [--json]

For 3 players and 4 each for themselves: over ``--deals`` rounds played at random to the start of a
random deal, the nodes and milliseconds of each search (median, p95), and how often the two
searches' best moves differ.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from pasur import Round, Rules, deal_deck
from pasur.core import native

TABLES = {"3p": Rules(players=3), "4-each": Rules(players=4, partnership=False)}
#: The transposition table's entries (2**16), the solver bot's at a deal's horizon.
TABLE_BITS = 16


def deal_start(rules: Rules, rng: random.Random) -> Round:
    """A round played at random to the first play of a random deal."""
    game = Round(rules, deal_deck(rng, rules), check_deck=False)
    deals = 52 // (4 * rules.players)
    for _ in range(rng.randrange(deals) * 4 * rules.players):
        game.play_code(rng.choice(game.legal_codes()))
    return game


def percentile(values: list[float], share: float) -> float:
    return sorted(values)[min(len(values) - 1, int(share * len(values)))]


def figures(rules: Rules, deals: int, seed: int) -> dict[str, Any]:
    """Each search's nodes and time over ``deals`` deal starts, and how often their best moves differ."""
    rng = random.Random(seed)
    found: dict[str, dict[str, list[float]]] = {kind: {"nodes": [], "ms": []} for kind in ("coalition", "each")}
    differ = 0
    for _ in range(deals):
        game = deal_start(rules, rng)
        best = {}
        for kind in found:
            started = time.perf_counter()
            _value, moves, _line, nodes = native.solve(game, False, TABLE_BITS, 0, True, kind == "each")
            found[kind]["ms"].append((time.perf_counter() - started) * 1000)
            found[kind]["nodes"].append(nodes)
            best[kind] = max(moves, key=lambda move: move[1])[0]
        differ += best["coalition"] != best["each"]
    return {
        kind: {
            f"{what}_{name}": round(pick(values), 2)
            for what, values in measured.items()
            for name, pick in (("median", statistics.median), ("p95", lambda v: percentile(v, 0.95)))
        }
        for kind, measured in found.items()
    } | {"deals": deals, "best_moves_differ": round(differ / deals, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not native.available():
        raise SystemExit("solve_each: needs the native core")
    report = {table: figures(rules, args.deals, args.seed) for table, rules in TABLES.items()}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for table, measured in report.items():
        print(f"{table}: {measured['deals']} deal starts, best moves differ in {measured['best_moves_differ']:.0%}")
        for kind in ("coalition", "each"):
            numbers = measured[kind]
            print(
                f"  {kind:9}  nodes median {numbers['nodes_median']:>10,.0f}  p95 {numbers['nodes_p95']:>10,.0f}"
                f"  ms median {numbers['ms_median']:7.1f}  p95 {numbers['ms_p95']:7.1f}"
            )


if __name__ == "__main__":
    main()

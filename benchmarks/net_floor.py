"""How far a bot's choices are from the targets' best moves, beside a second ``solver`` (the same
samples, other sampled deals): the points a decision each gives up by the targets' own values,
and how often each picks a best move. The second solver shows the floor the targets' noise sets;
what a bot gives up above it is what it has not learned.

    .venv/bin/python benchmarks/net_floor.py build/train/targets.jsonl.gz --positions 2000
    .venv/bin/python benchmarks/net_floor.py FILE --bot net:weights=build/train/other.npz
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from pasur.bots import make_bot
from pasur.bots.solver_bot import SolverBot
from pasur.train.targets import read_targets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", type=Path)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--bot", action="append", help="a bot to measure (repeat; default: net)")
    parser.add_argument("--seed", type=int, default=99)
    args = parser.parse_args()
    header, positions = read_targets(args.targets)
    players = {"second solver": SolverBot(samples=header["samples"], seed=args.seed)}
    players |= {spec: make_bot(spec, seed=args.seed, allow_exec=True) for spec in args.bot or ["net"]}
    given_up = dict.fromkeys(players, 0.0)
    best_picked = dict.fromkeys(players, 0)
    random_loss, count = 0.0, 0
    for view, moves in itertools.islice(positions, args.positions):
        values = dict(moves)
        best = max(values.values())
        legal = view.legal_moves()
        for name, player in players.items():
            picked = values[player.choose(view, legal).code]
            given_up[name] += best - picked
            best_picked[name] += picked >= best - 1e-4
        random_loss += best - sum(values.values()) / len(values)
        count += 1
    print(f"{count} positions of {args.targets} ({header['samples']} samples, player {header.get('player', 'solver')})")
    for name in players:
        share = best_picked[name] / count
        print(f"  {name}: gives up {given_up[name] / count:.3f} points a decision, picks a best move {share:.1%}")
    print(f"  a random move: gives up {random_loss / count:.3f}")


if __name__ == "__main__":
    main()

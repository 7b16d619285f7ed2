"""Train a small Pasur agent end to end on the CPU, then measure it with the match runner.

    pip install torch==2.13.0 'pasur[train]'     # or: bash scripts/setup.sh, which does this
    python examples/train_ppo.py --steps 300000  # about 2.5 minutes' training on one core

It trains sb3-contrib's MaskablePPO on 16 episodes of ``pasur/Pasur-v0`` stepped at once by the
native vector environment (``pasur.envs.sb3.PasurSB3VecEnv``: one seat, the other played by
``--opponent``; reward: the round's point difference), saves the policy, then
plays it through pasur-bot/1 (``examples/ppo_bot.py``) against ``random`` and ``greedy`` on
duplicate deals with ``pasur match`` and prints both reports. docs/TRAINING.md says what it reached.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from sb3_contrib import MaskablePPO

from pasur.envs.sb3 import PasurSB3VecEnv

HERE = Path(__file__).resolve().parent
EPISODES = 16  # stepped at once, natively


def train(steps: int, opponent: str, seed: int, out: Path) -> MaskablePPO:
    """Train, print progress now and then, save to ``out``."""
    env = PasurSB3VecEnv(EPISODES, opponents=opponent)  # the action masks come from env.action_masks()
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        learning_rate=3e-4,
        n_steps=2048 // EPISODES,  # 2,048 steps an update, as from one episode at a time
        batch_size=256,
        gamma=1.0,  # one round is one episode: its points are all that counts
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=steps, progress_bar=False)
    print(f"trained {steps:,} steps against {opponent} in {time.perf_counter() - start:.0f} s", flush=True)
    model.save(out)
    return model


def measure(model_path: Path, opponent: str, rounds: int, jobs: int) -> dict[str, object]:
    """``pasur match`` of the trained policy against ``opponent``; its JSON report."""
    bot = f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'ppo_bot.py'))} {shlex.quote(str(model_path))}"
    command = [sys.executable, "-m", "pasur", "match", bot, opponent, "--rounds", str(rounds)]
    command += ["--jobs", str(jobs), "--json", "--move-time", "60"]
    finished = subprocess.run(command, capture_output=True, text=True, check=True)
    report: dict[str, object] = json.loads(finished.stdout)
    return report


def signed(value: float | None) -> str:
    """A figure of the report; its intervals are open (None) when there are too few deals."""
    return "?" if value is None else f"{value:+.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=300_000, help="environment steps to train (default 300,000)")
    parser.add_argument("--opponent", default="greedy", help="the bot to train against (default greedy)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("ppo-pasur.zip"), help="where to save the policy")
    parser.add_argument("--rounds", type=int, default=400, help="deals per measuring match (default 400)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the matches")
    args = parser.parse_args()
    train(args.steps, args.opponent, args.seed, args.out)
    for opponent in ("random", "greedy"):
        report = measure(args.out, opponent, args.rounds, args.jobs)
        ppo = report["bots"][0]  # type: ignore[index]
        low, high = (signed(bound) for bound in ppo["ci95"])
        print(
            f"ppo vs {opponent}: {signed(ppo['points_per_round'])} points per round [{low}, {high}], "
            f"match wins {ppo['win_rate']:.3f}, {ppo['rounds']} rounds, faults {ppo['faults']}",
            flush=True,
        )
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()

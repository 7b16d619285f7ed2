"""Reproduce the ladder in docs/STRENGTH.md: every level against the next at its default settings
on duplicate deals, then the cheat ``omniscient`` against the top two, with each bot's time a move.

    .venv/bin/python benchmarks/strength.py [--rounds 2000] [--search-rounds 400] [--seed 3] [--jobs 2]
    .venv/bin/python benchmarks/strength.py --ratings-only     # the levels' ratings from the stored reports

Pairings with ``ismcts`` (about 0.1 s a move) play ``--search-rounds`` deals, the others
``--rounds``. Prints the Markdown table and writes every match's JSON report to docs/strength/,
then each level's rating (``beginner`` anchored at 800, each level above it by the Elo of its
step) to src/pasur/server/bot-ratings.json, which the server reads.
About an hour on two cores with the defaults.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from pasur.arena import Plan, run
from pasur.bench import bot_speed
from pasur.bots import LEVELS
from pasur.core import Rules

#: Each level against the one below it, then the cheat against the top two.
LADDER = [
    ("easy", "beginner"),
    ("medium", "easy"),
    ("hard", "medium"),
    ("master", "hard"),
    ("grandmaster", "master"),
    ("omniscient", "grandmaster"),
    ("omniscient", "master"),
]
#: Bots slow enough that their pairings play fewer deals.
SLOW = {"ismcts"}
#: The rating the ladder is anchored at: the weakest level's, on the scale people are rated on.
ANCHOR = ("beginner", 800)
#: Where the server reads each level's rating.
RATINGS = Path(__file__).parent.parent / "src" / "pasur" / "server" / "bot-ratings.json"


def measure(first: str, second: str, rounds: int, seed: int, jobs: int, out: Path) -> dict[str, Any]:
    start = time.time()
    tally, _ = run(Plan((first, second), Rules(), rounds=rounds, seed=seed), jobs=jobs)
    report = tally.report()
    report["seconds"] = round(time.time() - start)
    name = f"{first}-vs-{second}-{rounds}-seed{seed}"
    (out / f"{name}.json").write_text(json.dumps(report, indent=1) + "\n")
    return report


def row(report: dict[str, Any], levels: tuple[str, str], ms: dict[str, float]) -> str:
    """A table row; ``ms`` is each level's median time a move (none for the cheat, which sees the
    whole round and so is not timed by `pasur bench`)."""
    first = report["bots"][0]
    low, high = first["ci95"]
    elo = report["elo"]
    named = [f"{level} ({LEVELS.get(level, level)})" for level in levels]
    return (
        f"| {named[0]} | {named[1]} | {report['rounds']:.0f} | {first['points_per_round']:+.2f} "
        f"| [{low:+.2f}, {high:+.2f}] | {first['win_rate']:.3f} | {elo['diff']:+.0f} "
        f"[{elo['ci95'][0]:+.0f}, {elo['ci95'][1]:+.0f}] | {ms.get(levels[0], '—')} | {report['seconds']} |"
    )


def bot_ratings(out: Path, seed: int) -> dict[str, Any]:
    """Each level's rating from the ladder's reports in ``out``: the anchor's, plus the Elo
    difference (from match wins) of every step up the ladder to it."""
    rating = {ANCHOR[0]: float(ANCHOR[1])}
    steps = []
    for upper, lower in LADDER:
        if upper not in LEVELS or lower not in rating:
            continue
        (found,) = out.glob(f"{upper}-vs-{lower}-*-seed{seed}.json")
        elo = json.loads(found.read_text())["elo"]
        rating[upper] = rating[lower] + elo["diff"]
        steps.append({"level": upper, "over": lower, "elo": elo["diff"], "ci95": elo["ci95"], "report": found.name})
    return {
        "anchor": {ANCHOR[0]: ANCHOR[1]},
        "ratings": {level: round(value) for level, value in rating.items()},
        "steps": steps,
    }


def write_ratings(out: Path, seed: int) -> None:
    table = bot_ratings(out, seed)
    RATINGS.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {RATINGS.name}: {table['ratings']}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--search-rounds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ratings-only", action="store_true", help="write the levels' ratings from the stored reports")
    args = parser.parse_args()
    out = Path(__file__).parent.parent / "docs" / "strength"
    out.mkdir(parents=True, exist_ok=True)
    if args.ratings_only:
        write_ratings(out, args.seed)
        return
    levels = {level for pair in LADDER for level in pair if level in LEVELS}
    ms = {level: bot_speed(LEVELS[level], 48)["median_ms"] for level in sorted(levels)}
    rows = {}
    for first, second in sorted(LADDER, key=lambda pair: pair != ("grandmaster", "master")):  # the top first
        slow = {LEVELS.get(first, first), LEVELS.get(second, second)} & SLOW
        rounds = args.search_rounds if slow else args.rounds
        rows[first, second] = row(measure(first, second, rounds, args.seed, args.jobs, out), (first, second), ms)
        print(rows[first, second], flush=True)
    print("\n| bot | against | deals | points/round | 95% interval | match wins | Elo [95%] | ms a move | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for pair in LADDER:
        print(rows[pair])
    write_ratings(out, args.seed)


if __name__ == "__main__":
    main()

"""Reproduce the ladder in docs/STRENGTH.md: every level against the next at its default settings
on duplicate deals, then the cheat ``omniscient`` against the top two, with each bot's time a move.

    .venv/bin/python benchmarks/strength.py [--rounds 2000] [--search-rounds 400] [--seed 3] [--jobs 2]
    .venv/bin/python benchmarks/strength.py --ratings-only     # the levels' ratings from the stored reports
    .venv/bin/python benchmarks/strength.py --table 3 --steps grandmaster-master,easy-beginner --rounds 1000

``--table`` plays the ladder at another table: ``3`` players (the upper level in one seat, the
lower in two, rotated round the seats), ``4`` in partnership or ``4-each`` each for themselves
(two seats each); its reports are named with the table (``…-seed3-3p.json``) and the cheat's steps
are left out. ``--steps`` plays only the steps named (``upper-lower``).

Pairings with ``ismcts`` (about 0.1 s a move) play ``--search-rounds`` deals, the others
``--rounds``. Prints the Markdown table and writes every match's JSON report to docs/strength/,
then each level's rating at each rated table (two players, three, four in partnership or each
for themselves) whose ladder is complete (``beginner`` anchored at 800, each level above it by the
Elo of its step, per seat of a side) to src/pasur/server/bot-ratings.json, which the server reads.
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
from pasur.core.rules import TABLES as RULES_AT
from pasur.server.bots import RATED_TABLES  # the tables people are rated at: the server rates its bots there
from pasur.server.ratings import match_wins_elo

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
#: The tables the ladder can be played at, and how their reports are named.
TABLES = {name: (rules, "" if name == "2" else f"-{rules.table_tag}") for name, rules in RULES_AT.items()}
#: Where the server reads each level's rating.
RATINGS = Path(__file__).parent.parent / "src" / "pasur" / "server" / "bot-ratings.json"


def measure(first: str, second: str, rounds: int, seed: int, jobs: int, out: Path, table: str = "2") -> dict[str, Any]:
    """One step of the ladder: ``first`` against ``second`` on duplicate deals; its report, written
    to ``out``."""
    rules, suffix = TABLES[table]
    specs = (first, second, second) if rules.players == 3 else (first, second)  # at four, two seats each
    start = time.time()
    tally, _ = run(Plan(specs, rules, rounds=rounds, seed=seed), jobs=jobs)
    report = tally.report()
    report["seconds"] = round(time.time() - start)
    name = f"{first}-vs-{second}-{rounds}-seed{seed}{suffix}"
    (out / f"{name}.json").write_text(json.dumps(report, indent=1) + "\n")
    return report


def row(report: dict[str, Any], levels: tuple[str, str], ms: dict[str, float]) -> str:
    """A table row; ``ms`` is each level's median time a move (none for the cheat, which sees the
    whole round and so is not timed by `pasur bench`)."""
    first = report["bots"][0]
    low, high = first["ci95"]
    elo = report.get("elo")  # two bots only
    elo_cell = f"{elo['diff']:+.0f} [{elo['ci95'][0]:+.0f}, {elo['ci95'][1]:+.0f}]" if elo else "—"
    named = [f"{level} ({LEVELS.get(level, level)})" for level in levels]
    return (
        f"| {named[0]} | {named[1]} | {report['rounds']:.0f} | {first['points_per_round']:+.2f} "
        f"| [{low:+.2f}, {high:+.2f}] | {first['win_rate']:.3f} | {elo_cell} "
        f"| {ms.get(levels[0], '—')} | {report['seconds']} |"
    )


def ladder_report(out: Path, upper: str, lower: str, seed: int, table: str) -> Path | None:
    """The stored report of one step at ``table`` (the one of most deals, if several), or None."""
    suffix = TABLES[table][1]
    found = out.glob(f"{upper}-vs-{lower}-*-seed{seed}{suffix}.json")
    return max(found, key=lambda path: json.loads(path.read_text())["rounds"], default=None)


def bot_ratings(out: Path, seed: int, table: str = "2") -> dict[str, Any] | None:
    """Each level's rating at ``table`` from the ladder's reports in ``out``: the anchor's, plus the
    Elo difference (from match wins) of every step up the ladder to it, shared by the seats of a
    side (the rating model gives a side the sum of its players' ratings, so a side of two bots one
    level up is two seats' differences ahead). None while a step has no report at that table."""
    rules = TABLES[table][0]
    seats = rules.players // rules.sides
    rating = {ANCHOR[0]: float(ANCHOR[1])}
    steps = []
    for upper, lower in LADDER:
        if upper not in LEVELS or lower not in rating:
            continue
        found = ladder_report(out, upper, lower, seed, table)
        if found is None:
            return None
        elo, ci95 = step_elo(json.loads(found.read_text()), rules)
        rating[upper] = rating[lower] + elo / seats
        steps.append({"level": upper, "over": lower, "elo": elo, "ci95": ci95, "report": found.name})
    return {"seats": seats, "ratings": {level: round(value) for level, value in rating.items()}, "steps": steps}


def upper_seats(rules: Rules) -> int:
    """The seats the upper level of a step sits in: one at three players (against the lower in two),
    else half the table."""
    return 1 if rules.players == 3 else rules.players // 2


def step_elo(report: dict[str, Any], rules: Rules) -> tuple[float, list[float]]:
    """A step's Elo difference and its 95% interval: with two sides the report's (from match wins),
    with more (each playing alone) the upper level's share of match wins, over its seats, as the
    rating model reads a match of that many (`match_wins_elo`)."""
    if rules.sides == 2:
        return report["elo"]["diff"], report["elo"]["ci95"]
    upper, seats = report["bots"][0], upper_seats(rules)
    return round(match_wins_elo(upper["win_rate"], rules.sides, seats), 4), [
        round(match_wins_elo(bound, rules.sides, seats), 4) for bound in upper["win_rate_ci95"]
    ]


def write_ratings(out: Path, seed: int) -> None:
    """The levels' ratings at each rated table whose ladder is measured, for the server."""
    tables = {}
    for table in RATED_TABLES:
        found = bot_ratings(out, seed, table)
        if found is None:
            print(f"the ladder at table {table} misses a step: the server rates its bots as at 2 players")
            continue
        tables[table] = found
        print(f"table {table}: {found['ratings']}")
    RATINGS.write_text(json.dumps({"anchor": dict([ANCHOR]), "tables": tables}, indent=1) + "\n")
    print(f"wrote {RATINGS.name}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--search-rounds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ratings-only", action="store_true", help="write the levels' ratings from the stored reports")
    parser.add_argument("--table", choices=sorted(TABLES), default="2", help="the table the ladder is played at")
    parser.add_argument("--steps", default="", help="only these steps, as upper-lower,upper-lower")
    args = parser.parse_args()
    out = Path(__file__).parent.parent / "docs" / "strength"
    out.mkdir(parents=True, exist_ok=True)
    if args.ratings_only:
        write_ratings(out, args.seed)
        return
    ladder = [pair for pair in LADDER if args.table == "2" or "omniscient" not in pair]
    if args.steps:
        named = {tuple(step.split("-", 1)) for step in args.steps.split(",")}
        ladder = [pair for pair in ladder if pair in named]
    levels = {level for pair in ladder for level in pair if level in LEVELS}
    ms = {level: bot_speed(LEVELS[level], 48, rules=TABLES[args.table][0])["median_ms"] for level in sorted(levels)}
    rows = {}
    for first, second in sorted(ladder, key=lambda pair: pair != ("grandmaster", "master")):  # the top first
        slow = {LEVELS.get(first, first), LEVELS.get(second, second)} & SLOW
        rounds = args.search_rounds if slow else args.rounds
        report = measure(first, second, rounds, args.seed, args.jobs, out, args.table)
        rows[first, second] = row(report, (first, second), ms)
        print(rows[first, second], flush=True)
    print("\n| bot | against | deals | points/round | 95% interval | match wins | Elo [95%] | ms a move | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for pair in ladder:
        print(rows[pair])
    if args.table in RATED_TABLES:
        write_ratings(out, args.seed)


if __name__ == "__main__":
    main()

"""OpenSpiel's ``random_sim_test`` on ``python_pasur`` for every combination of the rules options
that change how a round is played, with 2, 3 and 4 players, over all cores.

    .venv/bin/python scripts/openspiel_sims.py --sims 300

The test suite runs 300 simulations for each player count under the default rules, 30 for a set
of mixed options, and every dealing option through the chance node; this is the full sweep.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import sys
import time

SWITCHES = ("sur_cancel", "sur_in_last_deal", "compulsory_capture", "bury_table_jack", "redeal_on_faces")


def games() -> list[str]:
    """Every game string of the sweep."""
    names = []
    for players in (2, 3, 4):
        partnerships = (True, False) if players == 4 else (True,)
        for partnership, haft_khaj, cutoff, *switches in itertools.product(
            partnerships, ("seven", "most"), (50, -1), *[(True, False)] * len(SWITCHES)
        ):
            options = {"players": players, "partnership": partnership, "haft_khaj": haft_khaj, "sur_cutoff": cutoff}
            options.update(zip(SWITCHES, switches, strict=True))
            shown = ",".join(f"{key}={str(value).lower()}" for key, value in options.items())
            names.append(f"python_pasur({shown})")
    return names


def simulate(job: tuple[str, int]) -> tuple[str, str | None]:
    """One game's simulations: its name, and what failed (None: they all passed)."""
    import pyspiel

    import pasur.envs.openspiel  # noqa: F401 - registers python_pasur

    name, sims = job
    try:
        pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=False, verbose=False)
    except Exception as error:  # reported, and the sweep goes on
        return name, f"{type(error).__name__}: {error}"
    return name, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sims", type=int, default=300, help="simulations for each combination")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes [all cores]")
    args = parser.parse_args()
    jobs = [(name, args.sims) for name in games()]
    started = time.perf_counter()
    failures = []
    with multiprocessing.Pool(args.jobs) as pool:
        for done, (name, failure) in enumerate(pool.imap_unordered(simulate, jobs), start=1):
            if failure:
                failures.append((name, failure))
                print(f"FAILED {name}: {failure}", flush=True)
            if done % 20 == 0:
                print(f"{done}/{len(jobs)} combinations", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - started
    print(f"{len(jobs) - len(failures)} passed, {len(failures)} failed ({args.sims} simulations each, {seconds:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

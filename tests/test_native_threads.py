"""The native core owns no state: its calls from many threads at once give exactly what one thread
alone gives, a workspace serves one call at a time, the long calls let other threads run, and the C
sources keep nothing in mutable statics. Also: the observation offsets in C are encoding.py's."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pasur import Round, Rules, deal_deck
from pasur.core import native
from pasur.core.solver import Sampling, sampled_values, solve

if not native.available():
    pytest.skip("the native core was not built (or PASUR_ENGINE=python)", allow_module_level=True)

THREADS = 4
CORE = Path(native.__file__).parent


def at_once(call: Callable[[], Any]) -> list[Any]:
    """``call`` in THREADS threads started together; their results."""
    start = threading.Barrier(THREADS)
    results: list[Any] = [None] * THREADS
    errors: list[BaseException] = []

    def run(index: int) -> None:
        start.wait()
        try:
            results[index] = call()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return results


def a_round(seed: int, players: int = 2, moves: int = 0) -> Round:
    rules = Rules(players=players)
    game = Round(rules, deal_deck(random.Random(seed), rules), check_deck=False)
    for _ in range(moves):
        game.play_code(game.legal_codes()[0])
    return game


def test_random_rounds_from_four_threads_equal_one_thread():
    game = a_round(7)
    alone = native.random_round_moves(game, 7, 20_000)
    for _ in range(3):
        assert at_once(lambda: native.random_round_moves(game, 7, 20_000)) == [alone] * THREADS


def test_the_solver_from_four_threads_equals_one_thread():
    positions = [a_round(seed, moves=seed % 5) for seed in range(6)]

    def solve_all() -> list[tuple[int, tuple[Any, ...], tuple[str, ...]]]:
        return [(found.value, found.moves, found.line) for found in map(solve, positions)]

    alone = solve_all()
    assert at_once(solve_all) == [alone] * THREADS


def test_sampled_deals_from_four_threads_equal_one_thread():
    game = a_round(3, moves=3)  # the others' plays weigh the deals
    from pasur.bots.solver_bot import deal_plays

    evidence, contexts = deal_plays(game.view(game.turn))
    assert evidence
    samplings = [
        Sampling(deal_only=True, evidence=tuple(evidence), temper=2.0, contexts=tuple(contexts)),
        Sampling(deal_only=True, evidence=tuple(evidence), temper=2.0, gift=1.0),
        Sampling(table_mb=1),
    ]

    def sample_all() -> list[Any]:
        return [sampled_values(game, 24, 5, sampling) for sampling in samplings]

    alone = sample_all()
    assert at_once(sample_all) == [alone] * THREADS


def test_minimax_and_the_legal_moves_from_four_threads_equal_one_thread():
    near_end = a_round(2, moves=40)
    tables = [a_round(seed, moves=seed % 7) for seed in range(20)]

    def both() -> tuple[Any, list[list[int]]]:
        moves = [native.hand_moves(game.hands[game.turn], game.table, True) for game in tables]
        return native.minimax(near_end, False, 0), moves

    alone = both()
    assert at_once(both) == [alone] * THREADS


def test_vector_environments_stepped_from_four_threads_equal_one_thread():
    np = pytest.importorskip("numpy")
    from pasur.envs.vector import PasurVectorEnv

    def episodes() -> list[Any]:
        env = PasurVectorEnv(num_envs=8, opponents="greedy")
        observed, _ = env.reset(seed=11)
        rng = random.Random(3)
        rewards = []
        for _ in range(60):
            # an episode that ended shows no legal action: its next step starts it again
            legal = [np.flatnonzero(mask).tolist() or [0] for mask in observed["action_mask"]]
            actions = np.array([rng.choice(choices) for choices in legal])
            observed, reward, *_ = env.step(actions)
            rewards.append(reward.tolist())
        return [rewards, observed["observation"].tolist()]

    alone = episodes()
    assert at_once(episodes) == [alone] * THREADS


def test_a_workspace_serves_one_call_at_a_time():
    workspace = native._core().Workspace()
    fields = a_round(1).native_fields()
    refused: list[str] = []
    long_call = threading.Thread(target=workspace.random_rounds, args=(fields, 1, 300_000))
    long_call.start()
    while long_call.is_alive() and not refused:
        try:
            workspace.hand_moves(1, 2, True)
        except RuntimeError as error:
            refused.append(str(error))
    long_call.join()
    assert refused and "another call" in refused[0]
    assert workspace.hand_moves(1, 0, True) == [0]  # free again once the long call is over


def test_a_long_native_call_lets_other_threads_run():
    """While random rounds are played in one thread, the main thread goes on running Python (the
    GIL is released); holding it, the loop below could not count until the call ended."""
    fields = a_round(1).native_fields()
    workspace = native._core().Workspace()
    long_call = threading.Thread(target=workspace.random_rounds, args=(fields, 1, 300_000))
    counted = 0
    long_call.start()
    while long_call.is_alive():
        counted += 1
    long_call.join()
    assert counted > 1000


def test_the_native_sources_keep_no_mutable_statics():
    """No file-level or function-level ``static`` data but constants and the module's own tables
    (its methods, its type and its definition), in every source the Python extension is built from
    (_wasm.c, the browser's engine, is not: a WebAssembly instance runs on one thread, each worker
    with its own, and holds its one match in its own memory)."""
    allowed = re.compile(r"static (const |PyMethodDef |PyTypeObject |struct PyModuleDef )")
    found = []
    for source in sorted(path for path in CORE.glob("_*.[ch]") if path.name != "_wasm.c"):
        for number, line in enumerate(source.read_text().splitlines(), 1):
            stripped = line.strip()
            if not stripped.startswith("static ") or allowed.match(stripped):
                continue
            # a function: its name is followed by its parameters
            if re.match(r"static (inline )?[\w\s\*]+?\b\w+\(", stripped):
                continue
            found.append(f"{source.name}:{number}: {stripped}")
    assert not found, found


def test_the_observation_offsets_in_c_are_those_of_encoding():
    encoding = pytest.importorskip("pasur.envs.encoding")
    layout = native._core().observation_layout()
    assert len(layout) >= 19
    for name, value in layout.items():
        assert getattr(encoding, name) == value, name

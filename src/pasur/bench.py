"""Throughput measurements behind ``pasur bench``."""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from .bots import make_bot
from .core import Match, Round, Rules, deal_deck, native, replay_record, to_record
from .core.solver import Solution, solve


def random_rounds_per_second(seconds: float = 2.0, seed: int = 1, rules: Rules | None = None) -> float:
    """Complete rounds per second with uniformly random legal moves, on this core."""
    rules = rules or Rules()
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    while True:
        Round(rules, deal_deck(rng, rules), check_deck=False).play_random(rng)
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def native_rounds_per_second(seconds: float = 2.0, seed: int = 1, rules: Rules | None = None) -> tuple[float, float]:
    """Complete random rounds per second in the native core (1,000 playouts from each fresh deal),
    and its nanoseconds a move; ValueError when it was not built."""
    if not native.available():
        raise ValueError("the native core was not built")
    rules = rules or Rules()
    rng = random.Random(seed)
    rounds = moves = 0
    start = time.perf_counter()
    while True:
        moves += native.random_round_moves(
            Round(rules, deal_deck(rng, rules), check_deck=False), rng.getrandbits(64), 1000
        )
        rounds += 1000
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return rounds / elapsed, elapsed / moves * 1e9


def random_match(rules: Rules, seed: int) -> Match:
    """A whole match played with uniformly random legal moves."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    while not match.over:
        codes = match.rounds[-1].legal_codes()
        match.play_code(codes[rng.randrange(len(codes))])
    return match


def replay_throughput(records: int = 200, seed: int = 1, rules: Rules | None = None) -> dict[str, float]:
    """Records and moves replayed (parsed from JSON, checked, scored) per second."""
    rules = rules or Rules()
    lines = [json.dumps(to_record(random_match(rules, seed + index))) for index in range(records)]
    moves = sum(line.count('"card"') for line in lines)
    start = time.perf_counter()
    for line in lines:
        result = replay_record(json.loads(line))
        if "error" in result:
            raise RuntimeError(f"a generated record did not replay: {result}")
    elapsed = time.perf_counter() - start
    return {"records_per_second": records / elapsed, "moves_per_second": moves / elapsed}


def decision_times(spec: str, positions: int, seed: int = 1, rules: Rules | None = None) -> list[float]:
    """Seconds the bot ``spec`` took at each of ``positions`` positions met in random play
    (2 players unless ``rules`` say otherwise)."""
    rules = rules or Rules()
    rng = random.Random(seed)
    bot = make_bot(spec, seed=seed)
    times: list[float] = []
    while len(times) < positions:
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        while not game.over and len(times) < positions:
            view, legal = game.view(game.turn), game.legal_moves()
            start = time.perf_counter()
            bot.choose(view, legal)
            times.append(time.perf_counter() - start)
            codes = game.legal_codes()
            game.play_code(codes[rng.randrange(len(codes))])
    return times


def can_make(spec: str) -> bool:
    """Whether this install has what the bot needs (``net`` needs NumPy, its extra)."""
    try:
        make_bot(spec)
    except ImportError:
        return False
    return True


def bot_speed(spec: str, positions: int, seed: int = 1, rules: Rules | None = None) -> dict[str, float]:
    """Median milliseconds per decision, and decisions per second, over positions met in
    random play (2 players unless ``rules`` say otherwise)."""
    times = decision_times(spec, positions, seed, rules)
    return {
        "median_ms": round(1000 * statistics.median(times), 3),
        "decisions_per_second": round(len(times) / sum(times), 1),
    }


#: How ``pasur bench`` drives the engine, to set the environment against: its int fast path
#: (``legal_codes``, ``play_code``); the same with the mover's view read first (``masks``), as an
#: agent must; and the checked Move API (``legal_moves``, ``play``).
ENGINE_LOOPS = ("playout", "with_view", "checked")


def engine_moves(moves: int, seed: int, loop: str, players: int) -> float:
    """Seconds of CPU for ``moves`` random legal moves through the engine, new rounds as needed."""
    rng = random.Random(seed)
    rules = Rules(players=players)
    played = 0
    start = time.process_time()
    while played < moves:
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        while not game.over and played < moves:
            if loop == "checked":
                legal = game.legal_moves()
                game.play(legal[rng.randrange(len(legal))])
            else:
                if loop == "with_view":
                    game.masks(game.turn)
                codes = game.legal_codes()
                game.play_code(codes[rng.randrange(len(codes))])
            played += 1
    return time.process_time() - start


def environment_moves(steps: int, seed: int, players: int) -> tuple[float, int]:
    """Seconds of CPU for ``steps`` random legal actions through the PettingZoo environment as
    ``env()`` hands it out (observe, then step, as an agent's loop does), and the moves they made."""
    from .envs.pettingzoo import env

    rng = random.Random(seed)
    environment = env(players=players)
    environment.reset(seed=seed)
    finished = 0  # moves in the rounds already over
    start = time.process_time()
    for _ in range(steps):
        agent = environment.agent_selection
        if environment.terminations[agent]:
            finished += len(environment.game.history)
            environment.reset()
            agent = environment.agent_selection
        allowed = environment.observe(agent)["action_mask"].nonzero()[0]
        environment.step(int(allowed[rng.randrange(len(allowed))]))
    elapsed = time.process_time() - start
    return elapsed, finished + len(environment.game.history)


def environment_steps_per_second(seconds: float = 2.0, seed: int = 1, players: int = 2) -> dict[str, float] | None:
    """The PettingZoo environment against the raw engine, all playing uniformly random legal
    moves (interleaved, best of several, to calm a noisy machine); None without the ``rl`` extra."""
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        return None
    count = 5000
    engine = dict.fromkeys(ENGINE_LOOPS, float("inf"))
    per_move = float("inf")
    steps_per_move = 1.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or per_move == float("inf"):
        for loop in ENGINE_LOOPS:
            engine[loop] = min(engine[loop], engine_moves(count, seed, loop, players) / count)
        elapsed, moves = environment_moves(count, seed, players)
        per_move = min(per_move, elapsed / moves)
        steps_per_move = count / moves
    figures: dict[str, float] = {
        "steps_per_second": round(steps_per_move / per_move),
        "moves_per_second": round(1 / per_move),
    }
    for loop in ENGINE_LOOPS:
        figures[f"engine_{loop}_moves_per_second"] = round(1 / engine[loop])
        figures[f"cost_per_{loop}_move"] = round(per_move / engine[loop], 2)
    return figures


def solve_deals(
    deals: int, seed: int = 1, rules: Rules | None = None, plays: tuple[int, int] = (0, 0)
) -> list[Solution]:
    """Exact solutions of ``deals`` random deals, each after a number of random plays drawn from
    ``plays`` (0: from the first move); SolveError without the native core."""
    rules = rules or Rules()
    rng = random.Random(seed)
    solutions = []
    for _ in range(deals):
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        for _ in range(rng.randint(*plays)):
            codes = game.legal_codes()
            game.play_code(codes[rng.randrange(len(codes))])
        solutions.append(solve(game))
    return solutions


def solver_figures(solutions: list[Solution]) -> dict[str, float]:
    """Time and nodes of many solutions: median, 95th percentile and largest."""
    times = sorted(solution.seconds * 1000 for solution in solutions)
    nodes = sorted(solution.nodes for solution in solutions)
    return {
        "positions": len(solutions),
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[min(len(times) - 1, int(0.95 * len(times)))], 3),
        "max_ms": round(times[-1], 3),
        "median_nodes": statistics.median(nodes),
        "max_nodes": nodes[-1],
        "nodes_per_second": round(sum(nodes) / (sum(times) / 1000)),
    }


def vector_env_figures(seconds: float = 2.0, seed: int = 1, num_envs: int = 64) -> dict[str, float] | None:
    """Steps per second of the Gymnasium environment (``greedy`` opponents) and of the native
    vector environment of ``num_envs`` episodes, each agent playing uniformly random legal
    actions; None without the ``rl`` extra or the native core."""
    try:
        import numpy as np

        from .envs.gymnasium import PasurEnv
        from .envs.vector import PasurVectorEnv
    except ImportError:
        return None
    if not native.available():
        return None
    rng = np.random.default_rng(seed)
    single = PasurEnv(opponents="greedy")
    observation, _ = single.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        allowed = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, _, _ = single.step(allowed[rng.integers(len(allowed))])
        if terminated:
            observation, _ = single.reset()
        steps += 1
    single_rate = steps / (time.perf_counter() - start)
    batch = PasurVectorEnv(num_envs, opponents="greedy")
    observations, _ = batch.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        # a random legal action a row: the largest of random numbers where the mask allows
        actions = (observations["action_mask"] * rng.random((num_envs, observations["action_mask"].shape[1]))).argmax(1)
        observations, *_ = batch.step(actions)
        steps += num_envs
    vector_rate = steps / (time.perf_counter() - start)
    return {
        "num_envs": num_envs,
        "single_steps_per_second": round(single_rate),
        "vector_steps_per_second": round(vector_rate),
        "speedup": round(vector_rate / single_rate, 1),
    }


#: The bots ``pasur bench`` times, with how many decisions each.
BENCH_BOTS = {"random": 2000, "greedy": 2000, "expert": 1000, "net": 1000, "ismcts": 48, "pimc": 48, "solver": 48}
#: How many whole 2-player deals ``pasur bench`` solves from the first move.
BENCH_SOLVER_DEALS = 40


def run(seconds: float = 2.0, records: int = 200, bots: bool = True, env_players: int = 2) -> dict[str, Any]:
    """Every figure ``pasur bench`` prints; the environment is timed with ``env_players`` players."""
    replay = replay_throughput(records)
    python_rounds = random_rounds_per_second(seconds)
    figures: dict[str, Any] = {"engine": native.ENGINE, "python_rounds_per_second": round(python_rounds)}
    if native.available():
        native_rounds, nanoseconds = native_rounds_per_second(seconds)
        figures |= {"native_rounds_per_second": round(native_rounds), "native_ns_per_move": round(nanoseconds, 1)}
    figures |= {
        "rounds_per_second": figures.get("native_rounds_per_second", figures["python_rounds_per_second"]),
        "replay_records_per_second": round(replay["records_per_second"]),
        "replay_moves_per_second": round(replay["moves_per_second"]),
    }
    if native.available():
        figures["solver"] = solver_figures(solve_deals(BENCH_SOLVER_DEALS))
    if bots:
        figures["bots"] = {spec: bot_speed(spec, count) for spec, count in BENCH_BOTS.items() if can_make(spec)}
    vector = vector_env_figures(seconds)
    if vector is not None:
        figures["vector_env"] = vector
    environment = environment_steps_per_second(seconds, players=env_players)
    if environment is not None:
        figures["pettingzoo"] = environment
    return figures

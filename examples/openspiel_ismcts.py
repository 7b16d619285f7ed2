"""OpenSpiel's ISMCTS bot playing Pasur (``python_pasur``) against a random player.

.venv/bin/python examples/openspiel_ismcts.py [--games 4] [--simulations 100]
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import pasur.envs.openspiel  # noqa: F401 - registers python_pasur


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100)
    args = parser.parse_args()
    game = pyspiel.load_game("python_pasur")
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.simulations, random_state=rng)
    returns = []
    for number in range(args.games):
        state = game.new_initial_state()
        searcher = number % 2  # the ISMCTS bot takes seat 0, then seat 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            elif state.current_player() == searcher:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns.append(state.returns()[searcher])
        print(f"game {number + 1}: ISMCTS as seat {searcher}: {returns[-1]:+.0f} points against random")
    print(f"mean: {np.mean(returns):+.2f} points per round")


if __name__ == "__main__":
    main()

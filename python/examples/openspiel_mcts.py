"""OpenSpiel's MCTS (random rollouts) against a random player, on tafl through OpenSpiel.

    python examples/openspiel_mcts.py [rules] [games] [simulations]

The game is a Python game: every rollout move crosses from OpenSpiel's C++ into Python and
back, so keep to small boards (Brandubh) and a few dozen simulations a move.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

import hnefi.openspiel  # noqa: F401  (registers "python_hnefi_tafl")


def play_game(
    rules: str = "brandubh",
    mcts_player: int = 0,
    simulations: int = 30,
    max_plies: int = 100,
    seed: int = 0,
) -> dict[str, Any]:
    """One game, MCTS playing ``mcts_player`` (0 the attackers, 1 the defenders) with
    ``simulations`` simulations a move. Returns the returns, the moves and the final state."""
    if mcts_player not in (0, 1):
        raise ValueError(
            f"mcts_player must be 0 (the attackers) or 1 (the defenders), not {mcts_player}"
        )
    game = pyspiel.load_game(hnefi.openspiel.SHORT_NAME, {"rules": rules, "max_plies": max_plies})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = {
        mcts_player: mcts.MCTSBot(
            game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng
        ),
        1 - mcts_player: uniform_random.UniformRandomBot(1 - mcts_player, rng),
    }
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        moves.append(state.action_to_string(player, action))
        state.apply_action(action)
    return {"returns": state.returns(), "moves": moves, "state": state}


def main() -> None:
    rules = sys.argv[1] if len(sys.argv) > 1 else "brandubh"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    simulations = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    wins = 0
    for i in range(games):
        player = i % 2
        result = play_game(rules, mcts_player=player, simulations=simulations, seed=i)
        won = result["returns"][player] > 0
        wins += won
        side = hnefi.openspiel.PLAYERS[player]
        print(f"game {i + 1}: MCTS as the {side}, {len(result['moves'])} plies, "
              f"{'won' if won else 'did not win'}: {' '.join(result['moves'])}")
    print(f"MCTS won {wins} of {games}")


if __name__ == "__main__":
    main()

"""Hnefi's engine as one agent of the PettingZoo environment, a random player as the other.

    python examples/pettingzoo_engine.py [rules] [games]

``play_game`` is the loop an agent written for PettingZoo's classic games runs: it sees only
``env.last()``; the engine, which needs the position, reads it from ``env.unwrapped.game``.
"""

from __future__ import annotations

import sys
from typing import Any, Optional

import numpy as np

import hnefi
import hnefi.pettingzoo


def play_game(
    rules: str = "brandubh",
    engine_side: str = "attackers",
    nodes: int = 2000,
    max_plies: Optional[int] = 200,
    seed: int = 0,
    stop_after: Optional[int] = None,
) -> dict[str, Any]:
    """One game, the engine (searching ``nodes`` nodes a move) playing ``engine_side``. Ends
    after ``stop_after`` plies when given. Returns each agent's total reward, the plies played
    and the game's end (``infos`` of the last step, empty if it was stopped)."""
    if engine_side not in hnefi.pettingzoo.AGENTS:
        raise ValueError(f"engine_side {engine_side!r} is neither 'attackers' nor 'defenders'")
    env = hnefi.pettingzoo.env(rules=rules, max_plies=max_plies)
    env.reset(seed=seed)
    engine = hnefi.Engine()
    rng = np.random.default_rng(seed)
    totals = {agent: 0.0 for agent in env.possible_agents}
    end: dict[str, Any] = {}
    plies = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += float(reward)
        action: Optional[int]
        if termination or truncation:
            action, end = None, info
        elif stop_after is not None and plies >= stop_after:
            break
        elif agent == engine_side:
            game = env.unwrapped.game
            best = engine.analyse(game, nodes=nodes).best
            assert best is not None, "the engine found no move in a game that goes on"
            action = game.action(best)
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        plies += action is not None
    env.close()
    return {"rewards": totals, "plies": plies, "end": end}


def main() -> None:
    rules = sys.argv[1] if len(sys.argv) > 1 else "brandubh"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    for i in range(games):
        side = hnefi.pettingzoo.AGENTS[i % 2]
        result = play_game(rules, engine_side=side, seed=i)
        print(f"game {i + 1}: engine as the {side}, {result['plies']} plies, "
              f"{result['end'].get('reason')}, rewards {result['rewards']}")


if __name__ == "__main__":
    main()

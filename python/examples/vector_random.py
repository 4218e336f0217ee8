"""Random legal play across a Gymnasium vector env of TaflEnv, the action mask done right.

    python python/examples/vector_random.py [--envs 8] [--steps 500] [--rules brandubh]

Gymnasium 1.x vector envs reset a finished sub-env on the *next* step (``autoreset_mode``
"NextStep", the default): the step that ends an episode returns its last observation, and
its mask is all False when the game is over (nothing may be played). The following step
ignores that env's action and returns the new episode's first observation and mask instead.
So an agent must give *some* action for a sub-env whose mask is all False: here, action 0.
In "SameStep" mode the mask returned is already the new episode's, and the rule is harmless.

The envs use ``illegal="raise"``, so that a single illegal action, one that the mask did not
allow, would stop the run with a ValueError rather than quietly lose a game.
"""

from __future__ import annotations

import argparse
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

import hnefi.env  # registers "hnefi/Tafl-v0"


def masked_random_actions(
    masks: npt.NDArray[np.bool_], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """One uniformly random legal action a row of ``masks``, and 0 for a row with none.

    A random key an action, the illegal ones pushed below every legal one: the argmax is a
    uniform choice among the legal actions, and for an all-False row (an env that resets on
    this step and ignores its action) the first action, 0.
    """
    keys = rng.random(masks.shape)
    keys[~masks] = -1.0
    actions: npt.NDArray[np.int64] = keys.argmax(axis=1)
    return actions


def play(
    envs: int = 8,
    steps: int = 500,
    rules: str = "brandubh",
    max_plies: int = 40,
    seed: int = 0,
    autoreset_mode: str = "NextStep",
) -> dict[str, Any]:
    """Plays ``steps`` vector steps; returns the episodes that ended, by how, and the wins."""
    vector = gym.make_vec(
        hnefi.env.ENV_ID,
        num_envs=envs,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gym.vector.AutoresetMode(autoreset_mode)},
        rules=rules,
        max_plies=max_plies,
        illegal="raise",
    )
    rng = np.random.default_rng(seed)
    stats: dict[str, Any] = {"terminated": 0, "truncated": 0, "all_false_masks": 0,
                             "wins": {"attackers": 0, "defenders": 0, None: 0}}
    _, infos = vector.reset(seed=seed)
    for _ in range(steps):
        masks = infos["action_mask"]
        stats["all_false_masks"] += int((~masks.any(axis=1)).sum())
        actions = masked_random_actions(masks, rng)
        _, _, terminated, truncated, infos = vector.step(actions)
        stats["terminated"] += int(terminated.sum())
        stats["truncated"] += int(truncated.sum())
        if autoreset_mode == "NextStep":
            # The terminal step's own info says who won (in "SameStep" mode it is moved to
            # infos["final_info"]).
            for i in np.flatnonzero(terminated):
                stats["wins"][infos["winner"][i]] += 1
    vector.close()
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--rules", default="brandubh")
    parser.add_argument("--max-plies", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--autoreset-mode", default="NextStep", choices=["NextStep", "SameStep"])
    args = parser.parse_args()
    stats = play(args.envs, args.steps, args.rules, args.max_plies, args.seed, args.autoreset_mode)
    print(stats)


if __name__ == "__main__":
    main()

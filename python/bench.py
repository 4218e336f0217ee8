"""Random playouts in Python through hnefi.Game (and hnefi.TaflEnv): plies a second.

    python -P bench.py [--rules copenhagen] [--seconds 5] [--env]

(`-P` keeps this folder off the import path, so that the installed package is imported.)

Single-threaded: one Python loop, so one core whatever the machine (pin it with
`taskset -c 0` to be sure). Prints plies/s, games and their mean length.
"""

from __future__ import annotations

import argparse
import random
import time

import hnefi

try:
    import numpy as np
except ImportError:  # Game alone needs no numpy: the bench of Game runs where it is missing
    np = None  # type: ignore[assignment]


def game_playouts(rules: str, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = hnefi.Game(rules)
        while game.outcome is None:
            game.play(rng.choice(game.legal_moves()))
            plies += 1
        games += 1
    return plies, games, time.perf_counter() - start


def env_playouts(rules: str, seconds: float, rng: "np.random.Generator") -> tuple[int, int, float]:
    env = hnefi.TaflEnv(rules=rules)
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, info = env.reset()
        terminated = False
        while not terminated:
            # An agent's choice among the legal actions, read from the mask as it would be;
            # indexing by `rng.integers`, as `rng.choice` alone costs more than a step.
            legal = np.flatnonzero(info["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            _, _, terminated, _, info = env.step(action)
            plies += 1
        games += 1
    return plies, games, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="copenhagen")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--env", action="store_true", help="through TaflEnv, not Game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cpu = time.process_time()
    if args.env:
        rng = np.random.default_rng(args.seed)
        plies, games, elapsed = env_playouts(args.rules, args.seconds, rng)
    else:
        plies, games, elapsed = game_playouts(args.rules, args.seconds, random.Random(args.seed))
    cpu = time.process_time() - cpu
    via = "TaflEnv" if args.env else "Game"
    # On a shared machine the wall clock counts the time other processes held the core; the
    # process's own CPU time does not, so plies per CPU second is the figure of one core.
    print(f"{args.rules} via {via}: {plies / elapsed:,.0f} plies/s of wall time, "
          f"{plies / cpu:,.0f} per CPU second "
          f"({plies} plies, {games} games of {plies / max(games, 1):.0f} plies, {elapsed:.1f} s)")


if __name__ == "__main__":
    main()

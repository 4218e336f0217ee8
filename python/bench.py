"""Random playouts in Python through hnefi.Game, hnefi.TaflEnv and hnefi.Batch: plies a second.

    python -P bench.py [--rules copenhagen] [--seconds 5] [--via all|game|env|batch|batch-legal]
                       [--games 1024]

(`-P` keeps this folder off the import path, so that the installed package is imported.)

`game` and `env` are one Python loop, so one core whatever the machine. `batch` steps
`--games` games a call, with the batch's own random picks (`Batch.sample`), and
`batch-legal` picks from `Batch.legal_actions()` with numpy, as an agent reading the legal
actions would: both spread the games over every core. Prints plies/s, games and their mean
length.
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


def batch_playouts(
    rules: str, seconds: float, count: int, seed: int, legal: bool
) -> tuple[int, int, float]:
    batch = hnefi.Batch(count, rules=rules, seed=seed)
    rows = np.arange(count)
    rng = np.random.default_rng(seed)
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if legal:
            actions, counts = batch.legal_actions()
            actions = actions[rows, (rng.random(count) * counts).astype(np.int64)]
        else:
            actions = batch.sample()
        _, terminated, truncated = batch.step(actions)
        plies += count
        done = np.flatnonzero(terminated | truncated)
        if len(done):
            games += len(done)
            batch.reset(done)
    return plies, games, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="copenhagen")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument(
        "--via", default="all", choices=["all", "game", "env", "batch", "batch-legal"]
    )
    parser.add_argument("--games", type=int, default=1024, help="games a batch steps at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    vias = ["game", "env", "batch", "batch-legal"] if args.via == "all" else [args.via]
    for via in vias:
        if via != "game" and np is None:
            print(f"{via}: needs numpy")
            continue
        cpu = time.process_time()
        if via == "game":
            plies, games, elapsed = game_playouts(args.rules, args.seconds, random.Random(args.seed))
        elif via == "env":
            try:
                import gymnasium  # noqa: F401
            except ImportError:
                print("TaflEnv: needs gymnasium (pip install hnefi[gym])")
                continue
            rng = np.random.default_rng(args.seed)
            plies, games, elapsed = env_playouts(args.rules, args.seconds, rng)
        else:
            plies, games, elapsed = batch_playouts(
                args.rules, args.seconds, args.games, args.seed, legal=via == "batch-legal"
            )
        cpu = time.process_time() - cpu
        name = {
            "game": "Game",
            "env": "TaflEnv",
            "batch": f"Batch of {args.games}, sample()",
            "batch-legal": f"Batch of {args.games}, legal_actions()",
        }[via]
        # On a shared machine the wall clock counts the time other processes held the cores;
        # the process's own CPU time does not. A batch uses every core: its wall figure is
        # the machine's, its CPU figure one core's.
        print(f"{args.rules} via {name}: {plies / elapsed:,.0f} plies/s of wall time, "
              f"{plies / cpu:,.0f} per CPU second "
              f"({plies} plies, {games} games of {plies / max(games, 1):.0f} plies, "
              f"{elapsed:.1f} s)")


if __name__ == "__main__":
    main()

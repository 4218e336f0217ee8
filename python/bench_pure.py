"""The ratio the README quotes: a simple pure-Python move generator against hnefi's.

    python bench_pure.py [--seconds 2]

Not part of the package, and not a second set of rules: it knows only that pieces move like
rooks, that no piece but the king stops on the throne or a corner, and that pieces other than
the king pass over an empty throne. No captures, no repetition and no game end, so it does
less than `Game.legal_moves()`; each generates the legal moves of the positions of the same
random 11x11 games as "d1-d3" strings.
"""

from __future__ import annotations

import argparse
import random
import time

import hnefi

N = 11
THRONE = (N // 2, N // 2)
CORNERS = {(0, 0), (0, N - 1), (N - 1, 0), (N - 1, N - 1)}


def board_of(fen: str) -> tuple[dict[tuple[int, int], str], str]:
    ranks, side = fen.split()
    board: dict[tuple[int, int], str] = {}
    for r, text in enumerate(ranks.split("/")):
        rank, file, digits = N - 1 - r, 0, ""
        for ch in text + "/":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                file += int(digits)
                digits = ""
            if ch != "/":
                board[(file, rank)] = ch
                file += 1
    return board, side


def pure_moves(board: dict[tuple[int, int], str], side: str) -> list[str]:
    mine = {"a"} if side == "a" else {"d", "k"}
    moves = []
    for (f, r), piece in board.items():
        if piece not in mine:
            continue
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            tf, tr = f + df, r + dr
            while 0 <= tf < N and 0 <= tr < N and (tf, tr) not in board:
                special = (tf, tr) == THRONE or (tf, tr) in CORNERS
                if piece == "k" or not special:
                    moves.append(f"{chr(97 + f)}{r + 1}-{chr(97 + tf)}{tr + 1}")
                elif (tf, tr) in CORNERS:
                    break
                tf, tr = tf + df, tr + dr
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    rng = random.Random(1)
    positions: list[tuple[hnefi.Game, dict[tuple[int, int], str], str]] = []
    while len(positions) < 2000:
        game = hnefi.Game()
        while game.outcome is None and len(positions) < 2000:
            positions.append((game.copy(), *board_of(game.fen)))
            game.play(rng.choice(game.legal_moves()))
    same = sum(set(pure_moves(b, s)) == set(g.legal_moves()) for g, b, s in positions)
    print(f"the two agree on {same} of {len(positions)} positions")
    rates = {}
    for name, generate in (
        ("hnefi, legal_moves()", lambda p: p[0].legal_moves()),
        ("hnefi, perft(1): the same moves counted, no text", lambda p: p[0].perft(1)),
        ("pure Python", lambda p: pure_moves(p[1], p[2])),
    ):
        count, start = 0, time.process_time()
        while time.process_time() - start < args.seconds:
            for position in positions:
                generate(position)
            count += len(positions)
        rates[name] = count / (time.process_time() - start)
        print(f"{name}: {rates[name]:,.0f} positions a CPU second")
    pure = rates["pure Python"]
    for name, rate in rates.items():
        if name != "pure Python":
            print(f"{name}: {rate / pure:.0f}x the pure-Python generator")


if __name__ == "__main__":
    main()

"""Makes hnefi/openings/copenhagen.txt, the book behind ``TaflEnv(openings="real")``: the
first plies of the real games in data/copenhagen.csv, one distinct opening a line.

    python python/scripts/make_openings.py [--plies 6] [--games data/copenhagen.csv] [--out FILE]

Each game's moves are replayed on hnefi's rules: a game shorter than the opening, one whose
moves are not legal here, and one that ends within the opening are left out, so that every
line of the book is a position from which a game goes on. Lines keep the order in which the
games first reached them, so that the file only changes when the games do.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Optional

import hnefi

PYTHON = Path(__file__).resolve().parents[1]
REPO = PYTHON.parent


def opening(moves: list[str], plies: int, rules: str) -> Optional[str]:
    """The first ``plies`` moves as a line of the book, or None when they make no opening."""
    if len(moves) < plies:
        return None
    game = hnefi.Game(rules)
    line = []
    for move in moves[:plies]:
        # The records spell the captures a move made ("g3-e3xe2"); Game.play reads only the move.
        move = move.split("x", 1)[0]
        try:
            game.play(move)
        except ValueError:
            return None
        line.append(move)
    if game.outcome is not None:
        return None
    return " ".join(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=6, help="plies an opening (default 6)")
    parser.add_argument("--rules", default="copenhagen", help="the games' rules (default copenhagen)")
    parser.add_argument("--games", type=Path, default=REPO / "data" / "copenhagen.csv")
    parser.add_argument("--out", type=Path, default=None,
                        help="default: hnefi/openings/RULES.txt in the package")
    args = parser.parse_args()
    if args.plies < 1:
        parser.error("--plies must be at least 1")
    out = args.out or PYTHON / "hnefi" / "openings" / f"{args.rules}.txt"

    seen: dict[str, None] = {}
    games = 0
    with open(args.games, newline="") as file:
        for row in csv.reader(file):
            if not row or not row[0].strip():
                continue
            games += 1
            line = opening(row[0].split(), args.plies, args.rules)
            if line is not None:
                seen.setdefault(line)

    header = (
        f"# The first {args.plies} plies of the {games} games of {args.games.name}, one distinct\n"
        f"# opening a line ({len(seen)}), as TaflEnv(openings=\"real\") reads them.\n"
        "# Made by python/scripts/make_openings.py: edit that, not this.\n"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(header + "".join(line + "\n" for line in seen))
    print(f"{out}: {len(seen)} openings of {args.plies} plies from {games} games")


if __name__ == "__main__":
    main()

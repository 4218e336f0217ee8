"""The Game class against the repository's perft suite and the command line."""

from __future__ import annotations

import copy
import random
import subprocess

import numpy as np
import pytest

import hnefi
from conftest import BOARDS, REPO, SIDES, hnefi_binary


def perft_lines() -> list[tuple[str, str, dict[int, int]]]:
    """(fen, rules, {depth: leaves}) of positions/perft.epd, the figures tests/perft.rs and
    `hnefi perft` are held to; D4 only where it is small enough for a quick test."""
    lines = []
    for line in (REPO / "positions" / "perft.epd").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        rules = "copenhagen"
        counts = {}
        for field in fields[1:]:
            key, _, value = field.partition(" ")
            if key == "rules":
                rules = value
            elif key.startswith("D") and key[1:].isdigit():
                counts[int(key[1:])] = int(value)
        counts = {d: n for d, n in counts.items() if n <= 2_000_000}
        lines.append((fields[0], rules, counts))
    return lines


PERFT = perft_lines()


def test_the_suite_covers_every_board() -> None:
    presets = {rules for _, rules, _ in PERFT}
    assert set(BOARDS) <= presets


@pytest.mark.parametrize("fen,rules,counts", PERFT, ids=[f"{r}:{f[:20]}" for f, r, _ in PERFT])
def test_perft_matches_the_suite(fen: str, rules: str, counts: dict[int, int]) -> None:
    game = hnefi.Game(rules, fen)
    assert game.fen == fen
    for depth, leaves in counts.items():
        assert game.perft(depth) == leaves, f"perft {depth}"


@pytest.mark.parametrize("rules", BOARDS)
def test_perft_matches_the_command_line(rules: str) -> None:
    binary = hnefi_binary()
    if binary is None:
        pytest.skip("no hnefi binary: set HNEFI_BIN or `cargo build --release`")
    out = subprocess.run(
        [binary, "perft", "3", "--rules", rules, "--threads", "1"],
        capture_output=True, text=True, check=True,
    ).stdout
    nodes = next(line for line in out.splitlines() if line.startswith("Nodes searched:"))
    assert hnefi.Game(rules).perft(3) == int(nodes.split(":")[1])


def test_the_start_of_copenhagen() -> None:
    game = hnefi.Game()
    assert len(game.legal_moves()) == 116
    assert game.turn == "attackers"
    assert game.outcome is None
    assert game.size == 11
    assert game.rules == "copenhagen"


def test_every_board_has_its_size(rules: str) -> None:
    game = hnefi.Game(rules)
    n = SIDES[rules]
    assert game.size == n
    planes = game.planes()
    assert planes.shape == (4, n, n) and planes.dtype == np.uint8
    assert planes[2].sum() == 1, "one king"
    assert planes[2, n // 2, n // 2] == 1, "on the throne"
    assert not (planes[0] & planes[1]).any()
    assert (planes[3] == int(game.turn == "attackers")).all(), "the side to move"


def test_planes_follow_the_moves() -> None:
    game = hnefi.Game()
    game.play("d1-d3")
    planes = game.planes()
    # [plane, rank, file]: d1 is rank 0, file 3.
    assert planes[0, 0, 3] == 0 and planes[0, 2, 3] == 1
    assert (planes[3] == 0).all(), "the defenders to move"
    planes[:] = 0  # the array is the caller's to write
    assert game.planes()[0, 2, 3] == 1


def test_play_and_undo() -> None:
    game = hnefi.Game()
    start = game.fen
    game.play("d1-d3")
    assert game.turn == "defenders"
    assert game.moves == ["d1-d3"]
    game.play("h6h7")  # the compact form is read too
    assert game.moves == ["d1-d3", "h6-h7"]
    game.undo()
    game.undo()
    assert game.fen == start and game.moves == []


def test_copy_is_independent() -> None:
    game = hnefi.Game("brandubh")
    game.play(game.legal_moves()[0])
    for twin in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        assert twin.fen == game.fen and twin.moves == game.moves
        twin.play(twin.legal_moves()[0])
        assert twin.fen != game.fen
    assert len(game.moves) == 1


def test_copy_keeps_a_custom_start() -> None:
    fen = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d"
    game = hnefi.Game("brandubh", fen)
    assert game.copy().fen == fen


@pytest.mark.parametrize("move", ["", "z9-z10", "a1-a2", "d1-d1", "f6-f7", "d1-d3x", "hello"])
def test_an_illegal_move_raises_and_changes_nothing(move: str) -> None:
    game = hnefi.Game()
    game.play("d1-d3")
    before = (game.fen, game.moves, game.legal_moves())
    with pytest.raises(ValueError, match="legal_moves"):
        game.play(move)
    assert (game.fen, game.moves, game.legal_moves()) == before


def test_undo_at_the_start_raises() -> None:
    game = hnefi.Game()
    with pytest.raises(ValueError, match="no move to undo"):
        game.undo()
    assert game.fen == hnefi.Game().fen


def test_unknown_rules_raise_the_command_lines_message() -> None:
    with pytest.raises(ValueError) as raised:
        hnefi.Game("chess")
    assert "unknown rules preset 'chess'" in str(raised.value)
    binary = hnefi_binary()
    if binary is not None:
        cli = subprocess.run([binary, "perft", "1", "--rules", "chess"], capture_output=True, text=True)
        assert cli.returncode != 0
        assert str(raised.value) in cli.stderr


@pytest.mark.parametrize(
    "rules,fen",
    [
        ("copenhagen", "xx"),
        ("brandubh", "3a3/3a3/3d3/aadxdaa/3d3/3a3/3a3 d"),  # x is no piece
        ("copenhagen", "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d"),  # a 7x7 board under 11x11 rules
        ("copenhagen", "5/5/2k2/5/5 a"),  # no such board
    ],
)
def test_a_bad_fen_raises(rules: str, fen: str) -> None:
    with pytest.raises(ValueError):
        hnefi.Game(rules, fen)


def test_opentafl_rules_strings() -> None:
    opentafl = "dim:7 name:Brandub start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    game = hnefi.Game(opentafl)
    assert game.size == 7
    assert game.legal_moves()


def test_a_full_random_game(rules: str) -> None:
    rng = random.Random(48)
    game = hnefi.Game(rules)
    plies = 0
    while game.outcome is None:
        moves = game.legal_moves()
        assert moves, "a game that goes on has a move"
        game.play(rng.choice(moves))
        plies += 1
        assert plies < 100_000, "every preset's game ends"
    outcome = game.outcome
    assert outcome.winner in (None, "attackers", "defenders")
    assert outcome.reason and str(outcome)
    assert game.legal_moves() == []
    with pytest.raises(ValueError, match="over") as refused:
        game.play("a1-a2")
    # The outcome as people read it, never Rust's debug form.
    assert "Outcome {" not in str(refused.value), refused.value
    assert str(outcome) in str(refused.value), refused.value
    assert len(game.moves) == plies
    # Taking the last move back resumes the game.
    game.undo()
    assert game.outcome is None and game.legal_moves()


def test_actions_and_moves_are_one_to_one(rules: str) -> None:
    game = hnefi.Game(rules)
    n = game.size
    actions = game.legal_actions()
    assert [game.move_of(a) for a in actions] == game.legal_moves()
    assert [game.action(m) for m in game.legal_moves()] == actions
    assert all(0 <= a < n**4 for a in actions)
    with pytest.raises(ValueError):
        game.move_of(n**4)
    with pytest.raises(ValueError, match="'z99-a1'.*file 'z'"):
        game.action("z99-a1")


def test_play_action_plays_the_move_of_the_action(rules: str) -> None:
    game = hnefi.Game(rules)
    twin = hnefi.Game(rules)
    rng = random.Random(11)
    for _ in range(20):
        if game.outcome is not None:
            break
        action = rng.choice(game.legal_actions())
        game.play_action(action)
        twin.play(twin.move_of(action))
        assert game.fen == twin.fen and game.moves == twin.moves


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = hnefi.Game()
    before = game.fen
    n = game.size
    with pytest.raises(ValueError, match="not in 0..14641"):
        game.play_action(n**4)
    with pytest.raises(ValueError, match="move 'a1-b1': not legal for the attackers"):
        game.play_action(0 * n**2 + 1)
    with pytest.raises(ValueError, match="a1 and a1 are the same square"):
        game.play_action(0)  # a1 to a1
    with pytest.raises(ValueError, match="action -1 is not in 0..14641"):
        game.play_action(-1)
    assert game.fen == before and game.moves == []


def test_legal_moves_are_shared_strings_of_the_actions(rules: str) -> None:
    game = hnefi.Game(rules)
    for _ in range(4):
        moves = game.legal_moves()
        assert moves == [game.move_of(a) for a in game.legal_actions()]
        # Interned: the same object at each call, so a ply allocates no move text.
        assert all(a is b for a, b in zip(moves, game.legal_moves()))
        game.play(moves[0])


def test_the_rules_are_named_as_the_core_names_them() -> None:
    assert hnefi.Game("Brandubh").rules == "brandubh"
    opentafl = "dim:7 name:Brandub start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    assert hnefi.Game(" " + opentafl).rules == opentafl

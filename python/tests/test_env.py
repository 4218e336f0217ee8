"""TaflEnv: Gymnasium's checker passes, the mask is the legal moves, rewards go to the right
side, illegal actions lose or raise, starts are seeded, opponents answer, vector envs play."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import hnefi
from conftest import REPO

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import hnefi.env  # noqa: E402


def assert_mask_is_legal(env: hnefi.TaflEnv, info: dict[str, Any]) -> None:
    mask = info["action_mask"]
    assert mask.dtype == np.bool_ and mask.shape == (env.size**4,)
    legal = sorted(env.game.action(m) for m in env.game.legal_moves())
    assert np.flatnonzero(mask).tolist() == legal
    assert info["to_play"] == env.game.turn


def first_legal(info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def test_check_env_passes(rules: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(hnefi.TaflEnv(rules=rules))
        # Made by gym.make the env has a spec, and the checker renders every render mode too.
        check_env(gymnasium.make(hnefi.env.ENV_ID, rules=rules).unwrapped)
    # The one warning expected: the bare env has no spec to make the other render modes with.
    unexpected = [str(w.message) for w in caught if "not having a spec" not in str(w.message)]
    assert unexpected == []


def test_check_env_passes_with_openings_random_plies_and_an_opponent() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not having a spec")
        check_env(hnefi.TaflEnv(openings="real", random_plies=3))
        check_env(hnefi.TaflEnv(rules="brandubh", random_plies=2, illegal="lose",
                                opponent=lambda game: game.legal_actions()[-1]))


def test_the_mask_is_the_legal_moves_through_a_whole_game(rules: str) -> None:
    env = hnefi.TaflEnv(rules=rules)
    n = env.size
    assert env.action_space == gymnasium.spaces.Discrete(n**4)
    assert env.observation_space.shape == (4, n, n)
    observation, info = env.reset(seed=7)
    assert env.observation_space.contains(observation)
    assert_mask_is_legal(env, info)
    rng = np.random.default_rng(7)
    terminated = False
    while not terminated:
        mover = info["to_play"]
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        assert (observation == env.game.planes()).all()
        # The side-to-move plane: all ones for the attackers, all zeros for the defenders.
        assert (observation[3] == (env.game.turn == "attackers")).all()
        if terminated:
            outcome = env.game.outcome
            assert outcome is not None
            assert reward == (0 if outcome.winner is None else 1 if outcome.winner == mover else -1)
            assert not info["action_mask"].any()
            assert (info["winner"], info["reason"]) == (outcome.winner, outcome.reason)
            assert info["result"] == str(outcome)
        else:
            assert reward == 0
            assert_mask_is_legal(env, info)
    with pytest.raises(ValueError, match="reset"):
        env.step(action)


def test_the_planes_are_attackers_defenders_king_and_side_to_move() -> None:
    env = hnefi.TaflEnv(rules="brandubh")
    observation, info = env.reset()
    # Brandubh: 8 attackers, 4 defenders and the king; the defenders move first.
    assert observation.dtype == np.uint8
    assert observation.sum(axis=(1, 2)).tolist() == [8, 4, 1, 0]
    assert observation[2, 3, 3] == 1  # the king on d4, the middle of the board
    observation, *_ = env.step(first_legal(info))
    assert (observation[3] == 1).all()


def test_an_illegal_action_loses_by_default() -> None:
    env = hnefi.TaflEnv(rules="tablut")
    observation, info = env.reset()
    fen = env.game.fen
    mover = env.game.turn
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert env.game.fen == fen and (after == observation).all()
    assert info["winner"] != mover and info["reason"] == "illegal action"
    assert info["illegal_action"] == illegal and "same square" in info["error"]
    assert f"the {mover} played illegal action {illegal}" in info["result"]
    assert not info["action_mask"].any()
    with pytest.raises(ValueError, match="reset"):
        env.step(illegal)
    # Outside the board's actions, too.
    env.reset()
    _, reward, terminated, _, info = env.step(env.size**4)
    assert (reward, terminated) == (-1.0, True) and "outside" in info["result"]


def test_an_illegal_action_raises_and_changes_nothing_when_asked() -> None:
    env = hnefi.TaflEnv(rules="brandubh", illegal="raise")
    _, info = env.reset()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    fen = env.game.fen
    with pytest.raises(ValueError, match=f"illegal action {illegal}"):
        env.step(illegal)
    assert env.game.fen == fen
    env.step(first_legal(info))  # the episode goes on
    with pytest.raises(ValueError, match="not an integer"):
        env.step(1.5)  # type: ignore[arg-type]


def test_max_plies_truncates() -> None:
    env = hnefi.TaflEnv(rules="tablut", max_plies=4)
    _, info = env.reset()
    for ply in range(4):
        _, _, terminated, truncated, info = env.step(first_legal(info))
        assert truncated == (ply == 3) and not terminated


@pytest.mark.parametrize("rules", ["brandubh", "copenhagen"])
def test_an_engine_opponent_answers_inside_step(rules: str) -> None:
    # The agent takes the side that moves second (Brandubh's defenders move first), so the
    # engine has played by the time the agent first sees the board.
    first = hnefi.Game(rules).turn
    second = "attackers" if first == "defenders" else "defenders"
    env = hnefi.TaflEnv(rules=rules, opponent=hnefi.Engine(), agent_side=second,
                        opponent_limits={"depth": 2})
    _, info = env.reset()
    assert len(env.game.moves) == 1
    assert info["to_play"] == second
    _, _, terminated, _, info = env.step(first_legal(info))
    assert terminated or (len(env.game.moves) == 3 and info["to_play"] == second)


def test_a_callable_opponent_plays_a_whole_game() -> None:
    env = hnefi.TaflEnv(rules="brandubh", opponent=lambda game: game.legal_actions()[0])
    _, info = env.reset()
    assert info["to_play"] == "attackers" and len(env.game.moves) == 1
    terminated = truncated = False
    reward = 0.0
    rng = np.random.default_rng(1)
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if not terminated:
            assert info["to_play"] == "attackers"
    assert env.game.outcome is not None
    winner = env.game.outcome.winner
    assert reward == (0 if winner is None else 1 if winner == "attackers" else -1)


def test_an_illegal_action_against_an_opponent_loses_for_the_agent() -> None:
    env = hnefi.TaflEnv(rules="brandubh", opponent=lambda game: game.legal_actions()[0])
    _, info = env.reset()
    moves = list(env.game.moves)
    _, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, info["winner"]) == (-1.0, True, "defenders")
    assert env.game.moves == moves  # the opponent did not answer


def test_a_bad_opponent_move_is_a_clear_error() -> None:
    env = hnefi.TaflEnv(rules="brandubh", opponent=lambda game: "a1-a2")
    with pytest.raises(ValueError, match="the opponent's move 'a1-a2' cannot be played"):
        env.reset()


def test_reset_starts_afresh() -> None:
    env = hnefi.TaflEnv(rules="copenhagen-13")
    _, info = env.reset(seed=3)
    env.step(env.game.legal_actions()[0])
    observation, info = env.reset()
    assert env.game.moves == []
    assert (observation == hnefi.Game("copenhagen-13").planes()).all()
    assert_mask_is_legal(env, info)
    with pytest.raises(ValueError, match="no options"):
        env.reset(options={"fen": "x"})


def test_random_plies_are_seeded(rules: str) -> None:
    env = hnefi.TaflEnv(rules=rules, random_plies=6)
    starts = []
    for seed in (1, 2, 1):
        _, info = env.reset(seed=seed)
        assert len(env.game.moves) == 6 and env.game.outcome is None
        assert_mask_is_legal(env, info)
        starts.append(env.game.moves)
    assert starts[0] == starts[2] != starts[1]
    # Without a seed the stream goes on: the next start is another one.
    env.reset()
    assert env.game.moves != starts[2]


def test_random_plies_never_end_the_game() -> None:
    # Brandubh games of random moves often end within 60 plies: each ply avoids the moves
    # that would end it, and stops only when every move would.
    env = hnefi.TaflEnv(rules="brandubh", random_plies=60)
    for seed in range(5):
        env.reset(seed=seed)
        assert env.game.outcome is None


def test_real_openings_are_seeded_lines_of_the_book() -> None:
    book = (REPO / "python" / "hnefi" / "openings" / "copenhagen.txt").read_text().splitlines()
    lines = {line for line in book if line and not line.startswith("#")}
    assert len(lines) > 100
    env = hnefi.TaflEnv(openings="real")
    seen = []
    for seed in (5, 6, 5):
        env.reset(seed=seed)
        assert " ".join(env.game.moves) in lines
        seen.append(env.game.moves)
    assert seen[0] == seen[2] != seen[1]
    # The book then random plies, both from the seed.
    env = hnefi.TaflEnv(openings="real", random_plies=2)
    env.reset(seed=5)
    assert env.game.moves[:-2] == seen[0] and len(env.game.moves) == len(seen[0]) + 2


def test_openings_of_ones_own() -> None:
    env = hnefi.TaflEnv(rules="tablut", openings=["d1-d3 e3-h3", ["f1-h1"]])
    starts = set()
    for seed in range(20):
        env.reset(seed=seed)
        starts.add(" ".join(env.game.moves))
    assert starts == {"d1-d3 e3-h3", "f1-h1"}


def test_bad_openings_raise() -> None:
    with pytest.raises(ValueError, match="no book of real games' openings .* 'tablut'"):
        hnefi.TaflEnv(rules="tablut", openings="real")
    with pytest.raises(ValueError, match="neither 'real' nor a list"):
        hnefi.TaflEnv(openings="random")
    with pytest.raises(ValueError, match="cannot be combined with fen"):
        hnefi.TaflEnv(openings="real", fen=hnefi.Game().fen)
    with pytest.raises(ValueError, match=r"opening 1 \(a1-a2\): .*a1"):
        hnefi.TaflEnv(openings=["d1-d3", "a1-a2"])
    with pytest.raises(ValueError, match="empty"):
        hnefi.TaflEnv(openings=[])
    with pytest.raises(ValueError, match="random_plies"):
        hnefi.TaflEnv(random_plies=-1)


def test_render_ansi_and_rgb_array() -> None:
    env = hnefi.TaflEnv(rules="brandubh", render_mode="ansi")
    _, info = env.reset()
    env.step(env.game.action("d5-f5"))
    text = env.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert lines[0] == " 7 + . . a . . + "  # the last rank at the top, its corners
    assert lines[2] == " 5 . . . . . d . "  # the defender moved from d5 to f5
    assert lines[7] == "   a b c d e f g"
    assert lines[8] == "attackers to move"
    assert lines[9] == "moves: d5-f5"
    env = hnefi.TaflEnv(rules="copenhagen-13", render_mode="rgb_array")
    env.reset()
    image = env.render()
    assert isinstance(image, np.ndarray)
    assert image.shape == (13 * 16, 13 * 16, 3) and image.dtype == np.uint8
    assert hnefi.TaflEnv().render() is None


def test_gym_make_is_registered() -> None:
    env = gymnasium.make("hnefi/Tafl-v0", rules="tablut", max_plies=10)
    assert isinstance(env.unwrapped, hnefi.TaflEnv) and env.unwrapped.size == 9
    observation, _ = env.reset(seed=0)
    assert observation.shape == (4, 9, 9)


def test_gym_make_imports_the_module_and_import_hnefi_does_not_import_gymnasium(
    tmp_path: Path,
) -> None:
    # A fresh interpreter (in this one both are imported already) that finds the same hnefi.
    found = str(Path(hnefi.__file__).resolve().parents[1])
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([found, *filter(None, sys.path)])}
    script = (
        "import sys, hnefi\n"
        "assert 'gymnasium' not in sys.modules, 'import hnefi imported gymnasium'\n"
        "import gymnasium\n"
        "env = gymnasium.make('hnefi.env:hnefi/Tafl-v0', rules='brandubh')\n"
        "assert env.unwrapped.size == 7\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=tmp_path, env=environ)


def test_the_vector_example_plays_through_autoresets() -> None:
    path = REPO / "python" / "examples" / "vector_random.py"
    spec = importlib.util.spec_from_file_location("vector_random", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    # The envs raise on any illegal action: a run that ends is one that kept to the mask.
    stats = example.play(envs=8, steps=250, rules="brandubh", max_plies=60, seed=0)
    assert stats["terminated"] >= 3 and stats["truncated"] >= 3
    # Each terminated episode left one all-False mask, answered by action 0 and ignored.
    assert stats["all_false_masks"] == stats["terminated"]
    assert sum(stats["wins"].values()) == stats["terminated"]
    stats = example.play(envs=4, steps=150, rules="brandubh", max_plies=40, seed=1,
                         autoreset_mode="SameStep")
    assert stats["truncated"] >= 3 and stats["all_false_masks"] == 0


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="unknown rules"):
        hnefi.TaflEnv(rules="chess")
    with pytest.raises(ValueError, match="agent_side"):
        hnefi.TaflEnv(agent_side="king")
    with pytest.raises(ValueError, match="illegal"):
        hnefi.TaflEnv(illegal="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        hnefi.TaflEnv(render_mode="human")
    with pytest.raises(ValueError, match="max_plies"):
        hnefi.TaflEnv(max_plies=0)

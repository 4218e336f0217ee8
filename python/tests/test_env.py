"""TaflEnv: the mask is the legal moves, rewards go to the right side, opponents answer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import hnefi

gymnasium = pytest.importorskip("gymnasium")


def assert_mask_is_legal(env: "hnefi.TaflEnv", info: dict[str, Any]) -> None:
    mask = info["action_mask"]
    assert mask.dtype == np.bool_ and mask.shape == (env.size**4,)
    legal = sorted(env.game.action(m) for m in env.game.legal_moves())
    assert np.flatnonzero(mask).tolist() == legal
    assert info["to_play"] == env.game.turn


def test_the_mask_is_the_legal_moves_through_a_whole_game(rules: str) -> None:
    env = hnefi.TaflEnv(rules=rules)
    n = env.size
    assert env.action_space == gymnasium.spaces.Discrete(n**4)
    assert env.observation_space.shape == (3, n, n)
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
        assert_mask_is_legal(env, info)
        if terminated:
            assert env.game.outcome is not None
            winner = env.game.outcome.winner
            assert reward == (0 if winner is None else 1 if winner == mover else -1)
            assert not info["action_mask"].any()
        else:
            assert reward == 0


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = hnefi.TaflEnv(rules="brandubh")
    _, info = env.reset()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    fen = env.game.fen
    with pytest.raises(ValueError):
        env.step(illegal)
    assert env.game.fen == fen


def test_max_plies_truncates() -> None:
    env = hnefi.TaflEnv(rules="tablut", max_plies=4)
    _, info = env.reset()
    for ply in range(4):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert truncated and not terminated


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
    _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
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


def test_reset_starts_afresh() -> None:
    env = hnefi.TaflEnv(rules="copenhagen-13")
    _, info = env.reset(seed=3)
    env.step(env.game.legal_actions()[0])
    observation, info = env.reset()
    assert env.game.moves == []
    assert (observation == hnefi.Game("copenhagen-13").planes()).all()
    assert_mask_is_legal(env, info)


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="unknown rules"):
        hnefi.TaflEnv(rules="chess")
    with pytest.raises(ValueError):
        hnefi.TaflEnv(agent_side="king")

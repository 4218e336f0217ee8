"""The PettingZoo environment: PettingZoo's own API and seed tests on every board, rewards and
masks through whole games, illegal actions, truncation, and the engine as an agent."""

from __future__ import annotations

import importlib.util
import pickle
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import hnefi

pytest.importorskip("pettingzoo")
import hnefi.pettingzoo as hpz  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# What PettingZoo's API test advises against and this environment does on purpose: agents
# named for tafl's sides, and chess's dict observation with its action mask.
EXPECTED_ADVICE = [
    "We recommend agents to be named",
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
]


def quiet_api_test(env: Any, num_cycles: int) -> None:
    with warnings.catch_warnings():
        for advice in EXPECTED_ADVICE:
            warnings.filterwarnings("ignore", message=advice)
        api_test(env, num_cycles=num_cycles, verbose_progress=False)


def test_pettingzoo_api_test(rules: str) -> None:
    quiet_api_test(hpz.env(rules=rules), num_cycles=300)
    quiet_api_test(hpz.env(rules=rules, max_plies=30, render_mode="ansi"), num_cycles=100)


def test_pettingzoo_seed_test(rules: str) -> None:
    seed_test(lambda: hpz.env(rules=rules), num_cycles=200)


def test_spaces_metadata_and_first_observation(rules: str) -> None:
    env = hpz.env(rules=rules)
    n = hnefi.Game(rules).size
    assert env.metadata["name"] == "hnefi_tafl_v0" and env.metadata["is_parallelizable"] is False
    assert env.possible_agents == ["attackers", "defenders"]
    env.reset(seed=1)
    game = hnefi.Game(rules)
    assert env.agent_selection == game.turn
    for agent in env.possible_agents:
        assert env.action_space(agent).n == n**4
        observation = env.observe(agent)
        assert env.observation_space(agent).contains(observation)
        assert observation["observation"].dtype == np.uint8
        assert observation["observation"].shape == (4, n, n)
        assert (observation["observation"] == game.planes()).all()
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (n**4,)
        if agent == game.turn:
            assert np.flatnonzero(mask).tolist() == sorted(game.legal_actions())
        else:
            assert not mask.any()


def test_brandubh_defenders_open_and_tablut_attackers() -> None:
    env = hpz.env(rules="brandubh")
    env.reset()
    assert env.agent_selection == "defenders"
    assert env.observe("defenders")["observation"][3].sum() == 0
    env = hpz.env(rules="tablut")
    env.reset()
    assert env.agent_selection == "attackers"
    assert env.observe("attackers")["observation"][3].all()


def test_whole_random_games_give_the_winner_plus_one(rules: str) -> None:
    rng = np.random.default_rng(3)
    env = hpz.env(rules=rules)
    env.reset(seed=3)
    game = env.unwrapped.game
    totals = {agent: 0.0 for agent in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert agent == game.turn
        assert reward == 0
        mask = observation["action_mask"]
        assert np.flatnonzero(mask).tolist() == sorted(game.legal_actions())
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert env.agents == []
    assert game.outcome is not None and len(game.moves) == steps
    winner = game.outcome.winner
    for agent in env.possible_agents:
        assert totals[agent] == (0 if winner is None else 1 if agent == winner else -1)


def test_an_illegal_action_ends_the_game_with_minus_one_for_its_agent() -> None:
    env = hpz.env(rules="brandubh")
    env.reset()
    mover = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*[Ii]llegal move.*")
        env.step(illegal)
    assert all(env.terminations.values())
    rewards = {}
    for agent in env.agent_iter():
        rewards[agent] = env.last()[1]
        env.step(None)
    assert rewards[mover] == -1
    assert all(value == 0 for agent, value in rewards.items() if agent != mover)
    assert env.unwrapped.game.moves == []


def test_unwrapped_an_illegal_action_raises_and_changes_nothing() -> None:
    env = hpz.raw_env(rules="tablut")
    env.reset()
    fen = env.game.fen
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.game.action("a1-a2"))
    with pytest.raises(ValueError):
        env.step(9**4)
    with pytest.raises(ValueError, match="None"):
        env.step(None)
    assert env.game.fen == fen and env.agent_selection == "attackers"


def test_wrapped_out_of_bounds_actions_and_steps_before_reset_are_refused() -> None:
    env = hpz.env(rules="brandubh")
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    env.reset()
    with pytest.raises(AssertionError):
        env.step(7**4)


def test_max_plies_truncates_with_no_reward() -> None:
    env = hpz.env(rules="copenhagen", max_plies=6)
    env.reset()
    plies = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            assert truncation and not termination and reward == 0
            assert info == {"winner": None, "reason": "max plies"}
            assert not observation["action_mask"].any()
            env.step(None)
        else:
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
            plies += 1
    assert plies == 6 and env.unwrapped.game.outcome is None


def test_render_draws_the_board() -> None:
    env = hpz.env(rules="brandubh", render_mode="ansi")
    env.reset()
    text = env.render()
    lines = text.splitlines()
    assert lines[0] == " 7 + . . a . . + "
    assert lines[3] == " 4 a a d k d a a "
    assert lines[7] == "   a b c d e f g"
    assert lines[8] == "defenders to move"


def test_bad_arguments_raise_clear_errors() -> None:
    with pytest.raises(ValueError):
        hpz.env(rules="no such rules")
    with pytest.raises(ValueError, match="render_mode"):
        hpz.env(rules="brandubh", render_mode="human")
    with pytest.raises(ValueError, match="max_plies"):
        hpz.env(rules="brandubh", max_plies=0)
    env = hpz.raw_env(rules="brandubh")
    with pytest.raises(ValueError, match="unknown agent"):
        env.observe("player_0")


def test_pickles_as_its_arguments() -> None:
    env = hpz.raw_env(rules="tablut", max_plies=12)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.rules == "tablut" and copy.max_plies == 12 and copy.size == 9


def test_the_engine_example_plays(rules: str) -> None:
    path = EXAMPLES / "pettingzoo_engine.py"
    spec = importlib.util.spec_from_file_location("pettingzoo_engine", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.play_game(rules, engine_side="attackers", nodes=300, stop_after=6)
    assert result["plies"] == 6
    # A whole Brandubh game against a random player: the engine wins it.
    result = example.play_game("brandubh", engine_side="defenders", nodes=500, seed=1)
    assert result["end"]["winner"] == "defenders"
    assert result["rewards"] == {"attackers": -1.0, "defenders": 1.0}

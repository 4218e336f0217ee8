"""The OpenSpiel game: OpenSpiel's own random simulation test on every board, agreement with
hnefi.Game, serialization, pickling, clones, the ply cap, and MCTS against a random player."""

from __future__ import annotations

import importlib.util
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import hnefi

pyspiel = pytest.importorskip("pyspiel")
import hnefi.openspiel as hos  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(rules: str, max_plies: int = 400) -> Any:
    return pyspiel.load_game(hos.SHORT_NAME, {"rules": rules, "max_plies": max_plies})


def random_state(game: Any, plies: int, seed: int = 0) -> Any:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_loads_by_name_with_its_parameters(rules: str) -> None:
    n = hnefi.Game(rules).size
    game = pyspiel.load_game(f"python_hnefi_tafl(rules={rules},max_plies=77)")
    assert game.get_type().short_name == "python_hnefi_tafl"
    assert game.get_parameters() == {"rules": rules, "max_plies": 77}
    assert game.num_distinct_actions() == n**4
    assert game.max_game_length() == 77
    assert game.num_players() == 2
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_shape() == [4, n, n]
    assert str(game) == f"python_hnefi_tafl(max_plies=77,rules={rules})"


def test_defaults() -> None:
    game = pyspiel.load_game("python_hnefi_tafl")
    assert game.get_parameters() == {"rules": "copenhagen", "max_plies": 400}
    assert game.num_distinct_actions() == 11**4


def test_openspiel_random_sim_test(rules: str) -> None:
    # OpenSpiel's own conformance checks (legal actions, masks, observations, clones,
    # serialization of each state, returns), on whole games capped at 120 plies.
    pyspiel.random_sim_test(load(rules, max_plies=120), num_sims=2, serialize=True, verbose=False)


def test_states_agree_with_hnefi_game(rules: str) -> None:
    game = load(rules)
    state = game.new_initial_state()
    shadow = hnefi.Game(rules)
    rng = np.random.default_rng(5)
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        assert player == ["attackers", "defenders"].index(shadow.turn)
        assert state.legal_actions() == sorted(shadow.legal_actions())
        assert state.legal_actions(1 - player) == []
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(player)), shadow.planes().astype(np.float32).ravel()
        )
        assert state.observation_string(0) == state.observation_string(1) == str(state)
        action = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(player, action) == shadow.move_of(action)
        state.apply_action(action)
        shadow.play_action(action)
    assert state.history() == [shadow.action(m) for m in shadow.moves]


def test_brandubh_opens_with_the_defenders() -> None:
    state = load("brandubh").new_initial_state()
    assert state.current_player() == 1 and len(state.legal_actions()) == 24
    assert load("tablut").new_initial_state().current_player() == 0


def test_serialization_and_pickle_keep_the_game(rules: str) -> None:
    game = load(rules)
    state = random_state(game, 25, seed=len(rules))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    for copy in (state2, pickle.loads(pickle.dumps(state))):
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.game.moves == state.game.moves
        assert copy.legal_actions() == state.legal_actions()
        assert copy.current_player() == state.current_player()
    assert str(game2) == str(game)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_an_opentafl_rules_string_survives_serialization() -> None:
    tablut = hnefi.Game("tablut").to_otg()
    rules = tablut[len("[rules:") : tablut.index("]")]
    game = load(rules)
    assert game.num_distinct_actions() == 9**4
    state = random_state(game, 7)
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert game2.get_parameters()["rules"] == rules and str(state2) == str(state)


def test_a_clone_is_independent() -> None:
    state = random_state(load("tablut"), 6)
    clone = state.clone()
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before and len(clone.history()) == len(state.history()) + 1
    assert clone.game.moves[:-1] == state.game.moves


def test_max_plies_ends_in_a_draw() -> None:
    state = random_state(load("copenhagen", max_plies=10), 10)
    assert state.is_terminal() and state.game.outcome is None
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []


def test_whole_games_return_plus_one_to_the_winner() -> None:
    game = load("brandubh", max_plies=2000)
    for seed in range(5):
        state = random_state(game, 2000, seed)
        outcome = state.game.outcome
        assert state.is_terminal() and outcome is not None
        expected = {"attackers": [1.0, -1.0], "defenders": [-1.0, 1.0], None: [0.0, 0.0]}
        assert state.returns() == expected[outcome.winner]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = load("brandubh").new_initial_state()
    with pytest.raises(ValueError, match="same square"):
        state.apply_action(0)
    assert state.history() == [] and state.current_player() == 1


def test_bad_parameters_raise_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown rules"):
        pyspiel.load_game("python_hnefi_tafl(rules=nonsense)")
    with pytest.raises(ValueError, match="max_plies"):
        pyspiel.load_game("python_hnefi_tafl(max_plies=0)")
    with pytest.raises(ValueError, match="unknown parameters"):
        hos.TaflGame({"plies": 3})
    with pytest.raises(ValueError, match="no parameters"):
        hos.TaflObserver(7, {"perspective": 1})


def example() -> Any:
    """examples/openspiel_mcts.py as a module: the tests play its games."""
    spec = importlib.util.spec_from_file_location("openspiel_mcts", EXAMPLES / "openspiel_mcts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(mcts_player: int, simulations: int, seed: int) -> Any:
    game = example().play_game("brandubh", mcts_player, simulations, max_plies=100, seed=seed)
    return game["state"]


def test_mcts_against_random_finishes_a_game() -> None:
    state = play(mcts_player=0, simulations=20, seed=0)
    assert state.is_terminal()
    assert sum(state.returns()) == 0
    assert len(state.history()) <= 100


def test_mcts_beats_random_in_most_games() -> None:
    # Seeded, so the same games each run; MCTS wins 13 of 16 such games over seeds 0-15.
    wins = 0
    for seed in (1, 2, 3):
        side = seed % 2
        wins += play(side, simulations=30, seed=seed).returns()[side] > 0
    assert wins >= 2


def test_the_mcts_example_plays() -> None:
    result = example().play_game("brandubh", mcts_player=1, simulations=10, max_plies=12, seed=0)
    assert len(result["moves"]) <= 12 and result["state"].is_terminal()

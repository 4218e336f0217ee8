"""hnefi.Batch: many games stepped in one call, checked move for move against Game."""

from __future__ import annotations

import numpy as np
import pytest

import hnefi

from conftest import SIDES


def test_a_batch_plays_as_its_games_do(rules: str) -> None:
    count, n = 24, SIDES[rules]
    batch = hnefi.Batch(count, rules=rules, max_plies=40, seed=3)
    games = [hnefi.Game(rules) for _ in range(count)]
    rng = np.random.default_rng(5)
    assert len(batch) == count and batch.size == n
    for ply in range(60):
        legal, counts = batch.legal_actions()
        masks = batch.action_masks()
        observations = batch.observations()
        assert observations.shape == (count, 4, n, n) and masks.shape == (count, n**4)
        actions = np.empty(count, dtype=np.int64)
        for g, game in enumerate(games):
            finished = game.outcome is not None or len(game.moves) >= 40
            expected = [] if finished else game.legal_actions()
            assert list(legal[g, : counts[g]]) == expected
            assert (legal[g, counts[g] :] == -1).all()
            assert list(np.flatnonzero(masks[g])) == sorted(expected)
            assert (observations[g] == game.planes()).all()
            if finished:
                games[g] = hnefi.Game(rules)
            actions[g] = -1 if finished else expected[rng.integers(len(expected))]
        done = np.flatnonzero(actions < 0)
        batch.reset(done)
        # sample() draws the reset games' moves: any legal one will do.
        actions[done] = batch.sample()[done]
        movers = [game.turn for game in games]
        rewards, terminated, truncated = batch.step(actions)
        for g, game in enumerate(games):
            game.play_action(int(actions[g]))
            assert batch.game(g).moves == game.moves
            outcome = game.outcome
            assert terminated[g] == (outcome is not None)
            assert truncated[g] == (outcome is None and len(game.moves) >= 40)
            winner = None if outcome is None else outcome.winner
            expected_reward = 0.0 if winner is None else (1.0 if winner == movers[g] else -1.0)
            assert rewards[g] == expected_reward
        assert rewards.dtype == np.float32 and terminated.dtype == np.bool_


def test_sample_is_random_play_reproducible_by_seed() -> None:
    def play(seed: int) -> list[str]:
        batch = hnefi.Batch(40, rules="tablut", seed=seed)
        for _ in range(12):
            batch.step(batch.sample())
        return [batch.game(g).fen for g in range(40)]

    assert play(9) == play(9)
    assert play(9) != play(10)


def test_a_refused_step_says_which_game_and_why_and_changes_nothing() -> None:
    batch = hnefi.Batch(3, max_plies=1)
    d1d3 = hnefi.Game().action("d1-d3")
    with pytest.raises(ValueError, match="^2 actions for 3 games: give one action a game$"):
        batch.step([d1d3, d1d3])
    with pytest.raises(
        ValueError, match=r"^game 2: action 14641 is not in 0\.\.14641 on a 11x11 board$"
    ):
        batch.step([d1d3, d1d3, 14641])
    with pytest.raises(
        ValueError,
        match="^game 1: move 'a1-b1': not legal for the attackers here: there is no piece of "
        "the attackers on a1; `legal_moves\\(\\)` lists the legal ones$",
    ):
        batch.step([d1d3, 1, d1d3])
    with pytest.raises(ValueError, match="^game 0: move 'a1-a1': a1 and a1 are the same square"):
        batch.step([0, d1d3, d1d3])
    with pytest.raises(ValueError, match="actions must be one int a game"):
        batch.step(np.zeros((3, 1), dtype=np.int64))
    assert all(batch.game(g).moves == [] for g in range(3))
    batch.step(np.array([d1d3] * 3))
    assert list(batch.sample()) == [-1, -1, -1]
    with pytest.raises(
        ValueError, match="^game 0 reached its limit of 1 plies: reset it before stepping it$"
    ):
        batch.step([d1d3] * 3)
    with pytest.raises(ValueError, match=r"^game 3 is not in this batch of 3 games \(0\.\.3\)$"):
        batch.reset([0, 3])
    with pytest.raises(ValueError, match=r"^game -1 is not in this batch of 3 games \(0\.\.3\)$"):
        batch.reset([-1])
    with pytest.raises(ValueError, match=r"^game 5 is not in this batch of 3 games \(0\.\.3\)$"):
        batch.game(5)
    batch.reset()
    assert list(batch.legal_actions()[1]) == [116] * 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"count": 0}, "count must be at least 1, not 0"),
        ({"count": 2, "max_plies": 0}, "max_plies must be at least 1, not 0"),
        ({"count": 2, "rules": "chess"}, "chess"),
    ],
)
def test_bad_batches_are_value_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hnefi.Batch(**kwargs)  # type: ignore[arg-type]

"""TaflEnv: tafl as a Gymnasium environment, on any board and rules Hnefi plays."""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._hnefi import Engine, Game, Outcome

Opponent = Union[Engine, Callable[[Game], Union[str, int]]]


class TaflEnv(gym.Env):
    """A game of tafl as a Gymnasium environment.

    Actions are ``from * n**2 + to`` with squares indexed ``rank * n + file`` (a1 = 0), a fixed
    ``Discrete(n**4)`` space of which ``info["action_mask"]`` marks the legal ones; an illegal
    action raises ValueError. The observation is ``Game.planes()``: uint8, shape (3, n, n),
    attackers, defenders, king. ``info["to_play"]`` is the side to move.

    Without an opponent, each step plays a move for the side to move (self-play) and the
    reward is for the side that moved: +1 when its move won, -1 when it lost, 0 otherwise.
    With an opponent (an ``hnefi.Engine``, searched within ``opponent_limits``, or a callable
    taking the Game and giving a move text or action), the agent plays ``agent_side`` and the
    opponent answers inside ``step``: the reward is then the agent's, +1, -1 or 0.

    ``max_plies`` ends an unfinished game by truncation.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: str = "copenhagen",
        fen: Optional[str] = None,
        opponent: Optional[Opponent] = None,
        agent_side: str = "attackers",
        opponent_limits: Optional[dict[str, Any]] = None,
        max_plies: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        if agent_side not in ("attackers", "defenders"):
            raise ValueError(f"agent_side '{agent_side}' is neither 'attackers' nor 'defenders'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode '{render_mode}' is not one of {self.metadata['render_modes']}")
        self.rules = rules
        self.start_fen = fen
        self.opponent = opponent
        self.agent_side = agent_side
        self.opponent_limits = dict(opponent_limits or {"nodes": 2000})
        self.max_plies = max_plies
        self.render_mode = render_mode
        # Read the rules now, so that bad ones raise here and the spaces know the size.
        self.game = Game(rules, fen)
        n = self.game.size
        self.size = n
        self.observation_space = spaces.Box(0, 1, shape=(3, n, n), dtype=np.uint8)
        self.action_space = spaces.Discrete(n**4)
        self._plies = 0

    def _observe(self, outcome: Optional[Outcome]) -> tuple[np.ndarray, dict[str, Any]]:
        info: dict[str, Any] = {
            "action_mask": self.game.action_mask(),
            "to_play": self.game.turn,
        }
        if outcome is not None:
            info["outcome"] = outcome
        return self.game.planes(), info

    def _opponent_move(self) -> None:
        opponent = self.opponent
        if isinstance(opponent, Engine):
            move: Union[str, int, None] = opponent.analyse(self.game, **self.opponent_limits).best
        else:
            assert opponent is not None
            move = opponent(self.game)
        if move is None:
            raise RuntimeError("the opponent gave no move")
        if isinstance(move, (int, np.integer)):
            self.game.play_action(int(move))
        else:
            self.game.play(move)
        self._plies += 1

    @staticmethod
    def _reward(outcome: Optional[Outcome], side: str) -> float:
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == side else -1.0

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game from the start; with an opponent to move first, after its move."""
        super().reset(seed=seed)
        self.game = Game(self.rules, self.start_fen)
        self._plies = 0
        if self.opponent is not None and self.game.turn != self.agent_side:
            self._opponent_move()
        return self._observe(self.game.outcome)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Plays ``action`` (and the opponent's answer, if there is one)."""
        mover = self.game.turn
        # Square indices straight to the core: no move text is spelt or read.
        self.game.play_action(int(action))
        self._plies += 1
        outcome = self.game.outcome
        if self.opponent is not None and outcome is None:
            self._opponent_move()
            outcome = self.game.outcome
        terminated = outcome is not None
        truncated = (
            not terminated and self.max_plies is not None and self._plies >= self.max_plies
        )
        observation, info = self._observe(outcome)
        return observation, self._reward(outcome, mover), terminated, truncated, info

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return f"{self.game.fen}\n{' '.join(self.game.moves)}"
        return None

"""Tafl as a PettingZoo AEC environment, in the shape of PettingZoo's classic chess.

``hnefi.pettingzoo.env(rules="copenhagen")`` gives a two-agent environment, "attackers" and
"defenders", wrapped as PettingZoo wraps its classic games (an illegal action ends the game
with -1 for the agent that played it; an action outside the space or a step before
``reset()`` is refused); ``raw_env`` is the same game unwrapped. Every board and rules Hnefi
plays work: "brandubh" (7x7), "tablut" (9x9), "copenhagen" (11x11), "copenhagen-13" (13x13),
the other presets and any OpenTafl rules string.

The side to move is the rules': the attackers open on most boards, the defenders on
Brandubh. ``agent_selection`` always names the side to move.

Observation, for each agent (``observe(agent)``), a dict:

- ``"observation"``: uint8 of shape (4, n, n), ``Game.planes()``: attackers, defenders, the
  king, and a plane all 1 when the attackers are to move, all 0 when the defenders are;
  indexed ``[plane, rank, file]`` with a1 at ``[plane, 0, 0]``. Both agents see the same board,
  from the same side: tafl's two sides play different games, so nothing is mirrored.
- ``"action_mask"``: int8 of n**4, 1 at each legal action of the agent to move; all 0 for the
  other agent and once the game is over.

Actions are ``Discrete(n**4)``: ``from * n**2 + to``, squares ``rank * n + file`` (a1 = 0), as
``Game.action("d1-d3")`` and ``Game.move_of(action)`` convert them.

Rewards come at the end only, from each agent's view: +1 for a win, -1 for a loss, 0 for a
draw (such as a rules' move limit). ``max_plies`` truncates an unfinished game after
that many plies from the start, with 0 for both. At the end, ``infos[agent]`` holds
``"winner"`` ("attackers", "defenders", or None) and ``"reason"`` (the core's, such as "king
escaped", or "max plies" for a truncation). ``env.unwrapped.game`` is the ``hnefi.Game``
being played.

Hnefi's engine as one agent, a random player as the other::

    import numpy as np
    import hnefi
    import hnefi.pettingzoo

    env = hnefi.pettingzoo.env(rules="brandubh", max_plies=200)
    env.reset(seed=0)
    engine, rng = hnefi.Engine(), np.random.default_rng(0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        elif agent == "attackers":
            game = env.unwrapped.game
            action = game.action(engine.analyse(game, nodes=2000).best)
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)

``python/examples/pettingzoo_engine.py`` is this example with its results printed.
"""

from __future__ import annotations

from typing import Any, Optional

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._hnefi import Game

__all__ = ["AGENTS", "env", "raw_env", "board_text"]

AGENTS = ("attackers", "defenders")


def env(rules: str = "copenhagen", **kwargs: Any) -> Any:
    """The environment with PettingZoo's usual wrappers for classic games: an illegal action
    ends the game, -1 for its agent and 0 for the other; an action outside ``Discrete(n**4)``
    raises AssertionError; ``reset()`` must come first. ``kwargs`` go to ``raw_env``."""
    environment: Any = raw_env(rules=rules, **kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


def board_text(game: Game) -> str:
    """The board as ``str(game)`` draws it (the last rank at the top), then the side to move
    or the outcome."""
    outcome = game.outcome
    return f"{game}{game.turn + ' to move' if outcome is None else outcome}"


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """Tafl as an AEC environment, without wrappers (see the module's docstring).

    ``rules``: a preset's name or an OpenTafl rules string; ``fen``: a start of the rules'
    size, else the rules' own; ``max_plies``: truncate after this many plies (None: play to
    the end, which every game reaches, as a position's third occurrence ends it);
    ``render_mode``: None or "ansi". Bad rules or a bad position raise ValueError here.
    """

    metadata = {
        "render_modes": ["ansi"],
        "name": "hnefi_tafl_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "copenhagen",
        fen: Optional[str] = None,
        max_plies: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        EzPickle.__init__(self, rules, fen, max_plies, render_mode)
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']} or None"
            )
        if max_plies is not None and max_plies < 1:
            raise ValueError(f"max_plies must be at least 1 or None, not {max_plies}")
        self.rules = rules
        self.start_fen = fen
        self.max_plies = max_plies
        self.render_mode = render_mode
        # Read the rules now, so that bad ones raise here and the spaces know the size.
        self.game = Game(rules, fen)
        n = self.game.size
        self.size = n
        self.agents = list(AGENTS)
        self.possible_agents = list(AGENTS)
        # One space object an agent, shared: the API test checks that each call gives the same.
        self.action_spaces = {agent: spaces.Discrete(n**4) for agent in AGENTS}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape=(4, n, n), dtype=np.uint8),
                    "action_mask": spaces.Box(0, 1, shape=(n**4,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self._reset_state()

    def _reset_state(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = {agent: 0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = self.game.turn

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r}: the agents are {self.possible_agents}")
        if agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent)
        ):
            mask = self.game.action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.size**4, dtype=np.int8)
        return {"observation": self.game.planes(), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """A new game from the start. Tafl has no chance: ``seed`` and ``options`` change
        nothing (seed the action spaces to sample reproducibly)."""
        self.game = Game(self.rules, self.start_fen)
        self._reset_state()

    def step(self, action: Optional[int]) -> None:
        """Plays ``action`` for ``agent_selection``; None for an agent whose game is over.
        Unwrapped, an illegal action raises ValueError and nothing changes."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(
                f"the {agent} are to move: None is only for an agent whose game is over"
            )
        self.game.play_action(int(action))
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        outcome = self.game.outcome
        if outcome is not None:
            for a in self.agents:
                self.terminations[a] = True
                self.rewards[a] = 0 if outcome.winner is None else 1 if outcome.winner == a else -1
                self.infos[a] = {"winner": outcome.winner, "reason": outcome.reason}
        elif self.max_plies is not None and len(self.game.moves) >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"winner": None, "reason": "max plies"}
        self._accumulate_rewards()
        # Once the game is over the side "to move" still names the other agent: it steps out
        # first, then the mover.
        self.agent_selection = self.game.turn

    def render(self) -> Optional[str]:
        """The board as text in "ansi" mode (see ``board_text``); a warning without a mode."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode: pass render_mode='ansi'"
            )
            return None
        return board_text(self.game)

    def close(self) -> None:
        pass

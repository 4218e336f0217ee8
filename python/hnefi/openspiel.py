"""Tafl as an OpenSpiel game, written in Python over Hnefi's core as OpenSpiel's own Python
games are (``open_spiel/python/games``).

Importing this module registers the game as ``"python_hnefi_tafl"``; then
``pyspiel.load_game("python_hnefi_tafl(rules=brandubh,max_plies=200)")`` loads it, and
OpenSpiel's algorithms (C++ ones too) play it. Parameters:

- ``rules`` (string, default "copenhagen"): a preset's name, such as "brandubh" (7x7),
  "tablut" (9x9), "copenhagen" (11x11) or "copenhagen-13" (13x13), or an OpenTafl rules
  string ("dim:9 esc:e ... start:/.../"), which OpenSpiel's game strings carry as it is.
- ``max_plies`` (int, default 400): the game ends as a draw after this many plies, which
  gives OpenSpiel the finite ``max_game_length`` it needs (random Copenhagen games run to
  a thousand plies and more).

Player 0 is the attackers, player 1 the defenders, whoever opens: the rules say (the
attackers on most boards, the defenders on Brandubh), and ``current_player()`` follows them.

Actions are ``from * n**2 + to`` of n**4 distinct ones, squares ``rank * n + file`` (a1 = 0),
as ``hnefi.Game.action`` and ``move_of`` convert them; an action's string is its move text,
"d1-d3". Returns are +1 for the winner and -1 for the loser at the end, 0 each for a draw (by
the rules or at ``max_plies``).

The observation tensor is ``hnefi.Game.planes()`` as float32, shape (4, n, n): attackers,
defenders, the king, and a plane all 1 when the attackers are to move; the same for both
players. The observation string is the board (`str(game)`: a attacker, d defender, k king, rank n
at the top) with the side to move; the information state string is the history of actions.

>>> import pyspiel, hnefi.openspiel
>>> game = pyspiel.load_game("python_hnefi_tafl", {"rules": "brandubh"})
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(1, 24)
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ._hnefi import Game

__all__ = [
    "GAME_TYPE", "SHORT_NAME", "PLAYERS", "TaflGame", "TaflState", "TaflObserver", "board_text"
]

SHORT_NAME = "python_hnefi_tafl"
DEFAULT_PARAMS: dict[str, Any] = {"rules": "copenhagen", "max_plies": 400}
PLAYERS = ("attackers", "defenders")

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Hnefi Tafl",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def board_text(game: Game) -> str:
    """The board as ``str(game)`` draws it (the last rank at the top), then the side to move
    or the outcome."""
    outcome = game.outcome
    return f"{game}{game.turn + ' to move' if outcome is None else outcome}"


class TaflGame(pyspiel.Game):  # type: ignore[misc]
    """The game: ``params`` as in the module's docstring, the defaults for those left out.
    Unknown parameters, rules Hnefi cannot read and a ``max_plies`` under 1 raise ValueError."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(DEFAULT_PARAMS))
        if unknown:
            raise ValueError(
                f"unknown parameters {unknown}: {SHORT_NAME} takes {sorted(DEFAULT_PARAMS)}"
            )
        merged = {**DEFAULT_PARAMS, **given}
        rules, max_plies = merged["rules"], merged["max_plies"]
        if not isinstance(rules, str):
            raise ValueError(f"rules must be a string, not {rules!r}")
        if not isinstance(max_plies, int) or max_plies < 1:
            raise ValueError(f"max_plies must be an integer of at least 1, not {max_plies!r}")
        size = Game(rules).size  # ValueError, with the core's message, for unknown rules
        info = pyspiel.GameInfo(
            num_distinct_actions=size**4,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_plies,
        )
        super().__init__(GAME_TYPE, info, merged)
        self.rules: str = rules
        self.max_plies: int = max_plies
        self.size: int = size

    def new_initial_state(self) -> TaflState:
        """The rules' start, its side to move."""
        return TaflState(self)

    def make_py_observer(
        self, iig_obs_type: Optional[pyspiel.IIGObservationType] = None, params: Any = None
    ) -> Any:
        """The board observer for observations; the history of actions for information states
        (tafl has no hidden information: the history is all a player could recall)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return TaflObserver(self.size, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _GameBox:
    """Holds a state's ``hnefi.Game``. OpenSpiel serializes a Python state by pickling its
    attributes and clones it by copying them deeply: a Game pickles as its rules and moves,
    replayed (so repetitions still count), and copies in the core, without a replay."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: Any) -> _GameBox:
        return _GameBox(self.game.copy())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, (self.game.rules, self.game.moves))


def _replay(rules: str, moves: list[str]) -> _GameBox:
    game = Game(rules)
    for move in moves:
        game.play(move)
    return _GameBox(game)


class TaflState(pyspiel.State):  # type: ignore[misc]
    """A position of a game, and the moves to it. ``state.game`` is its ``hnefi.Game``, to
    read (a move played on it directly would bypass OpenSpiel's history)."""

    def __init__(self, game: TaflGame) -> None:
        super().__init__(game)
        self._box = _GameBox(Game(game.rules))
        self._max_plies = game.max_plies
        self._plies = 0
        # OpenSpiel asks for the player and the end several times a move (MCTS: tens of
        # thousands of times a search), so both are kept rather than asked of the core.
        self._update()

    @property
    def game(self) -> Game:
        return self._box.game

    def _update(self) -> None:
        game = self.game
        self._terminal = game.outcome is not None or self._plies >= self._max_plies
        if self._terminal:
            self._player = int(pyspiel.PlayerId.TERMINAL)
        else:
            self._player = PLAYERS.index(game.turn)

    def current_player(self) -> int:
        """0 for the attackers, 1 for the defenders, or TERMINAL."""
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player:
            return []
        return sorted(self.game.legal_actions())

    def _apply_action(self, action: int) -> None:
        # ValueError, with the move and the reason, for an illegal action; the state is kept.
        self.game.play_action(int(action))
        self._plies += 1
        self._update()

    def _action_to_string(self, player: int, action: int) -> str:
        return self.game.move_of(int(action))

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser; 0 each during the game and for a draw."""
        outcome = self.game.outcome
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == "attackers" else [-1.0, 1.0]

    def __str__(self) -> str:
        return board_text(self.game)


class TaflObserver:
    """The board as OpenSpiel's observer interface wants it: ``tensor``, a flat float32 view
    of ``dict["observation"]``, (4, n, n) as ``hnefi.Game.planes()``."""

    def __init__(self, size: int, params: Any = None) -> None:
        if params:
            raise ValueError(f"{SHORT_NAME}'s observer takes no parameters, given {params}")
        self.tensor = np.zeros(4 * size * size, np.float32)
        self.dict = {"observation": self.tensor.reshape(4, size, size)}

    def set_from(self, state: TaflState, player: int) -> None:
        # Write through the view: OpenSpiel reads ``tensor``, which it shares.
        self.dict["observation"][...] = state.game.planes()

    def string_from(self, state: TaflState, player: int) -> str:
        return board_text(state.game)


# Registering twice would fail, as on a reload of this module.
if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, TaflGame)

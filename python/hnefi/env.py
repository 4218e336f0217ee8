"""TaflEnv: tafl as a Gymnasium environment, on any board and rules Hnefi plays.

Importing this module registers the environment as ``"hnefi/Tafl-v0"``, so that
``gymnasium.make("hnefi/Tafl-v0", rules="tablut")`` works after ``import hnefi.env``, and
``gymnasium.make("hnefi.env:hnefi/Tafl-v0", ...)`` works with no import at all (Gymnasium
imports the module named before the colon).
"""

from __future__ import annotations

import functools
import operator
import textwrap
from collections.abc import Sequence
from importlib import resources
from typing import Any, Callable, Optional, Union

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ._hnefi import Engine, Game, Outcome

__all__ = ["TaflEnv", "ENV_ID", "Opponent", "Openings"]

ENV_ID = "hnefi/Tafl-v0"
"""The id under which importing this module registers TaflEnv with Gymnasium."""

Opponent = Union[Engine, Callable[[Game], Union[str, int]]]
"""An ``hnefi.Engine``, or a callable taking the Game and giving a move text or an action."""

Openings = Union[str, Sequence[Union[str, Sequence[str]]]]
"""``"real"``, or a list of openings, each a line of moves ("d1-d3 e5-e2") or a list of them."""

Observation = npt.NDArray[np.uint8]
Action = Union[int, np.integer[Any]]

_ILLEGAL = ("lose", "raise")
_SIDES = ("attackers", "defenders")
_SQUARE_PX = 16


def _other(side: str) -> str:
    return "defenders" if side == "attackers" else "attackers"


@functools.lru_cache(maxsize=None)
def _book_lines(rules: str) -> tuple[str, ...]:
    """The lines of the book of real games' openings shipped for ``rules``, read once a
    process (a vector env of many copies reads it once)."""
    book = resources.files("hnefi") / "openings" / f"{rules}.txt"
    if not book.is_file():
        shipped = sorted(
            entry.name[: -len(".txt")]
            for entry in (resources.files("hnefi") / "openings").iterdir()
            if entry.name.endswith(".txt")
        )
        raise ValueError(
            f"openings='real': no book of real games' openings is shipped for rules '{rules}' "
            f"(there is one for: {', '.join(shipped) or 'none'}); pass a list of openings, "
            "or random_plies, instead"
        )
    lines = (line.strip() for line in book.read_text(encoding="utf-8").splitlines())
    return tuple(line for line in lines if line and not line.startswith("#"))


@functools.lru_cache(maxsize=None)
def _book_actions(rules: str) -> tuple[tuple[int, ...], ...]:
    # Read and checked once; each reset then replays integers, with no move text to parse.
    return _openings_as_actions(_book_lines(rules), rules, None)


def _openings_as_actions(
    openings: Sequence[Union[str, Sequence[str]]], rules: str, fen: Optional[str]
) -> tuple[tuple[int, ...], ...]:
    """Each opening replayed from the start and turned into actions; ValueError naming the
    first one that cannot be played or that ends the game."""
    openings = list(openings)
    if not openings:
        raise ValueError("openings is empty: give at least one opening, or None")
    books = []
    for index, opening in enumerate(openings):
        moves = opening.split() if isinstance(opening, str) else list(opening)
        game = Game(rules, fen)
        actions = []
        for move in moves:
            if not isinstance(move, str):
                raise ValueError(f"opening {index} ({opening!r}): move {move!r} is not a text")
            try:
                actions.append(game.action(move))
                game.play(move)
            except ValueError as error:
                raise ValueError(f"opening {index} ({' '.join(moves)}): {error}") from None
        if game.outcome is not None:
            raise ValueError(
                f"opening {index} ({' '.join(moves)}) ends the game ({game.outcome}): "
                "there is nothing left to play"
            )
        books.append(tuple(actions))
    return tuple(books)


class TaflEnv(gym.Env[Observation, Action]):
    """A game of tafl as a Gymnasium environment, on any rules and board (7x7 to 13x13).

    **Actions** are ``from * n**2 + to``, squares indexed ``rank * n + file`` (a1 = 0): a fixed
    ``Discrete(n**4)`` space of which ``info["action_mask"]`` (bool, shape ``(n**4,)``) marks
    the legal ones. ``info["to_play"]`` is the side to move, "attackers" or "defenders".

    **Observations** are ``Game.planes()``: uint8 of shape ``(4, n, n)``, indexed
    ``[plane, rank, file]`` with a1 at ``[:, 0, 0]``. Plane 0 holds the attackers, 1 the
    defenders (the king not among them), 2 the king, and 3 the side to move: all ones when the
    attackers are to move, all zeros when the defenders are.

    **Rewards.** Without an opponent each step plays a move for the side to move (self-play)
    and the reward is the mover's: +1 when its move won, -1 when it lost, 0 otherwise (a
    draw included). With an ``opponent`` (an ``hnefi.Engine``, searched within
    ``opponent_limits``, or a callable taking the Game and giving a move text or action), the
    agent plays ``agent_side``, the opponent answers inside ``step`` (and moves first, inside
    ``reset``, when it is its turn), and the reward is the agent's.

    **Illegal actions.** ``illegal="lose"`` (the default, and what Gymnasium's ``check_env``
    needs, as it samples actions without the mask): the mover loses, the reward is -1, the
    episode terminates with the board unchanged, and info has ``"winner"``, ``"reason"``
    ("illegal action"), ``"illegal_action"`` (the action) and ``"error"`` (why it is not
    legal). ``illegal="raise"``: ValueError, and the game stays as it was.

    **Episode ends.** A terminal step's info has ``"winner"`` ("attackers", "defenders" or
    None for a draw), ``"reason"`` (the ``Outcome``'s, such as "king captured", or "illegal
    action") and ``"result"`` (a sentence: "attackers win: the king was captured"), all plain
    values that an async vector env can send between processes (the ``hnefi.Outcome`` itself
    is ``env.game.outcome``). Its mask is all False, as nothing may be played, and a step
    after it raises ValueError: call ``reset()``. ``max_plies`` truncates a game once that
    many plies (the opponent's included, the opening's not) have been played since ``reset``;
    the truncated step's mask is the position's.

    **Starts.** Each ``reset`` starts from ``fen`` (else the rules' start), then plays one of
    ``openings`` chosen at random, then ``random_plies`` random legal plies (each chosen
    among the moves that do not end the game). ``openings`` is None, ``"real"`` (the book of
    the real games' first six plies shipped for the rules: Copenhagen 11x11, made by
    ``python/scripts/make_openings.py`` from ``data/copenhagen.csv``) or a list of openings,
    each a line of moves ("d1-d3 e5-e2") or a list of move texts. Every choice draws from
    ``self.np_random``, so that ``reset(seed=s)`` gives the same start for the same ``s``.

    **Rendering.** ``render_mode="ansi"``: the board as text (the last rank at the top, files
    from a at the bottom; ``a`` attacker, ``d`` defender, ``k`` king, ``.`` empty), whose turn
    or the result, and the moves. ``"rgb_array"``: the board as an image, uint8 of shape
    ``(16 n, 16 n, 3)``.

    **Registration.** Importing ``hnefi.env`` registers the env as ``"hnefi/Tafl-v0"``:
    ``gymnasium.make("hnefi/Tafl-v0", rules="tablut")`` after ``import hnefi.env``, or
    ``gymnasium.make("hnefi.env:hnefi/Tafl-v0", rules="tablut")`` with no import; the
    keywords are this constructor's.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        rules: str = "copenhagen",
        fen: Optional[str] = None,
        opponent: Optional[Opponent] = None,
        agent_side: str = "attackers",
        opponent_limits: Optional[dict[str, Any]] = None,
        max_plies: Optional[int] = None,
        render_mode: Optional[str] = None,
        illegal: str = "lose",
        openings: Optional[Openings] = None,
        random_plies: int = 0,
    ) -> None:
        if agent_side not in _SIDES:
            raise ValueError(f"agent_side '{agent_side}' is neither 'attackers' nor 'defenders'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode '{render_mode}' is not one of {self.metadata['render_modes']}"
            )
        if illegal not in _ILLEGAL:
            raise ValueError(f"illegal '{illegal}' is neither 'lose' nor 'raise'")
        if max_plies is not None and (isinstance(max_plies, bool) or max_plies < 1):
            raise ValueError(f"max_plies must be None or at least 1, not {max_plies!r}")
        if isinstance(random_plies, bool) or not isinstance(random_plies, int) or random_plies < 0:
            raise ValueError(f"random_plies must be an int of at least 0, not {random_plies!r}")
        self.rules = rules
        self.start_fen = fen
        self.opponent = opponent
        self.agent_side = agent_side
        self.opponent_limits = dict(opponent_limits or {"nodes": 2000})
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.illegal = illegal
        self.random_plies = random_plies
        # Read the rules now, so that bad ones raise here and the spaces know the size.
        self.game = Game(rules, fen)
        if self.game.outcome is not None:
            raise ValueError(f"the start is already over ({self.game.outcome}): nothing to play")
        self._book: tuple[tuple[int, ...], ...] = ()
        if isinstance(openings, str):
            if openings != "real":
                raise ValueError(
                    f"openings '{openings}' is neither 'real' nor a list of openings "
                    "(for random ones, use random_plies)"
                )
            if fen is not None:
                raise ValueError(
                    "openings='real' plays the real games' openings from the rules' start: "
                    "it cannot be combined with fen"
                )
            self._book = _book_actions(self.game.rules)
        elif openings is not None:
            self._book = _openings_as_actions(openings, rules, fen)
        self.openings = openings
        n = self.game.size
        self.size = n
        self.observation_space = spaces.Box(0, 1, shape=(4, n, n), dtype=np.uint8)
        self.action_space = spaces.Discrete(n**4)
        self._plies = 0
        # Who won and why, once the episode has terminated (by the board or an illegal action).
        self._ended: Optional[dict[str, Any]] = None

    # ---- the episode ----

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game: ``fen`` or the rules' start, an opening, random plies, then the
        opponent's first move where it is to move. ``options`` takes no keys."""
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset takes no options, not {sorted(options)}")
        # An opponent that wins with its first move leaves no episode: draw another start,
        # where the start is drawn at all.
        tries = 100 if self._book or self.random_plies else 1
        for _ in range(tries):
            self._start()
            if self.opponent is not None and self.game.turn != self.agent_side:
                self._opponent_move()
            if self.game.outcome is None:
                return self._observe()
        raise ValueError(
            f"the opponent's first move ends the game ({self.game.outcome}) from "
            + ("every start drawn" if tries > 1 else "the start")
        )

    def _start(self) -> None:
        self.game = Game(self.rules, self.start_fen)
        self._plies = 0
        self._ended = None
        if self._book:
            for action in self._book[int(self.np_random.integers(len(self._book)))]:
                self.game.play_action(action)
        for _ in range(self.random_plies):
            if not self._play_random_ply():
                break

    def _play_random_ply(self) -> bool:
        """Plays a random legal move that does not end the game; False when there is none."""
        legal = self.game.legal_actions()
        for index in self.np_random.permutation(len(legal)):
            self.game.play_action(legal[index])
            if self.game.outcome is None:
                return True
            self.game.undo()
        return False

    def step(self, action: Action) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Plays ``action`` (and the opponent's answer, if there is one)."""
        if self._ended is not None:
            raise ValueError("the episode has terminated: call reset() before step()")
        try:
            index = operator.index(action)
        except TypeError:
            raise ValueError(f"action {action!r} is not an integer") from None
        mover = self.game.turn
        try:
            # Square indices straight to the core: no move text is spelt or read.
            self.game.play_action(index)
        except ValueError as error:
            if self.illegal == "raise":
                raise ValueError(f"illegal action {index}: {error}") from None
            try:
                played = f"illegal action {index} ({self.game.move_of(index)})"
            except ValueError:
                played = f"action {index}, outside the board's"
            self._ended = {
                "winner": _other(mover),
                "reason": "illegal action",
                "result": f"{_other(mover)} win: the {mover} played {played}",
                "illegal_action": index,
                "error": str(error),
            }
            observation, info = self._observe()
            return observation, -1.0, True, False, info
        self._plies += 1
        if self.opponent is not None and self.game.outcome is None:
            self._opponent_move()
        outcome = self.game.outcome
        terminated = outcome is not None
        if outcome is not None:
            self._ended = self._game_end(outcome)
        truncated = (
            not terminated and self.max_plies is not None and self._plies >= self.max_plies
        )
        observation, info = self._observe()
        return observation, self._reward(outcome, mover), terminated, truncated, info

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        # Every call builds new arrays and dicts: Gymnasium users may keep and modify them.
        info: dict[str, Any] = {"to_play": self.game.turn}
        if self._ended is None:
            info["action_mask"] = self.game.action_mask()
        else:
            info["action_mask"] = np.zeros(self.size**4, dtype=np.bool_)
            info.update(self._ended)
        return self.game.planes(), info

    @staticmethod
    def _game_end(outcome: Outcome) -> dict[str, Any]:
        return {"winner": outcome.winner, "reason": outcome.reason, "result": str(outcome)}

    @staticmethod
    def _reward(outcome: Optional[Outcome], side: str) -> float:
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == side else -1.0

    def _opponent_move(self) -> None:
        opponent = self.opponent
        if isinstance(opponent, Engine):
            move: Union[str, int, None] = opponent.analyse(self.game, **self.opponent_limits).best
        else:
            assert opponent is not None
            move = opponent(self.game)
        if move is None:
            raise ValueError("the opponent gave no move (None) in a game that goes on")
        try:
            if isinstance(move, (int, np.integer)):
                self.game.play_action(int(move))
            else:
                self.game.play(move)
        except ValueError as error:
            raise ValueError(f"the opponent's move {move!r} cannot be played: {error}") from None
        self._plies += 1

    # ---- rendering ----

    def render(self) -> Union[str, npt.NDArray[np.uint8], None]:
        """The frame of ``render_mode``: a text for "ansi", an RGB image for "rgb_array",
        None without a render mode."""
        if self.render_mode == "ansi":
            return self._text()
        if self.render_mode == "rgb_array":
            return self._image()
        return None

    def _status(self) -> str:
        if self._ended is None:
            return f"{self.game.turn} to move"
        return str(self._ended["result"])

    def _text(self) -> str:
        moves = " ".join(self.game.moves)
        listed = textwrap.fill(f"moves: {moves}" if moves else "moves: none", width=78)
        return f"{self.game}{self._status()}\n{listed}\n"

    def _image(self) -> npt.NDArray[np.uint8]:
        n, s = self.size, _SQUARE_PX
        planes = self.game.planes()
        # One tile's masks, drawn with numpy alone: a disc, its rim, and the king's mark.
        y, x = np.mgrid[0:s, 0:s]
        radius = np.hypot(y - (s - 1) / 2, x - (s - 1) / 2)
        disc = radius <= 0.4 * s
        rim = disc & (radius > 0.4 * s - 1.2)
        mark = radius <= 0.17 * s
        image = np.empty((n * s, n * s, 3), dtype=np.uint8)
        for rank in range(n):
            row = n - 1 - rank  # the last rank at the top, as the board is shown
            for file in range(n):
                tile = image[row * s : (row + 1) * s, file * s : (file + 1) * s]
                tile[:] = (222, 190, 140) if (rank + file) % 2 else (200, 160, 110)
                tile[0, :] = tile[:, 0] = (150, 115, 75)
                if planes[0, rank, file]:
                    tile[disc] = (30, 30, 30)
                elif planes[1, rank, file] or planes[2, rank, file]:
                    tile[disc] = (245, 245, 240)
                    tile[rim] = (30, 30, 30)
                    if planes[2, rank, file]:
                        tile[mark] = (200, 40, 40)
        return image


# Registered once a process: a second import (a reload) would only warn of overriding it.
if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="hnefi.env:TaflEnv")

"""Types of the compiled module: the classes over Hnefi's core crate."""

import os
from typing import Any, Optional, Union, final

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

__all__ = ["Analysis", "Batch", "Engine", "Game", "Outcome", "__version__"]

__version__: str
"""The version of the hnefi package (its crate's)."""

@final
class Outcome:
    """How a game ended: ``str(outcome)`` reads e.g. "defenders win: the king escaped"."""

    @property
    def winner(self) -> Optional[str]:
        """"attackers", "defenders", or None for a draw."""
    @property
    def reason(self) -> str:
        """A short label: "king escaped", "king captured", "encirclement", "repetition", ..."""
    def __eq__(self, value: object, /) -> bool: ...

@final
class Game:
    """A game of tafl under any rules, on a board of 7x7 to 13x13.

    ``rules`` is a preset's name ("copenhagen", "brandubh", "tablut", "copenhagen-13", ...) or
    an OpenTafl rules string; ``fen`` a FEN or OpenTafl position of the rules' size, else the
    rules' start. Unknown rules or a bad position raise ValueError with the command line's
    message.
    """

    def __new__(cls, rules: str = "copenhagen", fen: Optional[str] = None) -> Self: ...
    @staticmethod
    def from_record(text: str, rules: Optional[str] = None) -> Game:
        """A game read from one line of the community's record format, the format of
        ``data/copenhagen.csv``: ``moves,attacker_captures,defender_captures,result`` with
        moves such as ``g3-e3xe2``, and optionally the rules and the start (a FEN) as fifth
        and sixth fields. Every move is replayed and checked. The rules are the line's fifth
        field, else ``rules`` (a preset's name or an OpenTafl rules string), else Copenhagen;
        ``rules`` that differ from the line's are refused. ValueError, with the core's
        message, for a line that cannot be read, several lines, or a move that cannot be
        played ("move 12 (g3-e3): not legal for the attackers here")."""
    def to_record(self) -> str:
        """The game as one line of the community's record format, which ``from_record`` reads
        back: the moves with the captures they made, each side's captures, and the result
        ("Black" the attackers won, "White" the defenders, "Draw", "Ongoing"; the one the game
        was read with, such as a resignation, until a move is played or taken back). Rules
        other than Copenhagen follow as a fifth field, a start other than theirs as a sixth."""
    @staticmethod
    def from_otg(text: str) -> Game:
        """A game read from the text of an OpenTafl saved game (``.otg``): the rules from its
        ``rules`` tag (else Copenhagen), the start from the rules' ``start:``, and the main
        line's moves, each replayed and checked (side variations and commentary are left
        out). ValueError, with the core's message, for text that cannot be read or a move
        that cannot be played."""
    def to_otg(self) -> str:
        """The game as OpenTafl saves it (``.otg``), which ``from_otg`` reads back: the
        ``rules`` tag (an OpenTafl rules string with the start), the players where the game
        was read with them, ``result``, and a numbered line a turn."""
    def legal_moves(self) -> list[str]:
        """The legal moves as "d1-d3" strings; empty once the game is over."""
    def play(self, move: str, /) -> None:
        """Plays ``move`` ("d1-d3" or "d1d3"); an illegal one raises ValueError and the game
        stays as it was."""
    def undo(self) -> None:
        """Takes back the last move; ValueError when none has been played."""
    @property
    def turn(self) -> str:
        """The side to move: "attackers" or "defenders"."""
    @property
    def outcome(self) -> Optional[Outcome]:
        """None while the game goes on, else the winner and the reason."""
    @property
    def fen(self) -> str:
        """The position as a FEN (ranks from the last, a/d/k, digits, side to move)."""
    @property
    def size(self) -> int:
        """The board's side: 7, 9, 11 or 13."""
    @property
    def rules(self) -> str:
        """The rules' name: the preset's ("copenhagen"), or the OpenTafl rules string."""
    @property
    def moves(self) -> list[str]:
        """The moves played since the start."""
    def copy(self) -> Game:
        """An independent game with the same start, moves and rules (a copy of the core's
        game, not a replay)."""
    def __str__(self) -> str:
        """The board as text, the last rank at the top: ``a`` attackers, ``d`` defenders,
        ``k`` the king, ``+`` an empty corner or throne, ``.`` other empty squares, the
        files' letters below."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def perft(self, depth: int) -> int:
        """The leaves of the legal move tree ``depth`` plies deep, as ``hnefi perft`` counts
        them. Releases the GIL."""
    def planes(self) -> npt.NDArray[np.uint8]:
        """The position, uint8 of shape (4, n, n): attackers, defenders, king, and the side
        to move (all 1 when the attackers are to move, all 0 when the defenders are); indexed
        [plane, rank, file] with a1 at [plane, 0, 0]. A fresh, writable array."""
    def legal_actions(self) -> list[int]:
        """The legal moves as actions ``from * n**2 + to``, squares ``rank * n + file``, in the
        order of ``legal_moves()``."""
    def play_action(self, action: int, /) -> None:
        """Plays the move of an action, without its text; ValueError for an action outside
        ``range(n**4)`` or a move not legal here, and the game stays as it was."""
    def action(self, move: str) -> int:
        """The action of a move text; ValueError if it cannot be read on this board."""
    def move_of(self, action: int) -> str:
        """The move text of an action; ValueError outside ``range(n**4)``."""
    def action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of n**4 actions, True at each legal one."""

@final
class Batch:
    """Many games of one board and rules stepped together: one call a ply for all of them,
    the games spread over the cores, numpy arrays in and out.

    Every game starts from the rules' start (or ``fen``); ``max_plies`` truncates a game;
    ``seed`` seeds ``sample()``, one stream a game. Actions are ``Game``'s,
    ``from * n**2 + to``. A finished game stays finished until ``reset`` names it.
    """

    def __new__(
        cls,
        count: int,
        rules: str = "copenhagen",
        fen: Optional[str] = None,
        max_plies: Optional[int] = None,
        seed: int = 0,
    ) -> Self: ...
    def __len__(self) -> int: ...
    @property
    def size(self) -> int:
        """The board's side: 7, 9, 11 or 13."""
    def step(
        self, actions: Union[npt.ArrayLike, list[int]]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Plays one action a game. Returns the reward of each game's mover (+1 won, -1 lost,
        else 0), which games the rules ended, and which the ply limit did. ValueError, with no
        game changed, for actions not one a game, out of range, not legal, or for a finished
        game."""
    def reset(self, games: Optional[Union[npt.ArrayLike, list[int]]] = None) -> None:
        """Starts the games of these indices (every game if None) again."""
    def sample(self) -> npt.NDArray[np.int64]:
        """A legal action of each game drawn uniformly from the game's own seeded stream,
        -1 for a finished game: random play without listing the moves."""
    def legal_actions(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The legal actions, shape (count, most), each row's own (in the order of
        ``Game.legal_actions()``) then -1; and how many each game has (0 when finished)."""
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Bool of shape (count, n**4), True at each legal action; all False when finished."""
    def observations(self) -> npt.NDArray[np.uint8]:
        """The positions as ``Game.planes()`` gives them, shape (count, 4, n, n)."""
    def game(self, index: int) -> Game:
        """Game ``index`` as a Game of its own: its moves, position and outcome."""

@final
class Analysis:
    """What a search found."""

    @property
    def best(self) -> Optional[str]:
        """The move to play, or None when the game is over."""
    @property
    def score(self) -> int:
        """Centipawns from the attackers' view, whoever is to move; a win is 30,000 less the
        plies to it."""
    @property
    def win_in(self) -> Optional[int]:
        """Plies to the end where the search saw it: positive, the attackers win."""
    @property
    def pv(self) -> list[str]:
        """The expected line, the best move first."""
    @property
    def depth(self) -> int:
        """The depth of the last iteration."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""

@final
class Engine:
    """Hnefi's search: alpha-beta with its NNUE networks, on any board.

    ``threads`` search threads (1 to 256) and a table of ``hash_mb`` MiB; ``level`` its
    strength, from 0 (a beginner can win) to 20 (full strength, the default), as the command
    line's ``Skill Level``; ``eval_file`` a network file of ``hnefi train`` to evaluate with
    (its ``EvalFile``), read now; on boards of another size than the network's, and without
    one, the network built in for the board and rules plays. ValueError for settings that
    cannot be had (threads or a level out of range, a file that is no network of this build),
    and the OSError of the reason (FileNotFoundError, ...) for a file that cannot be read. A
    table larger than memory raises ValueError at the first search, which allocates it.
    """

    def __new__(
        cls,
        threads: int = 1,
        hash_mb: int = 16,
        level: int = 20,
        eval_file: Union[str, os.PathLike[str], None] = None,
    ) -> Self: ...
    def analyse(
        self,
        game: Game,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> Analysis:
        """Searches ``game`` until the first limit reached (``movetime`` in milliseconds,
        ``depth`` in plies, ``nodes``) or ``stop()``; without a limit, until ``stop()``.
        Releases the GIL while it searches; Ctrl-C (KeyboardInterrupt) ends it at the
        search's next finished iteration."""
    def stop(self) -> None:
        """Stops the running search from any thread; it answers with its best move so far.
        A stop before a search begins is forgotten when it begins."""
    def clear(self) -> None:
        """Forgets what earlier searches learnt (for a new game)."""

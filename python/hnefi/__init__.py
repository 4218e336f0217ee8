"""Tafl in Python: Hnefi's exact rules on every board from 7x7 to 13x13, its engine, and a
Gymnasium environment, all running in the compiled core crate (nothing of the rules is
written in Python).

>>> import hnefi
>>> game = hnefi.Game()                      # Copenhagen Hnefatafl, 11x11
>>> len(game.legal_moves())
116
>>> game.play("d1-d3")
>>> game.turn
'defenders'
"""

from __future__ import annotations

import sys as _sys
from typing import TYPE_CHECKING, Any

from ._hnefi import Analysis, Batch, Engine, Game, Outcome, __version__

if TYPE_CHECKING:
    from .env import TaflEnv

__all__ = ["Game", "Batch", "Engine", "Outcome", "Analysis", "TaflEnv", "__version__"]


def __getattr__(name: str) -> Any:
    # Gymnasium takes a few hundred milliseconds to import: only users of the environment pay.
    if name == "TaflEnv":
        from .env import TaflEnv

        return TaflEnv
    raise AttributeError(f"module 'hnefi' has no attribute {name!r}")


# gymnasium.make("hnefi:hnefi/Tafl-v0") imports this package to have the environment
# registered: register it then, and only then, so that `import hnefi` alone never imports
# Gymnasium.
if "gymnasium" in _sys.modules:
    from . import env as _env  # noqa: F401

"""Shared fixtures: the boards every test runs on, and the `hnefi` binary when there is one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Optional

import pytest

REPO = Path(__file__).resolve().parents[2]

# One preset a board size: 7x7, 9x9, 11x11, 13x13.
BOARDS = ["brandubh", "tablut", "copenhagen", "copenhagen-13"]
SIDES = {"brandubh": 7, "tablut": 9, "copenhagen": 11, "copenhagen-13": 13}


def hnefi_binary() -> Optional[str]:
    """The command line to compare with: $HNEFI_BIN, this repository's release build, or
    `hnefi` on the PATH; None when there is none, and the tests that need it skip."""
    named = os.environ.get("HNEFI_BIN")
    if named:
        return named
    built = REPO / "target" / "release" / "hnefi"
    if built.is_file() and os.access(built, os.X_OK):
        return str(built)
    return shutil.which("hnefi")


@pytest.fixture(params=BOARDS)
def rules(request: pytest.FixtureRequest) -> str:
    return str(request.param)

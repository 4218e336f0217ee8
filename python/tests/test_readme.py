"""python/README.md's examples, run as doctests from the repository root: each output shown
is the one the example prints today."""

from __future__ import annotations

import doctest

import pytest

from conftest import REPO

# The README shows every interface: without the extras its examples cannot run.
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")


def test_the_readme_examples_print_what_it_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the records example opens data/copenhagen.csv
    failures, tried = doctest.testfile(
        str(REPO / "python" / "README.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert tried > 20, "the README's examples were found"
    assert failures == 0, "python/README.md: an example printed something else (above)"

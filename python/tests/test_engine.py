"""The Engine: legal answers on every board, and a stop from another thread."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import hnefi
from conftest import REPO


def test_analyse_returns_a_legal_move(rules: str) -> None:
    game = hnefi.Game(rules)
    engine = hnefi.Engine()
    analysis = engine.analyse(game, depth=3)
    assert analysis.best in game.legal_moves()
    assert analysis.pv[0] == analysis.best
    assert analysis.depth >= 1 and analysis.nodes > 0
    assert isinstance(analysis.score, int)


def test_analyse_by_nodes_and_time() -> None:
    game = hnefi.Game()
    game.play("d1-d3")
    engine = hnefi.Engine()
    assert engine.analyse(game, nodes=1000).best in game.legal_moves()
    assert engine.analyse(game, movetime=20).best in game.legal_moves()


def test_a_finished_game_has_no_best_move() -> None:
    # The king one step from the corner a1; the defenders move it there.
    game = hnefi.Game("copenhagen", "11/11/11/11/11/11/11/11/11/1k9/9aa d")
    for move in ("b2-a2", "k1-k2", "a2-a1"):
        game.play(move)
    assert game.outcome is not None and game.outcome.winner == "defenders"
    assert hnefi.Engine().analyse(game, depth=2).best is None


def test_stop_ends_an_unlimited_search_from_another_thread() -> None:
    game = hnefi.Game()
    engine = hnefi.Engine()
    answer: list[hnefi.Analysis] = []
    searching = threading.Thread(target=lambda: answer.append(engine.analyse(game)))
    searching.start()
    # The search runs without a limit: only stop() ends it. Stop until it has, since a stop
    # that comes before the search began is forgotten when it begins.
    while searching.is_alive():
        engine.stop()
        searching.join(timeout=0.05)
    assert answer[0].best in game.legal_moves()


def test_bad_settings_raise() -> None:
    with pytest.raises(ValueError):
        hnefi.Engine(threads=0)
    for movetime in (-1, float("nan"), float("inf"), 1e300):
        with pytest.raises(ValueError, match="movetime"):
            hnefi.Engine().analyse(hnefi.Game(), movetime=movetime)


def test_ctrl_c_ends_an_unlimited_search() -> None:
    import os
    import signal

    game = hnefi.Game()
    engine = hnefi.Engine()
    # A shell starts a background job with SIGINT ignored, and Python keeps it so: give the
    # signal Python's own handler, or a test run in the background would search forever.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # Whenever the signal lands, before or during the search, KeyboardInterrupt comes out
        # of this block: the search without a limit ends only because of it.
        with pytest.raises(KeyboardInterrupt):
            threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT)).start()
            engine.analyse(game)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert engine.analyse(game, depth=2).best in game.legal_moves()


def test_threads_are_capped() -> None:
    with pytest.raises(ValueError, match="threads must be at most 256, not 257"):
        hnefi.Engine(threads=257)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        hnefi.Engine(threads=-1)
    with pytest.raises(ValueError, match="hash_mb must be at least 1"):
        hnefi.Engine(hash_mb=-1)
    with pytest.raises(ValueError, match="hash_mb must be at least 1, not 0"):
        hnefi.Engine(hash_mb=0)


def test_bad_limits_are_value_errors_that_say_what_would_do() -> None:
    game = hnefi.Game("brandubh")
    engine = hnefi.Engine()
    for kwargs, message in [
        ({"depth": -1}, "depth must be at least 1, not -1"),
        ({"depth": 0}, "depth must be at least 1, not 0"),
        ({"nodes": -5}, "nodes must be at least 1, not -5"),
    ]:
        with pytest.raises(ValueError, match=message):
            engine.analyse(game, **kwargs)


@pytest.mark.parametrize("level", [0, 1, 10])
def test_a_weak_level_still_plays_legal_moves(rules: str, level: int) -> None:
    game = hnefi.Game(rules)
    engine = hnefi.Engine(level=level)
    for _ in range(3):
        analysis = engine.analyse(game, depth=4)
        assert analysis.best in game.legal_moves()
        game.play(analysis.best)


def test_a_level_out_of_range_raises() -> None:
    with pytest.raises(ValueError, match=r"level 21 is outside 0\.\.20"):
        hnefi.Engine(level=21)
    with pytest.raises(ValueError, match="a level is a whole number from 0 to 20"):
        hnefi.Engine(level=-1)


def test_an_eval_file_is_read(tmp_path: Path) -> None:
    # The network built in for Brandubh, read from its file as `EvalFile` reads it.
    net = REPO / "hnefi-core" / "src" / "search" / "nnue" / "brandubh.nnue"
    for path in (net, str(net)):
        engine = hnefi.Engine(eval_file=path)
        game = hnefi.Game("brandubh")
        assert engine.analyse(game, depth=3).best in game.legal_moves()
    # On a board of another size, the network built in for it plays.
    game = hnefi.Game("copenhagen")
    assert hnefi.Engine(eval_file=net).analyse(game, depth=2).best in game.legal_moves()


def test_a_bad_eval_file_raises_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.nnue"
    with pytest.raises(FileNotFoundError, match="cannot read net file .*missing.nnue"):
        hnefi.Engine(eval_file=missing)
    with pytest.raises(IsADirectoryError, match="cannot read net file"):
        hnefi.Engine(eval_file=tmp_path)
    junk = tmp_path / "junk.nnue"
    junk.write_bytes(b"not a network at all")
    with pytest.raises(ValueError, match="not a Hnefi net file"):
        hnefi.Engine(eval_file=junk)


def test_the_package_says_its_version() -> None:
    assert hnefi.__version__.count(".") == 2, hnefi.__version__

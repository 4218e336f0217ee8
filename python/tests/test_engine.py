"""The Engine: legal answers on every board, and a stop from another thread."""

from __future__ import annotations

import threading

import pytest

import hnefi


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
    # Whenever the signal lands, before or during the search, KeyboardInterrupt comes out of
    # this block: the search without a limit ends only because of it.
    with pytest.raises(KeyboardInterrupt):
        threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT)).start()
        engine.analyse(game)
    assert engine.analyse(game, depth=2).best in game.legal_moves()

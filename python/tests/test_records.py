"""Records: the community's format of data/copenhagen.csv and OpenTafl's .otg, read and
written by the core crate."""

from __future__ import annotations

import pytest

import hnefi
from conftest import BOARDS, REPO

REAL_GAMES = (REPO / "data" / "copenhagen.csv").read_text().splitlines()


def test_a_real_game_reads_replays_and_writes_back() -> None:
    # Line 63 of data/copenhagen.csv: a whole game, won by the defenders' exit fort.
    line = REAL_GAMES[62]
    game = hnefi.Game.from_record(line)
    assert game.rules == "copenhagen" and game.size == 11
    moves = line.split(",")[0].split()
    assert len(game.moves) == len(moves) > 40
    assert game.outcome is not None and game.outcome.winner == "defenders"
    assert game.outcome.reason == "exit fort"
    assert line.endswith(",White")
    # Replayed move by move, the same game; written, the same line.
    replayed = hnefi.Game()
    for move in game.moves:
        replayed.play(move)
    assert replayed.fen == game.fen
    assert game.to_record() == line
    assert replayed.to_record() == line


def test_every_real_game_reads_but_those_that_repeat_thrice() -> None:
    # As tests/replay.rs checks the core: Copenhagen's rules end 11 of the real games at a
    # third repetition before their last move; the others read, and write back the same game
    # (byte for byte but for captures written in another order or twice).
    refused = []
    same = 0
    for number, line in enumerate(REAL_GAMES, 1):
        try:
            game = hnefi.Game.from_record(line)
        except ValueError as error:
            assert "the game was over before it" in str(error)
            refused.append(number)
            continue
        written = game.to_record()
        same += written == line
        back = hnefi.Game.from_record(written)
        assert back.moves == game.moves and back.to_record() == written
    assert len(refused) == 11
    assert same == 1434


def test_a_resignation_is_kept_until_the_game_goes_on() -> None:
    game = hnefi.Game.from_record("d1-d3 e5-e2,0,0,Black")
    assert game.outcome is None
    assert game.to_record() == "d1-d3 e5-e2,0,0,Black"
    game.undo()
    assert game.to_record() == "d1-d3,0,0,Ongoing"


def test_records_of_every_board(rules: str) -> None:
    game = hnefi.Game(rules)
    for _ in range(6):
        game.play(game.legal_moves()[len(game.legal_moves()) // 2])
    line = game.to_record()
    if rules != "copenhagen":
        assert line.endswith("," + rules)
    back = hnefi.Game.from_record(line)
    assert (back.fen, back.moves, back.rules) == (game.fen, game.moves, game.rules)
    # The rules of a line that names none are the caller's.
    bare = ",".join(line.split(",")[:4])
    assert hnefi.Game.from_record(bare, rules=rules).fen == game.fen


def test_a_custom_start_is_the_sixth_field() -> None:
    fen = "3a3/3a3/7/aadkdaa/3d3/3a3/3a3 d"
    game = hnefi.Game("brandubh", fen)
    game.play(game.legal_moves()[0])
    line = game.to_record()
    assert line.endswith(",brandubh," + fen)
    assert hnefi.Game.from_record(line).fen == game.fen


@pytest.mark.parametrize(
    "text,rules,message",
    [
        ("d1-d3,0,0", None, "expected 4 comma-separated fields"),
        ("d1-z3,0,0,Ongoing", None, "record: move 1: "),
        ("d1-d3,0,0,Maybe", None, "unknown result 'Maybe'"),
        ("d1-d3 d3-d1,0,0,Ongoing", None, r"move 2 \(d3-d1\): not legal for the defenders"),
        ("d1-d3,0,0,Ongoing\nd1-d3,0,0,Ongoing", None, "holds 2 record lines"),
        ("c4-c6,0,0,Ongoing,brandubh", "tablut", "names the rules 'brandubh', not 'tablut'"),
        ("d1-d3,0,0,Ongoing", "chess", "unknown rules preset 'chess'"),
        ("d1-d3,0,0,Ongoing,chess", None, "unknown rules preset 'chess'"),
        ("d1-d3,0,0,Ongoing,brandubh", None, "move 1 "),
    ],
)
def test_a_bad_record_raises_the_cores_message(
    text: str, rules: str | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        hnefi.Game.from_record(text, rules=rules)


OTG = """[date:2015.01.07]
[result:-1]
[attackers:Tim]
[defenders:Schachus]
[rules:dim:11 atkf:y sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/]

1. d1-d3 h6-h9
[A standard opening.|White answers
on two lines.]
2. k4-i4 e5-e2+
2a.1.1a. d5-f5 Ke6-e7
"""


def test_an_otg_file_reads_and_writes_back() -> None:
    game = hnefi.Game.from_otg(OTG)
    assert game.moves == ["d1-d3", "h6-h9", "k4-i4", "e5-e2"]
    written = game.to_otg()
    assert "[attackers:Tim]\n[defenders:Schachus]\n[result:-1]\n" in written
    assert written.endswith("\n1. d1-d3 h6-h9\n2. k4-i4 e5-e2\n")
    back = hnefi.Game.from_otg(written)
    assert (back.fen, back.moves, back.to_otg()) == (game.fen, game.moves, written)


def test_otg_round_trips_on_every_board(rules: str) -> None:
    game = hnefi.Game(rules)
    for ply in range(8):
        text = game.to_otg()
        assert text.startswith("[rules:dim:")
        back = hnefi.Game.from_otg(text)
        assert (back.fen, back.moves, back.rules) == (game.fen, game.moves, rules)
        assert back.to_otg() == text
        game.play(game.legal_moves()[ply % len(game.legal_moves())])


def test_a_real_game_as_otg() -> None:
    # Line 51: the record says the defenders won ("White"), though the moves do not end the
    # game (a resignation); the .otg's result says so too.
    for line in (REAL_GAMES[62], REAL_GAMES[50]):
        game = hnefi.Game.from_record(line)
        text = game.to_otg()
        assert "\n[result:-1]\n" in text
        back = hnefi.Game.from_otg(text)
        assert back.moves == game.moves and back.outcome == game.outcome
        assert back.to_record() == line


@pytest.mark.parametrize(
    "text,message",
    [
        ("1. d1-d3\nhello\n", "line 2: 'hello' is not a move number"),
        ("1. d1-d3 [never closed\n", "never closed"),
        ("1. d1^d3\n", "jumps"),
        ("1. d1-d3 d3-d1\n", r"move 2 \(d3-d1\): not legal"),
        ("[rules:dim:8 start:/8/8/8/8/8/8/8/8/]\n1. a1-a2\n", "8"),
    ],
)
def test_a_bad_otg_raises_the_cores_message(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hnefi.Game.from_otg(text)


def test_boards_of_the_suite() -> None:
    assert set(BOARDS) == {"brandubh", "tablut", "copenhagen", "copenhagen-13"}

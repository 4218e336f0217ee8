// Game in Node.js: perft against the native counts, records, and every refusal leaving the
// game as it was.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Game, HnefiError } from "../hnefi.js";

test("perft from Copenhagen's start equals the native counts to depth 5", () => {
  const game = new Game();
  const native = [116n, 6_788n, 806_344n, 50_456_804n, 6_116_568_016n];
  native.forEach((count, i) => assert.equal(game.perft(i + 1), count, `perft ${i + 1}`));
});

test("perft 3 on the other boards equals the native counts", () => {
  for (const [rules, count] of [["brandubh", 23_984n], ["tablut", 353_200n], ["copenhagen-13", 3_717_064n]]) {
    assert.equal(new Game(rules).perft(3), count, rules);
  }
});

test("a game is played, taken back, and written as a record and an .otg file", () => {
  const game = new Game("copenhagen");
  assert.equal(game.sideToMove, "attackers");
  assert.equal(game.width, 11);
  game.play("d1-d3").play("e5e2");
  assert.deepEqual(game.moves, ["d1-d3", "e5-e2"]);
  assert.equal(game.sideToMove, "attackers");
  const again = Game.fromRecord(game.record);
  assert.equal(again.fen, game.fen);
  assert.equal(Game.fromRecord(game.toOtg()).fen, game.fen);
  const copy = game.clone();
  game.undo();
  assert.deepEqual(game.moves, ["d1-d3"]);
  assert.deepEqual(copy.moves, ["d1-d3", "e5-e2"]);
  copy.free();
  assert.throws(() => copy.fen, /this game was freed/);
});

// Each refusal is an Error in the rules' words, and the game is the same after it.
function refused(game, act, words) {
  const before = game.state;
  assert.throws(act, (e) => e instanceof HnefiError && e instanceof Error && words.test(e.message), words.source);
  assert.deepEqual(game.state, before);
}

test("bad input is refused with the rules' reasons and changes nothing", () => {
  const game = new Game("copenhagen");
  refused(game, () => game.play("a1-a2"), /^move 'a1-a2': not legal for the attackers here: there is no piece of the attackers on a1/);
  refused(game, () => game.play("z9-z10"), /^move 'z9-z10'/);
  refused(game, () => game.play(42), /move must be a string/);
  refused(game, () => game.undo(), /no move to undo/);
  refused(game, () => game.perft(-1), /perft depth -1/);
  assert.throws(() => new Game("chess"), (e) => e instanceof HnefiError && /copenhagen/.test(e.message));
  assert.throws(() => new Game("brandubh", "zz"), /cannot tell the board's size of 'zz'/);
  assert.throws(() => new Game("copenhagen", "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d"), HnefiError);
  assert.throws(() => Game.fromRecord("d1-d3 a1-a2"), /move 2: move .a1-a2.: not legal/);
  assert.deepEqual(Game.fromRecord("d1-d3 e5-e2", "copenhagen").moves, ["d1-d3", "e5-e2"]);
  assert.throws(() => Game.fromRecord("d1-d3,1"), /record: expected 4 comma-separated fields/);
});

test("no move is played once the game is over", () => {
  const game = new Game("brandubh", "7/7/7/3a3/7/7/1k3aa d");
  game.play("b1-a1");
  assert.deepEqual(game.outcome, { winner: "defenders", reason: "the king escaped", text: "defenders win: the king escaped" });
  assert.deepEqual(game.legalMoves, []);
  refused(game, () => game.play("a1-b1"), /^the game is over \(defenders win: the king escaped\)/);
});

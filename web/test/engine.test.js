// Engine in Node.js: limits, streamed lines, several lines, refusals, and the bench's nodes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Engine, Game, HnefiError } from "../hnefi.js";

test("a search streams its lines and answers a legal move", () => {
  const game = new Game("brandubh");
  const engine = new Engine();
  const lines = [];
  const found = engine.analyse(game, { depth: 5 }, (line) => lines.push(line));
  assert.ok(game.legalMoves.includes(found.best), found.best);
  assert.equal(found.depth, 5);
  assert.deepEqual(lines.map((l) => l.depth), [1, 2, 3, 4, 5]);
  for (const line of lines) {
    assert.equal(line.pv[0], line.best);
    assert.ok(Number.isInteger(line.score) && line.nodes > 0 && line.nps >= 0 && line.timeMs >= 0);
  }
  assert.equal(found.pv[0], found.best);
});

test("nodes and time limit a search, and the same search counts the same nodes", () => {
  const game = new Game();
  const engine = new Engine();
  const a = engine.analyse(game, { nodes: 5_000 });
  engine.clear();
  const b = engine.analyse(game, { nodes: 5_000 });
  assert.equal(a.nodes, b.nodes);
  assert.ok(a.nodes <= 5_000 + 200, `${a.nodes}`);
  const start = performance.now();
  const timed = engine.analyse(game, { movetime: 100 });
  assert.ok(game.legalMoves.includes(timed.best));
  assert.ok(performance.now() - start < 5_000);
});

test("multiPv reports several lines", () => {
  const engine = new Engine({ multiPv: 3 });
  const ranks = new Set();
  engine.analyse(new Game("brandubh"), { depth: 3 }, (line) => ranks.add(line.multipv));
  assert.deepEqual([...ranks].sort(), [1, 2, 3]);
});

test("a finished game has no best move", () => {
  const game = new Game("brandubh", "7/7/7/3a3/7/7/1k3aa d");
  game.play("b1-a1");
  const found = new Engine().analyse(game, { depth: 2 });
  assert.equal(found.best, null);
});

test("bad limits and settings are refused as Errors", () => {
  const engine = new Engine();
  const game = new Game();
  for (const [limits, words] of [
    [{}, /give a limit/],
    [{ depth: -1 }, /depth -1: must be a number of at least 1/],
    [{ nodes: 0 }, /nodes 0/],
    [{ movetime: -5 }, /movetime -5/],
    [{ depth: "7" }, /depth 7/],
    [{ depth: Number.NaN }, /depth NaN/],
  ]) {
    assert.throws(() => engine.analyse(game, limits), (e) => e instanceof HnefiError && words.test(e.message), words.source);
  }
  assert.throws(() => engine.analyse("copenhagen", { depth: 1 }), /analyse takes a Game/);
  assert.throws(() => new Engine({ level: 21 }), /level 21: must be a whole number from 0 to 20/);
  assert.throws(() => new Engine({ multiPv: 0 }), /multiPv 0/);
  assert.throws(() => new Engine({ hashMb: -1 }), /hashMb -1/);
  assert.deepEqual(game.moves, []);
  engine.free();
  assert.throws(() => engine.analyse(game, { depth: 1 }), /this engine was freed/);
});

test("a weaker level still plays legal moves", () => {
  const game = new Game("brandubh");
  const found = new Engine({ level: 0 }).analyse(game, { depth: 3 });
  assert.ok(game.legalMoves.includes(found.best));
});

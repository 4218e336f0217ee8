// EngineWorker: the engine off the main thread, stopped at once however long its search.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Game, HnefiError } from "../hnefi.js";
import { EngineWorker } from "../worker-client.js";

test("a Worker searches, streams its lines and answers a legal move", async () => {
  const worker = new EngineWorker();
  const game = new Game("brandubh").play("d3-f3");
  const lines = [];
  const found = await worker.analyse(game, { depth: 4 }, (line) => lines.push(line));
  assert.ok(game.legalMoves.includes(found.best), found.best);
  assert.deepEqual(lines.map((l) => l.depth), [1, 2, 3, 4]);
  worker.terminate();
});

test("stop ends a long search at once with its last line, and the next search works", async () => {
  const worker = new EngineWorker();
  const game = new Game();
  let heard;
  const deep = new Promise((resolve) => { heard = resolve; });
  const searching = worker.analyse(game, { depth: 60 }, (line) => { if (line.depth >= 2) heard(); });
  await deep;
  const start = performance.now();
  const last = await worker.stop();
  const answered = await searching;
  assert.ok(performance.now() - start < 1_000);
  assert.equal(answered, last);
  assert.ok(game.legalMoves.includes(answered.best));
  // A new search after a stop gets a fresh Worker.
  const next = await worker.analyse(game, { nodes: 2_000 });
  assert.ok(game.legalMoves.includes(next.best));
  // A search asked while one runs stops the first, which answers with its last line.
  const first = worker.analyse(game, { depth: 60 });
  const second = worker.analyse(game, { depth: 2 });
  assert.ok((await first) === null || game.legalMoves.includes((await first).best));
  assert.ok(game.legalMoves.includes((await second).best));
  worker.terminate();
});

test("a Worker's refusal is an Error", async () => {
  const worker = new EngineWorker();
  await assert.rejects(worker.analyse(new Game(), {}), (e) => e instanceof HnefiError && /give a limit/.test(e.message));
  await assert.rejects(worker.analyse("d1-d3", { depth: 1 }), /analyse takes a Game/);
  worker.terminate();
});

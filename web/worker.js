// The engine's Worker: one Engine searching off the page's thread, driven by EngineWorker
// (worker-client.js). In a page it is a module Worker; in Node.js a worker_threads Worker.
//
// Messages in: { id, type: "analyse", otg, limits, options } (the game as an .otg text, so that
// the rules, the start and the moves, repetitions included, cross whole). Messages out:
// { id, type: "info", line } while it searches, then { id, type: "done", line } or
// { id, type: "error", message }.
import { Engine, Game } from "./hnefi.js";

let port;
if (typeof self !== "undefined" && typeof self.postMessage === "function" && typeof window === "undefined") {
  port = { post: (m) => self.postMessage(m), listen: (f) => { self.onmessage = (e) => f(e.data); } };
} else {
  const { parentPort } = await import("node:worker_threads");
  port = { post: (m) => parentPort.postMessage(m), listen: (f) => parentPort.on("message", f) };
}

let engine = null;
let engineOptions = null;

port.listen((message) => {
  const { id, type } = message;
  try {
    if (type !== "analyse") throw new Error(`unknown message ${type}`);
    const options = JSON.stringify(message.options ?? {});
    if (!engine || options !== engineOptions) {
      engine?.free();
      engine = new Engine(message.options ?? {});
      engineOptions = options;
    }
    const game = Game.fromRecord(message.otg);
    try {
      const line = engine.analyse(game, message.limits, (info) => port.post({ id, type: "info", line: info }));
      port.post({ id, type: "done", line });
    } finally {
      game.free();
    }
  } catch (e) {
    port.post({ id, type: "error", message: e.message, name: e.name });
  }
});
port.post({ type: "listening" });

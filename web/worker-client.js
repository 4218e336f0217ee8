// EngineWorker: the engine in a Worker, so that a page never freezes while it searches.
//
// A Worker busy in one long WebAssembly call hears no message, and without cross-origin
// isolation there is no shared memory to raise a stop flag in. So the Worker reports every
// line as it finds it, and `stop()` ends a search by ending its Worker: the answer is the
// last line reported, and a fresh Worker (the module compiled once, kept by the host's cache)
// takes the next search. Any static host will do.
import { Game, HnefiError } from "./hnefi.js";

const isNode = typeof process !== "undefined" && !!process.versions?.node && typeof window === "undefined";

// A Worker running worker.js: `post`, `end`, and `listening`, which settles once it hears.
async function spawn(onMessage, onError) {
  const url = new URL("./worker.js", import.meta.url);
  let listening;
  const heard = new Promise((resolve) => { listening = resolve; });
  const receive = (message) => (message.type === "listening" ? listening() : onMessage(message));
  if (isNode) {
    const { Worker } = await import("node:worker_threads");
    const worker = new Worker(url);
    worker.on("message", receive);
    worker.on("error", onError);
    return { post: (m) => worker.postMessage(m), end: () => worker.terminate(), heard };
  }
  const worker = new Worker(url, { type: "module" });
  worker.onmessage = (e) => receive(e.data);
  worker.onerror = (e) => onError(new HnefiError(e.message || "the engine's worker failed"));
  return { post: (m) => worker.postMessage(m), end: () => worker.terminate(), heard };
}

export class EngineWorker {
  #options;
  // The Worker, once spawned (a promise of it), and the search it runs.
  #worker = null;
  #running = null;
  #next = 1;

  /** `options` as Engine's: `hashMb`, `level`, `multiPv`. */
  constructor(options = {}) {
    this.#options = { ...options };
  }

  #spawn() {
    if (!this.#worker) {
      const worker = spawn(
        (message) => this.#heard(message),
        (error) => this.#fail(error),
      );
      this.#worker = worker;
      // A Worker ended while it was starting is ended once it has started.
      worker.catch(() => {});
    }
    return this.#worker;
  }

  #heard(message) {
    const run = this.#running;
    if (!run || message.id !== run.id) return;
    if (message.type === "info") {
      run.last = message.line;
      run.onInfo?.(message.line);
    } else if (message.type === "done") {
      this.#running = null;
      run.resolve(message.line);
    } else if (message.type === "error") {
      this.#running = null;
      run.reject(new HnefiError(message.message));
    }
  }

  #fail(error) {
    const run = this.#running;
    this.#running = null;
    this.#end();
    run?.reject(error);
  }

  #end() {
    const worker = this.#worker;
    this.#worker = null;
    worker?.then((w) => w.end(), () => {});
  }

  /**
   * Searches `game` (a Game) within `limits` (`depth`, `nodes`, `movetime` ms), calling
   * `onInfo` with each line; resolves with the best line. A search still running is stopped
   * first, and resolves with its last line.
   */
  analyse(game, limits = {}, onInfo = undefined) {
    if (!(game instanceof Game)) return Promise.reject(new HnefiError("analyse takes a Game"));
    const otg = game.toOtg();
    this.stop();
    const id = this.#next++;
    const answer = new Promise((resolve, reject) => {
      this.#running = { id, last: null, onInfo, resolve, reject };
    });
    const worker = this.#spawn();
    worker.then(async (w) => {
      await w.heard;
      // Stopped, or overtaken by another search, while the Worker started: nothing to ask.
      if (this.#running?.id === id && this.#worker === worker) {
        w.post({ id, type: "analyse", otg, limits, options: this.#options });
      }
    }, (error) => this.#fail(error));
    return answer;
  }

  /**
   * Ends the running search now; its promise resolves with the last line it reported (null
   * if it reported none), as does this one's. Nothing to stop is no error.
   */
  stop() {
    const run = this.#running;
    if (!run) return Promise.resolve(null);
    this.#running = null;
    this.#end();
    run.resolve(run.last);
    return Promise.resolve(run.last);
  }

  /** Ends the Worker; a later search starts another. */
  terminate() {
    this.stop();
    this.#end();
  }
}

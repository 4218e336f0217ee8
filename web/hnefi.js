// Hnefi, the tafl engine, in WebAssembly: the rules of every board from 7x7 to 13x13 (`Game`)
// and the engine with its networks (`Engine`), in Node.js, in a page and in a Worker. The
// module loads hnefi.wasm when imported; `EngineWorker` (./worker-client.js) searches off the
// page's thread.
//
// The WebAssembly module's interface (web/src/lib.rs): text in as UTF-8 in memory taken with
// hnefi_alloc, a number back (-1: refused), a text answer in one buffer until the next call.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An error of Hnefi's: a bad argument, or the rules' refusal, in the rules' own words. */
export class HnefiError extends Error {
  constructor(message) {
    super(message);
    this.name = "HnefiError";
  }
}

let wasm = null;
// The lines a running search reports, to the callback of the `analyse` that started it.
let onLine = null;

const imports = {
  hnefi: {
    now_ms: () => performance.now(),
    info: (ptr, len) => {
      if (onLine) onLine(JSON.parse(decoder.decode(new Uint8Array(wasm.memory.buffer, ptr, len))));
    },
  },
};

// simd128 where the host runs it (every current browser and Node.js 16.4+), else the scalar
// build: both search alike, node for node.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]);

/** Whether this host runs WebAssembly's 128-bit SIMD. */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

async function bytesOf(url) {
  if (typeof process !== "undefined" && process.versions?.node && url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new HnefiError(`cannot load ${url}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Loads the engine: done once when the module is imported, with the simd128 build where the
 * host has it. `init({ simd: false })` before any other use, or `init({ module })` with a
 * compiled `WebAssembly.Module` (a Worker given the page's), chooses otherwise.
 */
export async function init(options = {}) {
  let { module, simd = simdSupported() } = options;
  if (!module) {
    const url = new URL(simd ? "./hnefi.wasm" : "./hnefi-scalar.wasm", import.meta.url);
    module = await WebAssembly.compile(await bytesOf(url));
  }
  const instance = await WebAssembly.instantiate(module, imports);
  wasm = instance.exports;
  loaded = { module, simd };
  return loaded;
}

let loaded = null;

/** The compiled module in use and whether it is the simd128 build, for a Worker to reuse. */
export function loadedModule() {
  return loaded;
}

function out() {
  return decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.hnefi_out_ptr(), wasm.hnefi_out_len()));
}

// Calls `fn` with `args`, each string passed as a (pointer, length) pair in its place and
// freed after; a -1 answer throws the module's reason.
function call(fn, ...args) {
  const held = [];
  const flat = [];
  try {
    for (const arg of args) {
      if (typeof arg !== "string") {
        flat.push(arg);
        continue;
      }
      const bytes = encoder.encode(arg);
      const ptr = wasm.hnefi_alloc(bytes.length);
      held.push([ptr, bytes.length]);
      new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
      flat.push(ptr, bytes.length);
    }
    const answer = fn(...flat);
    // The rules' words name the Rust method; here it is the property.
    if (answer < 0) throw new HnefiError(out().replace("`legal_moves()`", "`legalMoves`"));
    return answer;
  } finally {
    for (const [ptr, len] of held) wasm.hnefi_free(ptr, len);
  }
}

function text(value, what) {
  if (typeof value !== "string") throw new HnefiError(`${what} must be a string, not ${typeof value}`);
  return value;
}

const games = new FinalizationRegistry((handle) => wasm?.hnefi_game_free(handle));
const engines = new FinalizationRegistry((handle) => wasm?.hnefi_engine_free(handle));

/** A game of tafl under any rules Hnefi plays, from their start or from a position. */
export class Game {
  /**
   * `rules`: a preset (`copenhagen`, `brandubh`, `tablut`, `copenhagen-13`, ...) or an
   * OpenTafl rules string; `fen`: a position to start from instead of the rules' start.
   */
  constructor(rules = "copenhagen", fen = undefined) {
    if (rules === Game) return; // from Game.#of
    const handle = call(wasm.hnefi_game_new, text(rules, "rules"), fen === undefined ? "" : text(fen, "fen"));
    this.#hold(handle);
  }

  #handle = -1;

  #hold(handle) {
    this.#handle = handle;
    games.register(this, handle, this);
  }

  static #of(handle) {
    const game = new Game(Game);
    game.#hold(handle);
    return game;
  }

  /**
   * A game from a record (`"d1-d3 e5-e2 ..."`, or a line of data/copenhagen.csv) under `rules`
   * (default copenhagen), or from an OpenTafl `.otg` file's text.
   */
  static fromRecord(record, rules = undefined) {
    return Game.#of(call(wasm.hnefi_game_from_record, text(record, "record"), rules === undefined ? "" : text(rules, "rules")));
  }

  #live() {
    if (this.#handle < 0) throw new HnefiError("this game was freed");
    return this.#handle;
  }

  /** Everything about the game now, as one object. */
  get state() {
    call(wasm.hnefi_game_state, this.#live());
    return JSON.parse(out());
  }

  get rules() { return this.state.rules; }
  get width() { return this.state.width; }
  get fen() { return this.state.fen; }
  /** `"attackers"` or `"defenders"`. */
  get sideToMove() { return this.state.sideToMove; }
  /** The moves played, `"d1-d3"` each. */
  get moves() { return this.state.moves; }
  /** The legal moves, `"d1-d3"` each; none once the game is over. */
  get legalMoves() { return this.state.legalMoves; }
  /** `null` while the game goes on; else `{ winner, reason, text }`, `winner` null for a draw. */
  get outcome() { return this.state.outcome; }
  /** The game as a line of the community's records. */
  get record() { return this.state.record; }

  /** Plays `move` (`"d1-d3"` or `"d1d3"`); an illegal move throws and changes nothing. */
  play(move) {
    call(wasm.hnefi_game_play, this.#live(), text(move, "move"));
    return this;
  }

  /** Takes back the last move. */
  undo() {
    call(wasm.hnefi_game_undo, this.#live());
    return this;
  }

  /** The number of move sequences `depth` plies deep from here. */
  perft(depth) {
    if (!Number.isInteger(depth) || depth < 0 || depth > 64) throw new HnefiError(`perft depth ${depth}: must be a whole number from 0 to 64`);
    call(wasm.hnefi_game_perft, this.#live(), depth);
    return BigInt(out());
  }

  /** The game as an OpenTafl `.otg` file, rules and start included. */
  toOtg() {
    call(wasm.hnefi_game_otg, this.#live());
    return out();
  }

  clone() {
    return Game.#of(call(wasm.hnefi_game_clone, this.#live()));
  }

  /** Frees the game's memory now rather than when it is collected. */
  free() {
    if (this.#handle >= 0) {
      games.unregister(this);
      wasm.hnefi_game_free(this.#handle);
      this.#handle = -1;
    }
  }

  /** @internal the module's handle, for Engine. */
  static handleOf(game) {
    if (!(game instanceof Game)) throw new HnefiError("analyse takes a Game");
    return game.#live();
  }
}

function limit(value, what) {
  if (value === undefined || value === null) return -1;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 1) {
    throw new HnefiError(`${what} ${value}: must be a number of at least 1`);
  }
  return value;
}

/**
 * The engine. `hashMb` MiB of table (default 16), `level` 0 (a beginner) to 20 (full strength,
 * the default), `multiPv` lines reported (default 1).
 */
export class Engine {
  #handle = -1;

  constructor(options = {}) {
    const { hashMb = 16, level = 20, multiPv = 1 } = options;
    for (const [name, value, least, most] of [["hashMb", hashMb, 1, 2048], ["level", level, 0, 20], ["multiPv", multiPv, 1, 256]]) {
      if (!Number.isInteger(value) || value < least || value > most) {
        throw new HnefiError(`${name} ${value}: must be a whole number from ${least} to ${most}`);
      }
    }
    this.#handle = call(wasm.hnefi_engine_new, hashMb, level, multiPv);
    engines.register(this, this.#handle, this);
  }

  /**
   * Searches `game` within `limits` (`depth`, `nodes`, `movetime` in ms: at least one), calling
   * `onInfo` with each line as the search finds it, and returns the best line: `best` (null
   * when the game is over), `score` (centipawns for the attackers), `winIn` (plies, positive
   * when the attackers win), `pv`, `depth`, `seldepth`, `multipv`, `nodes`, `nps`, `hashfull`,
   * `timeMs`. It blocks its thread: in a page, use `EngineWorker`.
   */
  analyse(game, limits = {}, onInfo = undefined) {
    if (this.#handle < 0) throw new HnefiError("this engine was freed");
    const handle = Game.handleOf(game);
    const depth = limit(limits.depth, "depth");
    const nodes = limit(limits.nodes, "nodes");
    const movetime = limit(limits.movetime, "movetime");
    if (depth < 0 && nodes < 0 && movetime < 0) {
      throw new HnefiError("give a limit: depth, nodes or movetime (ms)");
    }
    if (onLine) throw new HnefiError("a search is running: one at a time");
    onLine = onInfo ?? null;
    try {
      call(wasm.hnefi_engine_analyse, this.#handle, handle, depth, nodes, movetime);
    } finally {
      onLine = null;
    }
    return JSON.parse(out());
  }

  /** Forgets what earlier searches learnt (a new game). */
  clear() {
    call(wasm.hnefi_engine_clear, this.#handle);
  }

  free() {
    if (this.#handle >= 0) {
      engines.unregister(this);
      wasm.hnefi_engine_free(this.#handle);
      this.#handle = -1;
    }
  }
}

await init();

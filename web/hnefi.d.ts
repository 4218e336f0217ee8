// Types of the npm package `hnefi` (hnefi.js).

/** An error of Hnefi's: a bad argument, or the rules' refusal, in the rules' own words. */
export class HnefiError extends Error {}

/** How a game ended. */
export interface Outcome {
  /** `null` for a draw. */
  winner: "attackers" | "defenders" | null;
  /** Why it ended: `"the king escaped"`, ... */
  reason: string;
  /** `"defenders win: the king escaped"`. */
  text: string;
}

/** Everything about a game now. */
export interface GameState {
  rules: string;
  width: number;
  fen: string;
  sideToMove: "attackers" | "defenders";
  moves: string[];
  legalMoves: string[];
  outcome: Outcome | null;
  record: string;
}

/** A game of tafl under any rules Hnefi plays. */
export class Game {
  /**
   * `rules`: a preset (`"copenhagen"`, the default, `"brandubh"`, `"tablut"`,
   * `"copenhagen-13"`, ...) or an OpenTafl rules string; `fen`: a position to start from.
   */
  constructor(rules?: string, fen?: string);
  /**
   * A game from a record line (`"d1-d3 e5-e2,0,0,Ongoing"`), an OpenTafl `.otg` text, or moves
   * alone (`"d1-d3 e5-e2"`) from the start of `rules`.
   */
  static fromRecord(record: string, rules?: string): Game;
  readonly state: GameState;
  readonly rules: string;
  readonly width: number;
  readonly fen: string;
  readonly sideToMove: "attackers" | "defenders";
  readonly moves: string[];
  readonly legalMoves: string[];
  readonly outcome: Outcome | null;
  readonly record: string;
  /** Plays `move` (`"d1-d3"` or `"d1d3"`); an illegal move throws and changes nothing. */
  play(move: string): this;
  /** Takes back the last move. */
  undo(): this;
  /** The move sequences `depth` plies deep from here. */
  perft(depth: number): bigint;
  /** The game as an OpenTafl `.otg` file. */
  toOtg(): string;
  clone(): Game;
  /** Frees the game's memory now rather than when it is collected. */
  free(): void;
}

/** When a search stops: at the first limit reached; at least one is needed. */
export interface Limits {
  depth?: number;
  nodes?: number;
  /** Milliseconds. */
  movetime?: number;
}

/** A line of the search. */
export interface Line {
  /** The move to play; `null` only when the game is over. */
  best: string | null;
  /** Centipawns from the attackers' view, whoever is to move. */
  score: number;
  /** Plies to the end where the search saw it: positive when the attackers win. */
  winIn: number | null;
  pv: string[];
  depth: number;
  seldepth: number;
  /** 1 for the best line. */
  multipv: number;
  nodes: number;
  nps: number;
  /** Permille of the table in use. */
  hashfull: number;
  timeMs: number;
}

export interface EngineOptions {
  /** The table's size in MiB, 1 to 2048 (default 16). */
  hashMb?: number;
  /** 0 (a beginner) to 20 (full strength, the default). */
  level?: number;
  /** Lines searched and reported, 1 to 256 (default 1). */
  multiPv?: number;
}

/** The engine, searching on the caller's thread (in a page: use `EngineWorker`). */
export class Engine {
  constructor(options?: EngineOptions);
  /** Searches `game`, `onInfo` hearing each line; returns the best. */
  analyse(game: Game, limits: Limits, onInfo?: (line: Line) => void): Line;
  /** Forgets what earlier searches learnt (a new game). */
  clear(): void;
  free(): void;
}

/** Whether this host runs WebAssembly's 128-bit SIMD (the faster build). */
export function simdSupported(): boolean;

/** Loads the engine again: the scalar build (`simd: false`), or a compiled module. */
export function init(options?: { simd?: boolean; module?: WebAssembly.Module }): Promise<{ module: WebAssembly.Module; simd: boolean }>;

/** The compiled module in use, and whether it is the simd128 build. */
export function loadedModule(): { module: WebAssembly.Module; simd: boolean } | null;

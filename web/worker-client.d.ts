// Types of `hnefi/worker` (worker-client.js).
import type { EngineOptions, Game, Limits, Line } from "./hnefi.js";

/** The engine in a Web Worker (a worker_threads Worker in Node.js): a page never freezes. */
export class EngineWorker {
  constructor(options?: EngineOptions);
  /**
   * Searches `game`, `onInfo` hearing each line; resolves with the best line. A search still
   * running is stopped first and resolves with its last line.
   */
  analyse(game: Game, limits: Limits, onInfo?: (line: Line) => void): Promise<Line | null>;
  /** Ends the running search now: resolves with its last line (null if none came). */
  stop(): Promise<Line | null>;
  /** Ends the Worker; a later search starts another. */
  terminate(): void;
}

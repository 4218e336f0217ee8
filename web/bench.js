// The WebAssembly engine's bench: `hnefi bench`'s positions and search (depth 7, one thread,
// a cleared 16 MiB table before each), so that its node count is the `Bench:` signature of the
// native build. `npm run bench` prints, as `hnefi bench` does, a last line `N nodes M nps`.
import { BENCH_POSITIONS } from "./bench-positions.js";
import { Engine, Game } from "./hnefi.js";

/** Searches every bench position to `depth`; `{ nodes, ms, nps }`. */
export function bench(depth = 7, each = undefined) {
  const engine = new Engine({ hashMb: 16 });
  let nodes = 0;
  let ms = 0;
  try {
    BENCH_POSITIONS.forEach((fen, i) => {
      const game = new Game("copenhagen", fen);
      engine.clear();
      const start = performance.now();
      const found = engine.analyse(game, { depth });
      ms += performance.now() - start;
      nodes += found.nodes;
      game.free();
      each?.(i + 1, fen, found.nodes);
    });
  } finally {
    engine.free();
  }
  return { nodes, ms, nps: Math.round((nodes * 1000) / Math.max(ms, 1e-6)) };
}

const main = typeof process !== "undefined" && process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (main) {
  const depth = Number(process.argv[2] ?? 7);
  const { nodes, nps } = bench(depth, (i, fen, n) => process.stderr.write(`position ${String(i).padStart(2)}: ${String(n).padStart(10)} nodes  ${fen}\n`));
  console.log(`${nodes} nodes ${nps} nps`);
}

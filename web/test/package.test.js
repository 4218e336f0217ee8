// The package as a user gets it: `npm pack`, installed into a project of its own, imported by
// its name, the Worker's entry point too.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("..", import.meta.url));

test("npm install of the packed package gives import { Game, Engine } from 'hnefi'", () => {
  const dir = mkdtempSync(join(tmpdir(), "hnefi-package-"));
  try {
    const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", dir], here));
    const files = packed[0].files.map((f) => f.path);
    for (const file of ["hnefi.js", "hnefi.d.ts", "hnefi.wasm", "hnefi-scalar.wasm", "worker.js", "worker-client.js", "README.md"]) {
      assert.ok(files.includes(file), `${file} is packed`);
    }
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "gui", type: "module", private: true }));
    npm(["install", "--no-audit", "--no-fund", "--offline", join(dir, packed[0].filename)], dir);
    writeFileSync(join(dir, "main.js"), `
      import { Engine, Game } from "hnefi";
      import { EngineWorker } from "hnefi/worker";
      const game = new Game("brandubh");
      const line = new Engine().analyse(game, { depth: 3 });
      const worker = new EngineWorker();
      const other = await worker.analyse(game, { depth: 2 });
      worker.terminate();
      console.log(game.legalMoves.includes(line.best) && game.legalMoves.includes(other.best));
    `);
    assert.equal(execFileSync("node", ["main.js"], { cwd: dir, encoding: "utf8" }).trim(), "true");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

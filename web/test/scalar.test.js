// The scalar build (for hosts without WebAssembly SIMD) searches as the simd128 one does,
// node for node.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bench } from "../bench.js";
import { init, loadedModule, simdSupported } from "../hnefi.js";

test("the scalar and the simd128 builds search the same nodes", async () => {
  assert.ok(simdSupported(), "Node.js runs WebAssembly SIMD");
  assert.equal(loadedModule().simd, true);
  const simd = bench(4).nodes;
  await init({ simd: false });
  assert.equal(loadedModule().simd, false);
  assert.equal(bench(4).nodes, simd);
});

/**
 * The trainer is Python and cannot import core's shape table, so its defaults are held to the
 * table here: a run with no shape flags must train the `rt-tiny` row of `QWEN_SHAPES`.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { QWEN_SHAPES } from "../../packages/core/src/model/shapes";

/** `p.add_argument("--name", type=..., default=VALUE)` defaults of train_tiny.py. */
function argDefaults(): Map<string, number> {
  const source = readFileSync(join(import.meta.dir, "train_tiny.py"), "utf8");
  const out = new Map<string, number>();
  for (const m of source.matchAll(/add_argument\("--([\w-]+)", type=(?:int|float), default=([\d.e+-]+)\)/g)) {
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

test("train_tiny.py's default shape is core's rt-tiny row", () => {
  const shape = QWEN_SHAPES["rt-tiny"];
  const defaults = argDefaults();
  expect({
    hidden: defaults.get("hidden"),
    intermediate: defaults.get("intermediate"),
    layers: defaults.get("layers"),
    heads: defaults.get("heads"),
    "kv-heads": defaults.get("kv-heads"),
    "head-dim": defaults.get("head-dim"),
    "rope-theta": defaults.get("rope-theta"),
  }).toEqual({
    hidden: shape.hiddenSize,
    intermediate: shape.intermediateSize,
    layers: shape.numLayers,
    heads: shape.numAttentionHeads,
    "kv-heads": shape.numKeyValueHeads,
    "head-dim": shape.headDim,
    "rope-theta": shape.ropeTheta,
  });
});

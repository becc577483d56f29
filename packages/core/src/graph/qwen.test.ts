import { expect, test } from "bun:test";
import { maxAbsDiff, tinyQwen2, tinyQwen3 } from "../../test/tiny-configs";
import { runtimeForGraph } from "../create-model";
import { int8Linear } from "../quant/int8";
import { SplitKv } from "../runtime/split-kv";
import { UnsupportedGraphFeatureError } from "./errors";
import { buildQwenGraph, QWEN_IO, RTOOL_IO_LAYOUT, ropeFrequencyDivisor } from "./qwen";
import { qwenTensorShapes, randomQwenWeights } from "./random-weights";

test("the graph declares the runtime's inputs and outputs and stores the tied embedding once", () => {
  const g = buildQwenGraph(tinyQwen3, randomQwenWeights(tinyQwen3), { fuseProjections: false });
  const inputs = g.inputs.map((i) => i.name);
  expect(inputs.slice(0, 4)).toEqual([
    QWEN_IO.inputIds,
    QWEN_IO.positionIds,
    QWEN_IO.attentionMask,
    QWEN_IO.logitRows,
  ]);
  expect(inputs).toContain(QWEN_IO.pastValue(1));
  // the new rows' keys and values alone: the runtime keeps the past where it was
  expect(g.outputs.map((o) => o.name)).toEqual([
    QWEN_IO.addedKey(0),
    QWEN_IO.addedValue(0),
    QWEN_IO.addedKey(1),
    QWEN_IO.addedValue(1),
    QWEN_IO.logits,
  ]);
  // no Identity copies of the KV outputs
  expect(g.nodes.some((n) => n.opType === "Identity")).toBe(false);
  const weightNames = g.initializers
    .map((i) => i.name)
    .filter((n) => n.startsWith("model.") || n === "lm_head.weight");
  expect(new Set(weightNames)).toEqual(new Set(qwenTensorShapes(tinyQwen3).keys()));
  expect(weightNames.filter((n) => n === "model.embed_tokens.weight")).toHaveLength(1);
});

test("rope_scaling: none/default/linear are computed, other schemes are refused with the field", () => {
  expect(ropeFrequencyDivisor(tinyQwen3)).toBe(1);
  expect(ropeFrequencyDivisor({ ...tinyQwen3, ropeScaling: { rope_type: "default" } })).toBe(1);
  expect(ropeFrequencyDivisor({ ...tinyQwen3, ropeScaling: { type: "linear", factor: 4 } })).toBe(4);
  const yarn = {
    ...tinyQwen3,
    ropeScaling: { rope_type: "yarn", factor: 4, original_max_position_embeddings: 32768 },
  };
  const error = (() => {
    try {
      buildQwenGraph(yarn, randomQwenWeights(yarn));
    } catch (e) {
      return e;
    }
  })();
  expect(error).toBeInstanceOf(UnsupportedGraphFeatureError);
  expect((error as UnsupportedGraphFeatureError).field).toBe("rope_scaling");
  expect((error as Error).message).toContain("yarn");
});

test("fused q/k/v and gate/up layers store each weight once, concatenated, and compute the same", async () => {
  for (const config of [tinyQwen2, tinyQwen3]) {
    const weights = randomQwenWeights(config, 3);
    const fused = buildQwenGraph(config, weights);
    const names = new Set(fused.initializers.map((i) => i.name));
    const p = "model.layers.0";
    expect(names).toContain(`${p}.self_attn.q_proj+${p}.self_attn.k_proj+${p}.self_attn.v_proj.weight`);
    expect(names).toContain(`${p}.mlp.gate_proj+${p}.mlp.up_proj.weight`);
    expect(names.has(`${p}.self_attn.q_proj.weight`)).toBe(false);
    expect(names.has(`${p}.self_attn.q_proj+${p}.self_attn.k_proj+${p}.self_attn.v_proj.bias`)).toBe(
      config.attentionBias,
    );
    const split = buildQwenGraph(config, weights, { fuseProjections: false });
    const [a, b] = await Promise.all([runtimeForGraph(config, fused), runtimeForGraph(config, split)]);
    const tokenIds = [5, 17, 3, 42, 9];
    const run = (rt: typeof a) =>
      rt.step({ tokenIds, positions: tokenIds.map((_, i) => i), past: rt.emptyKv() });
    const [x, y] = await Promise.all([run(a), run(b)]);
    expect(maxAbsDiff(x.logits, y.logits)).toBeLessThan(1e-5);
  }
});

test("other linear hooks are not fused unless asked, since they may read weights by module name", () => {
  const weights = randomQwenWeights(tinyQwen3, 3);
  const names = (fuse?: boolean) =>
    buildQwenGraph(tinyQwen3, weights, { linear: int8Linear(), fuseProjections: fuse }).initializers.map(
      (i) => i.name,
    );
  expect(names().some((n) => n.includes("+"))).toBe(false);
  expect(names(true).some((n) => n.includes("q_proj+"))).toBe(true);
});

test("a graph that returns the new rows gives the present of one that returns whole presents", async () => {
  const weights = randomQwenWeights(tinyQwen3, 5);
  const whole = buildQwenGraph(tinyQwen3, weights, { io: { ...RTOOL_IO_LAYOUT, presentRows: "all" } });
  expect(whole.outputs.map((o) => o.name)).toContain(QWEN_IO.presentKey(1));
  const [rowsRt, wholeRt] = await Promise.all([
    runtimeForGraph(tinyQwen3, buildQwenGraph(tinyQwen3, weights), { threads: 1 }),
    runtimeForGraph(tinyQwen3, whole, { threads: 1 }),
  ]);
  try {
    let [a, b] = [rowsRt.emptyKv(), wholeRt.emptyKv()];
    for (const ids of [[3, 1, 4, 1, 5], [9], [2, 6]]) {
      const at = a.length;
      const positions = ids.map((_, i) => at + i);
      const [x, y] = await Promise.all([
        rowsRt.step({ tokenIds: ids, positions, past: a }),
        wholeRt.step({ tokenIds: ids, positions, past: b }),
      ]);
      expect(x.added?.length).toBe(ids.length);
      expect(y.added).toBeUndefined();
      expect(maxAbsDiff(x.logits, y.logits)).toBeLessThan(1e-5);
      expect(x.present.length).toBe(y.present.length);
      for (let l = 0; l < tinyQwen3.numLayers; l++) {
        expect(maxAbsDiff(x.present.keys[l]!, y.present.keys[l]!)).toBeLessThan(1e-5);
        expect(maxAbsDiff(x.present.values[l]!, y.present.values[l]!)).toBeLessThan(1e-5);
      }
      [a, b] = [x.present, y.present];
    }
  } finally {
    await Promise.all([rowsRt.dispose(), wholeRt.dispose()]);
  }
});

test("a step over a view (a present, a cached prefix) leaves it unmade and equals the step over its copy", async () => {
  const rt = await runtimeForGraph(tinyQwen3, buildQwenGraph(tinyQwen3, randomQwenWeights(tinyQwen3, 6)), {
    threads: 1,
  });
  try {
    const first = await rt.step({ tokenIds: [5, 6, 7, 8], positions: [0, 1, 2, 3], past: rt.emptyKv() });
    const view = rt.sliceKv(first.present, 3) as SplitKv;
    expect(view).toBeInstanceOf(SplitKv);
    const overView = await rt.step({ tokenIds: [9, 2], positions: [3, 4], past: view });
    expect(view.materialized).toBe(false);
    const copy = {
      length: 3,
      keys: view.keys.map((k) => k.slice()),
      values: view.values.map((v) => v.slice()),
    };
    const overCopy = await rt.step({ tokenIds: [9, 2], positions: [3, 4], past: copy });
    expect(maxAbsDiff(overView.logits, overCopy.logits)).toBe(0);
    expect(maxAbsDiff(overView.present.values[1]!, overCopy.present.values[1]!)).toBe(0);
  } finally {
    await rt.dispose();
  }
});

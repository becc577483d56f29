import { expect, test } from "bun:test";
import { tinyQwen3 } from "../../test/tiny-configs";
import { UnsupportedGraphFeatureError } from "./errors";
import { buildQwenGraph, QWEN_IO, ropeFrequencyDivisor } from "./qwen";
import { qwenTensorShapes, randomQwenWeights } from "./random-weights";

test("the graph declares the runtime's inputs and outputs and stores the tied embedding once", () => {
  const g = buildQwenGraph(tinyQwen3, randomQwenWeights(tinyQwen3));
  const inputs = g.inputs.map((i) => i.name);
  expect(inputs.slice(0, 4)).toEqual([
    QWEN_IO.inputIds,
    QWEN_IO.positionIds,
    QWEN_IO.attentionMask,
    QWEN_IO.logitRows,
  ]);
  expect(inputs).toContain(QWEN_IO.pastValue(1));
  expect(g.outputs.map((o) => o.name)).toEqual([
    QWEN_IO.presentKey(0),
    QWEN_IO.presentValue(0),
    QWEN_IO.presentKey(1),
    QWEN_IO.presentValue(1),
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

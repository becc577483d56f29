/**
 * The runtime against the PyTorch oracle's golden outputs for every committed fixture.
 * Golden logits are float64 from the weights as stored, so F16/BF16 fixtures (upcast exactly by
 * the loader) are held to the same 1e-4 as F32 ones.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createModelFromWeights } from "../src/create-model";
import type { Model } from "../src/model";
import { readQwenConfig } from "../src/model/config";
import { openWeights } from "../src/model/weights";
import { maxAbsDiff } from "./tiny-configs";

const fixturesDir = join(import.meta.dir, "fixtures");
export const FIXTURES = ["qwen2-gqa", "qwen3-tied", "qwen3-bf16", "qwen2-f16", "qwen3-sharded"] as const;

interface Golden {
  input_ids: number[];
  logits_last: number[];
  greedy: number[];
}

for (const name of FIXTURES) {
  describe(`fixture ${name}`, () => {
    const dir = join(fixturesDir, name);
    const golden: Golden = JSON.parse(readFileSync(join(dir, "golden.json"), "utf8"));
    let model: Model<undefined>;
    beforeAll(async () => {
      const config = readQwenConfig(dir);
      const source = openWeights(dir);
      try {
        model = await createModelFromWeights(
          config,
          (tensor) => ({ data: source.readFloat32(tensor), shape: [...source.tensors.get(tensor)!.shape] }),
          undefined,
          { threads: 1 },
        );
      } finally {
        source.close();
      }
    });
    afterAll(() => model.dispose());

    test("last-position logits within 1e-4 of the golden", async () => {
      const { logits } = await model.forward(golden.input_ids);
      expect(logits.length).toBe(golden.logits_last.length);
      expect(maxAbsDiff(logits, golden.logits_last)).toBeLessThanOrEqual(1e-4);
    });

    test("greedy 8 tokens equal the golden continuation", async () => {
      expect(await model.generate(golden.input_ids, { maxTokens: 8 })).toEqual(golden.greedy);
    });
  });
}

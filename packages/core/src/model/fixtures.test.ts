/**
 * The loader over the oracle's committed fixtures (test/fixtures): every config parses, every
 * checkpoint passes the tensor check, each dtype widens as stored, and the tokenizer reproduces
 * the golden input ids.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadTokenizer } from "../tokenizer";
import { readGenerationConfig, readQwenConfig } from "./config";
import { checkQwenWeights, expectedQwenTensors } from "./qwen-weights";
import type { SafetensorsDtype } from "./types";
import { openWeights, ShardedWeights } from "./weights";

const fixtures = join(import.meta.dir, "../../test/fixtures");
const names = [
  "qwen2-gqa",
  "qwen3-tied",
  "qwen3-bf16",
  "qwen2-f16",
  "qwen3-sharded",
  "awq-qwen2",
  "awq-qwen3",
];
const storedDtype: Record<string, SafetensorsDtype> = {
  "qwen2-gqa": "F32",
  "qwen3-tied": "F32",
  "qwen3-bf16": "BF16",
  "qwen2-f16": "F16",
  "qwen3-sharded": "F32",
  "awq-qwen2": "F16",
  "awq-qwen3": "F16",
};

describe.each(names)("fixture %s", (name) => {
  const dir = join(fixtures, name);

  test("config, weights and tensor check", () => {
    const config = readQwenConfig(dir);
    expect(config.architecture).toBe(name.includes("qwen2") ? "qwen2" : "qwen3");
    const weights = openWeights(dir);
    try {
      expect(weights instanceof ShardedWeights).toBe(name === "qwen3-sharded");
      checkQwenWeights(config, weights);
      const norm = weights.tensors.get("model.norm.weight")!;
      expect(norm.dtype).toBe(storedDtype[name]);
      for (const expected of expectedQwenTensors(config)) {
        if (expected.role === "linear" && config.quantization) continue;
        const values = weights.readFloat32(expected.name);
        expect(values.length).toBe(expected.shape.reduce((a, b) => a * b, 1));
        expect(values.every(Number.isFinite)).toBe(true);
        if (storedDtype[name] === "BF16") {
          // Widened bfloat16 leaves the low half of every float32 zero.
          const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
          expect(bits.every((w) => (w & 0xffff) === 0)).toBe(true);
        }
      }
    } finally {
      weights.close();
    }
  });

  test("generation config and tokenizer reproduce the golden ids", () => {
    const config = readQwenConfig(dir);
    const generation = readGenerationConfig(dir);
    expect(generation?.eosTokenIds.length).toBeGreaterThan(0);
    const golden = JSON.parse(readFileSync(join(dir, "golden.json"), "utf8")) as {
      text: string;
      input_ids: number[];
    };
    const tokenizer = loadTokenizer(dir);
    expect(tokenizer.encode(golden.text)).toEqual(golden.input_ids);
    expect(tokenizer.decode(golden.input_ids)).toBe(golden.text);
    expect(tokenizer.vocabSize).toBeLessThanOrEqual(config.vocabSize);
    for (const id of generation!.eosTokenIds) expect(tokenizer.isSpecial(id)).toBe(true);
  });
});

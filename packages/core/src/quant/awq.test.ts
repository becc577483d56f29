/**
 * AWQ GEMM -> MatMulNBits: the nibble order, bit-identical dequantization against the oracle's
 * `dequant.json` (AWQ's own `(q - z) * s`), and the config check that refuses other layouts.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readQwenConfig } from "../model/config";
import type { QwenConfig } from "../model/types";
import { openWeights } from "../model/weights";
import { AWQ_ORDER, awqToMatMulNBits, isNotConverted, parseAwqConfig, readAwqLinear } from "./awq";
import { UnsupportedQuantizationError } from "./errors";
import { dequantizeMatMulNBits, getCode, getZeroPoint } from "./matmul-nbits";

const fixtures = join(import.meta.dir, "../../test/fixtures");

interface DequantFile {
  group_size: number;
  tensors: Record<string, { shape: [number, number]; weight: number[] }>;
}

test("columns 0..7 holding 0..7 pack to 0x75316420 and unpack to their columns", () => {
  // one input row per k (16 = one group), 8 output columns; row 0 carries the canonical word
  const qweight = new Int32Array(16);
  qweight[0] = 0x75316420;
  const qzeros = new Int32Array([0x75316420 | 0]);
  const scales = new Float32Array(8).fill(1);
  const w = awqToMatMulNBits(qweight, qzeros, scales, 16, 8, 16);
  for (let n = 0; n < 8; n++) {
    expect(getCode(w, n, 0)).toBe(n);
    expect(getZeroPoint(w, n, 0)).toBe(n);
  }
  expect(AWQ_ORDER).toEqual([0, 2, 4, 6, 1, 3, 5, 7]);
});

test("a high nibble of 8 or more (a negative int32 word) unpacks unsigned", () => {
  const qweight = new Int32Array(16).fill(0xf0000000 | 0);
  const w = awqToMatMulNBits(qweight, new Int32Array(1), new Float32Array(8).fill(1), 16, 8, 16);
  expect(getCode(w, 7, 3)).toBe(15); // nibble 7 -> column AWQ_ORDER[7] = 7
  expect(getCode(w, 6, 3)).toBe(0);
});

describe.each(["awq-qwen2", "awq-qwen3"])("%s", (name) => {
  const dir = join(fixtures, name);
  const dequant: DequantFile = JSON.parse(readFileSync(join(dir, "dequant.json"), "utf8"));

  for (const [prefix, expected] of Object.entries(dequant.tensors)) {
    test(`${prefix}: converted blocks dequantize bit-identically to AWQ's own`, () => {
      const [inFeatures, outFeatures] = expected.shape;
      const source = openWeights(dir);
      try {
        const w = readAwqLinear(source, prefix, inFeatures, outFeatures, dequant.group_size);
        expect(w.blockSize).toBe(dequant.group_size);
        const dense = dequantizeMatMulNBits(w); // [out, in]
        let mismatches = 0;
        for (let k = 0; k < inFeatures; k++) {
          for (let n = 0; n < outFeatures; n++) {
            if (!Object.is(dense[n * inFeatures + k], Math.fround(expected.weight[k * outFeatures + n]))) {
              mismatches++;
            }
          }
        }
        expect(mismatches).toBe(0);
      } finally {
        source.close();
      }
    });
  }

  test("config: bits 4, group size from the file", () => {
    const awq = parseAwqConfig(readQwenConfig(dir), "config.json");
    expect(awq).toEqual({ bits: 4, groupSize: dequant.group_size, modulesNotConverted: [] });
  });
});

describe("parseAwqConfig refuses what it cannot load exactly", () => {
  const base = readQwenConfig(join(fixtures, "awq-qwen3"));
  const withQuant = (quantization: Record<string, unknown>): QwenConfig => ({
    ...base,
    quantization: { ...base.quantization, ...quantization },
  });
  const refused: [string, Record<string, unknown>, string][] = [
    ["GPTQ", { quant_method: "gptq", desc_act: false }, 'quant_method "gptq"'],
    ["GPTQ act-order", { quant_method: "gptq", desc_act: true }, "act-order"],
    ["GPTQ exllama", { quant_method: "gptq", exllama_config: { version: 2 } }, "exllama"],
    ["AWQ exllama kernels", { version: "exllama" }, 'AWQ version "exllama"'],
    ["AWQ GEMV", { version: "gemv" }, 'AWQ version "gemv"'],
    ["bits 3", { bits: 3 }, "AWQ bits 3"],
    ["bits 8", { bits: 8 }, "AWQ bits 8"],
    ["no zero point", { zero_point: false }, "zero_point false"],
    ["group size 24", { group_size: 24 }, "group_size 24"],
    ["group size -1", { group_size: -1 }, "group_size -1"],
    ["group size past hidden", { group_size: 64 }, "does not divide hidden_size 32"],
  ];
  for (const [what, change, found] of refused) {
    test(what, () => {
      const error = (() => {
        try {
          parseAwqConfig(withQuant(change), "some/config.json");
        } catch (e) {
          return e;
        }
      })() as UnsupportedQuantizationError;
      expect(error).toBeInstanceOf(UnsupportedQuantizationError);
      expect(error.found).toContain(found);
      expect(error.file).toBe("some/config.json");
      expect(error.message).toContain("supported: AWQ GEMM");
    });
  }

  test("modules_to_not_convert match by substring, as AutoAWQ does", () => {
    const awq = parseAwqConfig(withQuant({ modules_to_not_convert: ["mlp.down_proj"] }), "c.json");
    expect(isNotConverted(awq, "model.layers.3.mlp.down_proj")).toBe(true);
    expect(isNotConverted(awq, "model.layers.3.mlp.up_proj")).toBe(false);
  });
});

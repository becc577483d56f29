/**
 * The MatMulNBits layout rtool writes is the one ONNX Runtime reads: a graph of one MatMulNBits
 * node computes the same product as float32 arithmetic over `dequantizeMatMulNBits`, for 4 and 8
 * bits, with and without zero points, and with a last block that K only partly fills.
 */
import { describe, expect, test } from "bun:test";
import * as ort from "onnxruntime-node";
import { GraphBuilder } from "../graph/onnx-builder";
import { QuantizedLayoutError } from "./errors";
import {
  allocateMatMulNBits,
  blockCount,
  dequantizeMatMulNBits,
  emitMatMulNBits,
  getCode,
  getZeroPoint,
  matMulNBitsBytes,
  type NBits,
  setCode,
  setZeroPoint,
} from "./matmul-nbits";

function xorshift(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function randomWeight(k: number, n: number, bits: NBits, blockSize: number, zeroPoints: boolean) {
  const rnd = xorshift(k * 131 + n * 7 + bits);
  const w = allocateMatMulNBits(k, n, bits, blockSize, zeroPoints);
  const levels = 1 << bits;
  for (let row = 0; row < n; row++)
    for (let col = 0; col < k; col++) setCode(w, row, col, Math.floor(rnd() * levels));
  for (let row = 0; row < n; row++) {
    for (let b = 0; b < blockCount(k, blockSize); b++) {
      w.scales[row * blockCount(k, blockSize) + b] = Math.fround(0.01 + rnd() * 0.05);
      if (zeroPoints) setZeroPoint(w, row, b, Math.floor(rnd() * levels));
    }
  }
  return w;
}

async function runOnce(
  w: ReturnType<typeof randomWeight>,
  x: Float32Array,
  m: number,
  bias?: Float32Array,
): Promise<Float32Array> {
  const g = new GraphBuilder("matmul-nbits");
  const a = g.input("a", "float32", [m, w.inFeatures]);
  g.output(emitMatMulNBits(g, a, w, { name: "w", bias }), "y", "float32", [m, w.outFeatures]);
  const session = await ort.InferenceSession.create(g.serialize(), {
    intraOpNumThreads: 1,
    logSeverityLevel: 3,
  });
  try {
    const out = await session.run({ a: new ort.Tensor("float32", x, [m, w.inFeatures]) });
    return out.y.data as Float32Array;
  } finally {
    await session.release();
  }
}

describe("emitMatMulNBits runs in ONNX Runtime as dequantizeMatMulNBits says", () => {
  const cases: [number, number, NBits, number, boolean][] = [
    [64, 24, 4, 16, true],
    [48, 16, 4, 32, true], // last block half full
    [64, 24, 4, 32, false], // default zero point 8
    [64, 24, 8, 16, true],
    [80, 16, 8, 32, false], // default zero point 128, partial block
  ];
  for (const [k, n, bits, blockSize, zeroPoints] of cases) {
    test(`K=${k} N=${n} bits=${bits} block=${blockSize} zero points ${zeroPoints}`, async () => {
      const w = randomWeight(k, n, bits, blockSize, zeroPoints);
      const m = 3;
      const rnd = xorshift(99);
      const x = Float32Array.from({ length: m * k }, () => rnd() - 0.5);
      const bias = Float32Array.from({ length: n }, (_, i) => i / 10);
      const y = await runOnce(w, x, m, bias);
      const dense = dequantizeMatMulNBits(w);
      let worst = 0;
      for (let r = 0; r < m; r++) {
        for (let c = 0; c < n; c++) {
          let sum = bias[c];
          for (let i = 0; i < k; i++) sum += x[r * k + i] * dense[c * k + i];
          worst = Math.max(worst, Math.abs(sum - y[r * n + c]) / (1 + Math.abs(sum)));
        }
      }
      expect(worst).toBeLessThan(1e-5);
    });
  }
});

test("codes and zero points pack low nibble first and read back", () => {
  const w = allocateMatMulNBits(32, 2, 4, 16);
  setCode(w, 1, 0, 0x3);
  setCode(w, 1, 1, 0xa);
  setZeroPoint(w, 1, 0, 0x5);
  setZeroPoint(w, 1, 1, 0xc);
  expect(w.data[16]).toBe(0xa3); // row 1 starts after 2 blocks x 8 bytes of row 0
  expect(w.zeroPoints?.[1]).toBe(0xc5);
  expect([getCode(w, 1, 0), getCode(w, 1, 1), getZeroPoint(w, 1, 0), getZeroPoint(w, 1, 1)]).toEqual([
    0x3, 0xa, 0x5, 0xc,
  ]);
  expect(matMulNBitsBytes(w)).toBe(2 * 2 * 8 + 2 * 2 * 4 + 2);
  const noZeros = allocateMatMulNBits(16, 1, 8, 16, false);
  expect(getZeroPoint(noZeros, 0, 0)).toBe(128);
});

test("block sizes MatMulNBits cannot take are refused", () => {
  expect(() => allocateMatMulNBits(48, 8, 4, 24)).toThrow(QuantizedLayoutError);
  expect(() => allocateMatMulNBits(48, 8, 4, 8)).toThrow(QuantizedLayoutError);
});

/**
 * Round-to-nearest block quantization: every weight within half a step of the original, zeros
 * exact, codes and zero points in range, partial last blocks padded with the zero point.
 */
import { expect, test } from "bun:test";
import { QuantizedLayoutError } from "./errors";
import { blockCount, dequantizeMatMulNBits, getCode, getZeroPoint, type NBits } from "./matmul-nbits";
import { quantizeRoundToNearest } from "./round-to-nearest";

function weights(n: number, k: number, seed: number): Float32Array {
  let s = seed;
  return Float32Array.from({ length: n * k }, (_, i) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    // mostly small values, a few outliers, some exact zeros
    if (i % 17 === 0) return 0;
    const u = s / 4294967296 - 0.5;
    return i % 29 === 0 ? u * 8 : u * 0.2;
  });
}

for (const [bits, k, blockSize] of [
  [4, 64, 32],
  [4, 48, 32],
  [8, 64, 16],
  [8, 100, 32],
] as [NBits, number, number][]) {
  test(`int${bits}, K=${k}, block ${blockSize}: error at most half a step per block`, () => {
    const n = 6;
    const w = weights(n, k, bits * 1000 + k);
    const q = quantizeRoundToNearest(w, n, k, { bits, blockSize });
    const dense = dequantizeMatMulNBits(q);
    const blocks = blockCount(k, blockSize);
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < k; col++) {
        const b = Math.floor(col / blockSize);
        const scale = q.scales[row * blocks + b];
        const i = row * k + col;
        expect(Math.abs(dense[i] - w[i])).toBeLessThanOrEqual(scale / 2 + 1e-7);
        if (w[i] === 0) expect(dense[i]).toBe(0);
        expect(getCode(q, row, col)).toBeLessThan(1 << bits);
      }
      for (let b = 0; b < blocks; b++) expect(getZeroPoint(q, row, b)).toBeLessThan(1 << bits);
      // padding past K in the last block holds the zero point
      const lastBlock = blocks - 1;
      for (let col = k; col < blocks * blockSize; col++) {
        expect(getCode(q, row, col)).toBe(getZeroPoint(q, row, lastBlock));
      }
    }
  });
}

test("a block of zeros stays zeros", () => {
  const q = quantizeRoundToNearest(new Float32Array(32), 1, 32, { bits: 4, blockSize: 32 });
  expect(Array.from(dequantizeMatMulNBits(q))).toEqual(new Array(32).fill(0));
});

test("a weight of the wrong size is refused", () => {
  expect(() => quantizeRoundToNearest(new Float32Array(10), 2, 8, { bits: 8, blockSize: 16 })).toThrow(
    QuantizedLayoutError,
  );
});

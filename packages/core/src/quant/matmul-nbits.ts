/**
 * ONNX Runtime's `com.microsoft.MatMulNBits`: a linear layer whose weight is quantized block-wise
 * along K (the input features). Layout, as the contrib-op schema defines it:
 *
 * - `B` uint8 [N, blocks, blobSize], blocks = ceil(K / blockSize), blobSize = blockSize * bits / 8:
 *   row n holds output feature n; its codes run along K, packed low bits first (for 4 bits, code
 *   2j in the low nibble of byte j and code 2j+1 in the high nibble).
 * - `scales` float32 [N, blocks].
 * - `zero_points` uint8 [N, ceil(blocks * bits / 8)], packed along blocks like `B` (each row
 *   starts on a byte); absent means 2^(bits-1) (8 for 4 bits, 128 for 8 bits).
 *
 * Dequantized: `w[n][k] = (code[n][k] - zero[n][k / blockSize]) * scale[n][k / blockSize]`, and the
 * op computes `A @ w^T`, i.e. exactly what `nn.Linear` does with weight `w` of shape [N, K].
 */
import type { GraphBuilder } from "../graph/onnx-builder";
import { QuantizedLayoutError } from "./errors";

/** Bits per code that rtool emits (MatMulNBits allows 2..8; these are the ones with fast kernels). */
export type NBits = 4 | 8;

/** One quantized weight in MatMulNBits layout. */
export interface MatMulNBitsWeight {
  /** K: input features. */
  inFeatures: number;
  /** N: output features. */
  outFeatures: number;
  bits: NBits;
  /** Codes per block along K; a power of two, at least 16. */
  blockSize: number;
  /** `B`: [N, blocks, blobSize] packed codes. */
  data: Uint8Array;
  /** [N * blocks] float32 scales. */
  scales: Float32Array;
  /** [N * zeroPointRowBytes] packed zero points; absent means 2^(bits-1). */
  zeroPoints?: Uint8Array;
}

/** Blocks per output row: ceil(K / blockSize). */
export function blockCount(inFeatures: number, blockSize: number): number {
  return Math.ceil(inFeatures / blockSize);
}

/** Bytes of one block of codes. */
export function blobSize(blockSize: number, bits: NBits): number {
  return (blockSize * bits) / 8;
}

/** Bytes of one row of packed zero points: ceil(blocks * bits / 8). */
export function zeroPointRowBytes(blocks: number, bits: NBits): number {
  return Math.ceil((blocks * bits) / 8);
}

/** Checks that `blockSize` is one MatMulNBits accepts. */
export function checkBlockSize(blockSize: number, where: string): void {
  if (!Number.isInteger(blockSize) || blockSize < 16 || (blockSize & (blockSize - 1)) !== 0) {
    throw new QuantizedLayoutError(
      where,
      `block size must be a power of two of at least 16, got ${blockSize}`,
    );
  }
}

/**
 * An empty weight of the given geometry (codes and zero points 0, scales 0), for packers to fill.
 *
 * @example
 * ```ts
 * const w = allocateMatMulNBits(896, 4864, 4, 32);
 * w.data.length; // 4864 * 28 * 16
 * ```
 */
export function allocateMatMulNBits(
  inFeatures: number,
  outFeatures: number,
  bits: NBits,
  blockSize: number,
  withZeroPoints = true,
): MatMulNBitsWeight {
  checkBlockSize(blockSize, `${outFeatures}x${inFeatures} weight`);
  const blocks = blockCount(inFeatures, blockSize);
  return {
    inFeatures,
    outFeatures,
    bits,
    blockSize,
    data: new Uint8Array(outFeatures * blocks * blobSize(blockSize, bits)),
    scales: new Float32Array(outFeatures * blocks),
    zeroPoints: withZeroPoints ? new Uint8Array(outFeatures * zeroPointRowBytes(blocks, bits)) : undefined,
  };
}

/** Byte index and shift of code `k` of row `n` in `data`. */
function codePosition(w: MatMulNBitsWeight, n: number, k: number): { byte: number; shift: number } {
  const rowBytes = blockCount(w.inFeatures, w.blockSize) * blobSize(w.blockSize, w.bits);
  if (w.bits === 8) return { byte: n * rowBytes + k, shift: 0 };
  return { byte: n * rowBytes + (k >> 1), shift: (k & 1) * 4 };
}

/** Stores code `q` for row `n`, input feature `k` (the byte must have been zero for that slot). */
export function setCode(w: MatMulNBitsWeight, n: number, k: number, q: number): void {
  const { byte, shift } = codePosition(w, n, k);
  w.data[byte] |= q << shift;
}

/** Code of row `n`, input feature `k`. */
export function getCode(w: MatMulNBitsWeight, n: number, k: number): number {
  const { byte, shift } = codePosition(w, n, k);
  return w.bits === 8 ? w.data[byte] : (w.data[byte] >> shift) & 0xf;
}

/** Stores zero point `z` of row `n`, block `b` (the slot must have been zero). */
export function setZeroPoint(w: MatMulNBitsWeight, n: number, b: number, z: number): void {
  if (!w.zeroPoints) throw new QuantizedLayoutError("zero_points", "this weight has no zero points");
  const row = n * zeroPointRowBytes(blockCount(w.inFeatures, w.blockSize), w.bits);
  if (w.bits === 8) w.zeroPoints[row + b] = z;
  else w.zeroPoints[row + (b >> 1)] |= z << ((b & 1) * 4);
}

/** Zero point of row `n`, block `b` (the default 2^(bits-1) when the weight has none). */
export function getZeroPoint(w: MatMulNBitsWeight, n: number, b: number): number {
  if (!w.zeroPoints) return 1 << (w.bits - 1);
  const row = n * zeroPointRowBytes(blockCount(w.inFeatures, w.blockSize), w.bits);
  if (w.bits === 8) return w.zeroPoints[row + b];
  return (w.zeroPoints[row + (b >> 1)] >> ((b & 1) * 4)) & 0xf;
}

/**
 * The float32 weight [N, K] (nn.Linear layout) a MatMulNBits weight stands for, computed as the
 * op defines it: `(code - zero) * scale`. For tests and for checking conversions bit for bit.
 */
export function dequantizeMatMulNBits(w: MatMulNBitsWeight): Float32Array {
  const { inFeatures: K, outFeatures: N, blockSize } = w;
  const blocks = blockCount(K, blockSize);
  const out = new Float32Array(N * K);
  for (let n = 0; n < N; n++) {
    for (let k = 0; k < K; k++) {
      const b = Math.floor(k / blockSize);
      out[n * K + k] = Math.fround((getCode(w, n, k) - getZeroPoint(w, n, b)) * w.scales[n * blocks + b]);
    }
  }
  return out;
}

/** Bytes a MatMulNBits weight occupies (codes, scales, zero points), i.e. what a step reads. */
export function matMulNBitsBytes(w: MatMulNBitsWeight): number {
  return w.data.byteLength + w.scales.byteLength + (w.zeroPoints?.byteLength ?? 0);
}

/** MatMulNBits `accuracy_level` values: 0 unset, 1 fp32, 2 fp16, 3 bf16, 4 int8 activations. */
export type MatMulNBitsAccuracyLevel = 0 | 1 | 2 | 3 | 4;

/** Options of {@link emitMatMulNBits}. */
export interface EmitMatMulNBitsOptions {
  /** Initializer names start with this (e.g. the HF module prefix). */
  name: string;
  /** Float32 bias [N] added after the product. */
  bias?: Float32Array;
  /**
   * MatMulNBits `accuracy_level`: 0 (default) computes in float32 from the dequantized weight;
   * 4 lets the CPU kernel quantize A to int8 per block (faster, no longer exact). 2 (fp16) and
   * 3 (bf16) are accepted for measurements: ONNX Runtime runs the most accurate level at or
   * below the one asked for that its CPU kernels have (on x86-64: 1 = float32, or 4).
   */
  accuracyLevel?: MatMulNBitsAccuracyLevel;
}

/**
 * Emits `x @ w^T (+ bias)` as one `com.microsoft.MatMulNBits` node; returns its output name.
 *
 * @example
 * ```ts
 * const y = emitMatMulNBits(g, x, quantizeRoundToNearest(weight, 1024, 896, { bits: 4 }), {
 *   name: "model.layers.0.mlp.up_proj",
 * });
 * ```
 */
export function emitMatMulNBits(
  g: GraphBuilder,
  x: string,
  w: MatMulNBitsWeight,
  options: EmitMatMulNBitsOptions,
): string {
  const { inFeatures: K, outFeatures: N, bits, blockSize } = w;
  const blocks = blockCount(K, blockSize);
  const inputs = [
    x,
    g.initializer(`${options.name}.qweight_nbits`, w.data, [N, blocks, blobSize(blockSize, bits)], "uint8"),
    g.initializer(`${options.name}.scales_nbits`, w.scales, [N * blocks]),
  ];
  if (w.zeroPoints) {
    inputs.push(
      g.initializer(
        `${options.name}.zeros_nbits`,
        w.zeroPoints,
        [N * zeroPointRowBytes(blocks, bits)],
        "uint8",
      ),
    );
  }
  const attributes: Record<string, number> = { K, N, bits, block_size: blockSize };
  if (options.accuracyLevel) attributes.accuracy_level = options.accuracyLevel;
  const [y] = g.node("MatMulNBits", inputs, { domain: "com.microsoft", attributes });
  if (!options.bias) return y;
  return g.add(y, g.initializer(`${options.name}.bias`, options.bias, [N]));
}

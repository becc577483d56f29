/**
 * Random quantized linear layers filled directly in MatMulNBits layout, for benchmarks at real
 * model shapes: quantizing random float weights of a 4B model would take longer than the
 * benchmark itself, while random codes cost one pass of integer writes.
 */
import type { LinearHook } from "../graph/qwen";
import {
  allocateMatMulNBits,
  emitMatMulNBits,
  type MatMulNBitsAccuracyLevel,
  type MatMulNBitsWeight,
  type NBits,
} from "./matmul-nbits";

/** Options of {@link randomQuantizedLinear}. */
export interface RandomQuantizedOptions {
  bits: NBits;
  blockSize: number;
  /** MatMulNBits `accuracy_level`: 0 = float32 compute (the exact AWQ path), 4 = int8 activations. */
  accuracyLevel: MatMulNBitsAccuracyLevel;
  /** Same seed, same weights; default 1. */
  seed?: number;
}

function seedOf(name: string, seed: number): number {
  let x = seed ^ 0x9e3779b9;
  for (let i = 0; i < name.length; i++) x = Math.imul(x ^ name.charCodeAt(i), 0x01000193);
  return x >>> 0 || 1;
}

/**
 * A random MatMulNBits weight: uniform codes, zero points at mid-range and scales chosen so the
 * dequantized weight is uniform in about ±1.7/sqrt(K), like `randomQwenWeights`' float ones.
 *
 * @example
 * ```ts
 * const w = randomMatMulNBits(2560, 9728, { bits: 4, blockSize: 128, accuracyLevel: 0 }, "up_proj");
 * ```
 */
export function randomMatMulNBits(
  inFeatures: number,
  outFeatures: number,
  options: RandomQuantizedOptions,
  name: string,
): MatMulNBitsWeight {
  const w = allocateMatMulNBits(inFeatures, outFeatures, options.bits, options.blockSize);
  // xorshift32 over whole words: every byte (and so every nibble) is uniform
  const words = new Uint32Array(w.data.buffer, w.data.byteOffset, w.data.byteLength >> 2);
  let state = seedOf(name, options.seed ?? 1);
  for (let i = 0; i < words.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[i] = state;
  }
  const half = 1 << (options.bits - 1);
  w.zeroPoints?.fill(options.bits === 4 ? half | (half << 4) : half);
  w.scales.fill(1.7 / Math.sqrt(inFeatures) / half);
  return w;
}

/**
 * A {@link LinearHook} emitting random quantized weights of each layer's shape; biases come from
 * the float weight provider (they are small). For benchmarks only: the outputs mean nothing.
 *
 * @example
 * ```ts
 * const model = await createModelFromWeights(config, randomQwenWeights(config), undefined, {
 *   linear: randomQuantizedLinear({ bits: 4, blockSize: 32, accuracyLevel: 4 }),
 * });
 * ```
 */
export function randomQuantizedLinear(options: RandomQuantizedOptions): LinearHook {
  return (g, x, spec, weights) => {
    const w = randomMatMulNBits(spec.inFeatures, spec.outFeatures, options, spec.prefix);
    const bias = spec.hasBias ? weights(`${spec.prefix}.bias`).data : undefined;
    return emitMatMulNBits(g, x, w, { name: spec.prefix, bias, accuracyLevel: options.accuracyLevel });
  };
}

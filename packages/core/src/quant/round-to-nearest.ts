/**
 * Round-to-nearest block quantization of float weights into MatMulNBits layout, for checkpoints
 * without a quantized file (`quant: "int8"` / `"int4"`). Asymmetric min-max per block: each block
 * of `blockSize` input features of one output row gets its own scale and zero point, and its range
 * always includes 0 so zero weights (and padding) stay exactly zero.
 */
import type { LinearHook } from "../graph/qwen";
import { QuantizedLayoutError } from "./errors";
import {
  allocateMatMulNBits,
  blockCount,
  emitMatMulNBits,
  type MatMulNBitsWeight,
  type NBits,
  setZeroPoint,
} from "./matmul-nbits";

/** Options of {@link quantizeRoundToNearest}. */
export interface RoundToNearestOptions {
  bits: NBits;
  /** Input features per block; a power of two, at least 16. */
  blockSize: number;
}

/**
 * Quantizes a float weight [outFeatures, inFeatures] (nn.Linear layout) block-wise.
 * Every dequantized value is within half a step (`scale / 2`) of the original.
 *
 * @example
 * ```ts
 * const w = quantizeRoundToNearest(weight, 4864, 896, { bits: 4, blockSize: 32 });
 * const y = emitMatMulNBits(g, x, w, { name: "model.layers.0.mlp.up_proj" });
 * ```
 */
export function quantizeRoundToNearest(
  weight: Float32Array,
  outFeatures: number,
  inFeatures: number,
  options: RoundToNearestOptions,
): MatMulNBitsWeight {
  if (weight.length !== outFeatures * inFeatures) {
    throw new QuantizedLayoutError(
      "weight",
      `has ${weight.length} values, expected ${outFeatures} x ${inFeatures} = ${outFeatures * inFeatures}`,
    );
  }
  const { bits, blockSize } = options;
  const w = allocateMatMulNBits(inFeatures, outFeatures, bits, blockSize);
  const blocks = blockCount(inFeatures, blockSize);
  const maxCode = (1 << bits) - 1;
  const blob = (blockSize * bits) / 8;
  for (let n = 0; n < outFeatures; n++) {
    const row = n * inFeatures;
    for (let b = 0; b < blocks; b++) {
      const from = row + b * blockSize;
      const to = row + Math.min(inFeatures, (b + 1) * blockSize);
      let lo = 0;
      let hi = 0;
      for (let i = from; i < to; i++) {
        const v = weight[i];
        if (v < lo) lo = v;
        else if (v > hi) hi = v;
      }
      // a block of zeros keeps scale 1 so codes stay finite; it dequantizes to zeros all the same
      const scale = hi > lo ? Math.fround((hi - lo) / maxCode) : 1;
      const zero = Math.min(maxCode, Math.max(0, Math.round(-lo / scale)));
      w.scales[n * blocks + b] = scale;
      setZeroPoint(w, n, b, zero);
      const base = (n * blocks + b) * blob;
      for (let i = from; i < to; i++) {
        const q = Math.min(maxCode, Math.max(0, Math.round(weight[i] / scale) + zero));
        const k = i - from;
        if (bits === 8) w.data[base + k] = q;
        else w.data[base + (k >> 1)] |= q << ((k & 1) * 4);
      }
      // codes past inFeatures in the last block hold the zero point, i.e. dequantize to 0
      for (let k = to - from; k < blockSize; k++) {
        if (bits === 8) w.data[base + k] = zero;
        else w.data[base + (k >> 1)] |= zero << ((k & 1) * 4);
      }
    }
  }
  return w;
}

/** Options of {@link roundToNearestLinear}. */
export interface RoundToNearestLinearOptions extends RoundToNearestOptions {
  /** MatMulNBits `accuracy_level` (see `emitMatMulNBits`); 4 = int8 activations, the fast CPU path. */
  accuracyLevel: 0 | 4;
}

/**
 * A {@link LinearHook} that quantizes each linear weight as the graph is built and emits it as
 * MatMulNBits; biases stay float32.
 */
export function roundToNearestLinear(options: RoundToNearestLinearOptions): LinearHook {
  return (g, x, spec, weights) => {
    const weight = weights(`${spec.prefix}.weight`).data;
    const w = quantizeRoundToNearest(weight, spec.outFeatures, spec.inFeatures, options);
    const bias = spec.hasBias ? weights(`${spec.prefix}.bias`).data : undefined;
    return emitMatMulNBits(g, x, w, { name: spec.prefix, bias, accuracyLevel: options.accuracyLevel });
  };
}

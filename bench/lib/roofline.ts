/**
 * Roofline cost of one decoder forward pass: the weight bytes it must read and the FLOPs it must
 * do, so a measured step time can be compared with max(bytes / bandwidth, FLOPs / peak).
 */
import { type QwenConfig, qwenTensorShapes } from "../../packages/core/src/index";

/** Weights of one decoder layer's linear projections (q, k, v, o, gate, up, down), from core's shape table. */
export function layerLinearParams(config: QwenConfig): number {
  let params = 0;
  for (const [name, [rows, cols]] of qwenTensorShapes(config))
    if (name.startsWith("model.layers.0.") && name.endsWith("_proj.weight")) params += rows * cols;
  return params;
}

/** Work of one forward pass. */
export interface StepCost {
  /** Bytes of weights read (float32 linear layers + classifier; embedding rows are negligible). */
  weightBytes: number;
  /** Floating point operations (2 per multiply-add). */
  flops: number;
}

/**
 * Cost of a step over `q` new tokens on top of `past` cached ones, with logits for `rows` rows.
 *
 * @example
 * ```ts
 * const cost = stepCost(config, { q: 1, past: 100, rows: 1 });
 * const bound = Math.max(cost.weightBytes / bandwidth, cost.flops / peak);
 * ```
 */
export function stepCost(
  config: QwenConfig,
  shape: { q: number; past: number; rows: number; bytesPerWeight?: number },
): StepCost {
  const bytesPerWeight = shape.bytesPerWeight ?? 4;
  const layerParams = layerLinearParams(config);
  const classifierParams = config.vocabSize * config.hiddenSize;
  const total = shape.past + shape.q;
  // scores and weighted values
  const attentionFlops = 4 * shape.q * total * config.numAttentionHeads * config.headDim;
  return {
    weightBytes: (config.numLayers * layerParams + classifierParams) * bytesPerWeight,
    flops:
      config.numLayers * (2 * layerParams * shape.q + attentionFlops) + 2 * classifierParams * shape.rows,
  };
}

/** Measured time over the roofline bound (1 = as fast as the machine allows). */
export function rooflineRatio(
  stepMs: number,
  cost: StepCost,
  bandwidthGBs: number,
  peakGflops: number,
): number {
  const boundMs = Math.max(cost.weightBytes / (bandwidthGBs * 1e6), cost.flops / (peakGflops * 1e6));
  return stepMs / boundMs;
}

/**
 * Attention mask of `q` tokens decoded in parallel over `past` cached ones: each sees the past and
 * itself only (one token per live head), [q, past + q] of 0 / -Infinity.
 */
export function treeMask(q: number, past: number): Float32Array {
  const total = past + q;
  const mask = new Float32Array(q * total).fill(Number.NEGATIVE_INFINITY);
  for (let i = 0; i < q; i++) {
    mask.fill(0, i * total, i * total + past);
    mask[i * total + past + i] = 0;
  }
  return mask;
}

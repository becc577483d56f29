/** Small Qwen shapes for runtime tests on random weights. */
import type { QwenConfig } from "../src/model/types";

/** Qwen2-style: q/k/v biases, GQA 4:2, untied classifier. */
export const tinyQwen2: QwenConfig = {
  architecture: "qwen2",
  vocabSize: 97,
  hiddenSize: 32,
  intermediateSize: 48,
  numLayers: 2,
  numAttentionHeads: 4,
  numKeyValueHeads: 2,
  headDim: 8,
  ropeTheta: 10000,
  rmsNormEps: 1e-6,
  tieWordEmbeddings: false,
  maxPositionEmbeddings: 256,
  attentionBias: true,
  qkNorm: false,
};

/** Qwen3-style: q/k norms, head_dim != hidden/heads, GQA 6:2, tied embeddings. */
export const tinyQwen3: QwenConfig = {
  ...tinyQwen2,
  architecture: "qwen3",
  vocabSize: 101,
  numAttentionHeads: 6,
  numKeyValueHeads: 2,
  headDim: 16,
  ropeTheta: 1000000,
  tieWordEmbeddings: true,
  attentionBias: false,
  qkNorm: true,
};

/** Largest absolute difference of two equally long arrays. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} != ${b.length}`);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/** Index of the largest value. */
export function argmax(a: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < a.length; i++) if (a[i] > a[best]) best = i;
  return best;
}

/**
 * Model shapes the benchmarks build from random weights in memory.
 */
import type { QwenConfig } from "../../packages/core/src/index";

const base: Omit<QwenConfig, "architecture" | "vocabSize" | "hiddenSize" | "intermediateSize" | "numLayers"> =
  {
    numAttentionHeads: 4,
    numKeyValueHeads: 2,
    headDim: 64,
    ropeTheta: 1000000,
    rmsNormEps: 1e-6,
    tieWordEmbeddings: true,
    maxPositionEmbeddings: 4096,
    attentionBias: false,
    qkNorm: true,
  };

/** The shapes measured: a tiny Qwen3 (embedded-model sized) and Qwen2.5-0.5B. */
export const BENCH_SHAPES: Record<string, QwenConfig> = {
  tiny: {
    ...base,
    architecture: "qwen3",
    vocabSize: 16384,
    hiddenSize: 256,
    intermediateSize: 768,
    numLayers: 4,
  },
  "qwen2.5-0.5b": {
    ...base,
    architecture: "qwen2",
    vocabSize: 151936,
    hiddenSize: 896,
    intermediateSize: 4864,
    numLayers: 24,
    numAttentionHeads: 14,
    numKeyValueHeads: 2,
    ropeTheta: 1000000,
    attentionBias: true,
    qkNorm: false,
  },
};

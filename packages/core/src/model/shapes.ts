/**
 * The one table of model shapes: the Qwen checkpoints rtool serves and measures, as their
 * published `config.json` files give them. Benchmarks, tests, exporters and tools import these
 * rather than restating hidden sizes, so a shape is corrected in one place. Token ids (bos/eos)
 * are left out: they belong to a tokenizer, not to a shape.
 */
import type { QwenConfig } from "./types";

/** Names of the shapes in {@link QWEN_SHAPES}. */
export type QwenShapeName = "rt-tiny" | "qwen3-0.6b" | "qwen2.5-0.5b" | "qwen2.5-1.5b" | "qwen3-4b";

const qwen2: Pick<QwenConfig, "architecture" | "attentionBias" | "qkNorm"> = {
  architecture: "qwen2",
  attentionBias: true,
  qkNorm: false,
};
const qwen3: Pick<QwenConfig, "architecture" | "attentionBias" | "qkNorm"> = {
  architecture: "qwen3",
  attentionBias: false,
  qkNorm: true,
};
/** What the released Qwen2.5 / Qwen3 small models share. */
const released = {
  vocabSize: 151936,
  ropeTheta: 1000000,
  rmsNormEps: 1e-6,
  tieWordEmbeddings: true,
};

/**
 * Shapes by name. `rt-tiny` is the embedded model (`@rtool/model-rt-tiny`, 5.2M parameters);
 * the others are the released checkpoints of that name.
 *
 * @example
 * ```ts
 * import { QWEN_SHAPES, randomQwenWeights } from "@rtool/core";
 * const config = { ...QWEN_SHAPES["qwen2.5-0.5b"], maxPositionEmbeddings: 4096 };
 * const weights = randomQwenWeights(config, 1);
 * ```
 */
export const QWEN_SHAPES: Readonly<Record<QwenShapeName, Readonly<QwenConfig>>> = {
  "rt-tiny": {
    ...qwen3,
    vocabSize: 8192,
    hiddenSize: 256,
    intermediateSize: 768,
    numLayers: 4,
    numAttentionHeads: 4,
    numKeyValueHeads: 2,
    headDim: 64,
    ropeTheta: 10000,
    rmsNormEps: 1e-6,
    tieWordEmbeddings: true,
    maxPositionEmbeddings: 4096,
  },
  "qwen3-0.6b": {
    ...qwen3,
    ...released,
    hiddenSize: 1024,
    intermediateSize: 3072,
    numLayers: 28,
    numAttentionHeads: 16,
    numKeyValueHeads: 8,
    headDim: 128,
    maxPositionEmbeddings: 40960,
  },
  "qwen2.5-0.5b": {
    ...qwen2,
    ...released,
    hiddenSize: 896,
    intermediateSize: 4864,
    numLayers: 24,
    numAttentionHeads: 14,
    numKeyValueHeads: 2,
    headDim: 64,
    maxPositionEmbeddings: 32768,
  },
  "qwen2.5-1.5b": {
    ...qwen2,
    ...released,
    hiddenSize: 1536,
    intermediateSize: 8960,
    numLayers: 28,
    numAttentionHeads: 12,
    numKeyValueHeads: 2,
    headDim: 128,
    maxPositionEmbeddings: 32768,
  },
  "qwen3-4b": {
    ...qwen3,
    ...released,
    hiddenSize: 2560,
    intermediateSize: 9728,
    numLayers: 36,
    numAttentionHeads: 32,
    numKeyValueHeads: 8,
    headDim: 128,
    maxPositionEmbeddings: 40960,
  },
};

/**
 * The `config.json` fields that fix a shape's layers, for writing a checkpoint of this shape
 * over another model's vocabulary (a fixture's tokenizer, say).
 *
 * @example
 * ```ts
 * const config = JSON.parse(readFileSync("fixture/config.json", "utf8"));
 * Object.assign(config, layerShapeJson(QWEN_SHAPES["rt-tiny"]), { max_position_embeddings: 2048 });
 * writeRandomQwenCheckpoint(dir, config, { seed: 7 });
 * ```
 */
export function layerShapeJson(config: QwenConfig): Record<string, number> {
  return {
    hidden_size: config.hiddenSize,
    intermediate_size: config.intermediateSize,
    num_hidden_layers: config.numLayers,
    num_attention_heads: config.numAttentionHeads,
    num_key_value_heads: config.numKeyValueHeads,
    head_dim: config.headDim,
  };
}

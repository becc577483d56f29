/**
 * Deterministic random weights of any Qwen shape, held in memory: for benchmarks at real model
 * shapes and tests of big shapes without a checkpoint on disk.
 */
import type { QwenConfig } from "../model/types";
import type { WeightProvider, WeightTensor } from "./qwen";

/** Every float tensor a Qwen checkpoint of this config holds, with its HF shape. */
export function qwenTensorShapes(config: QwenConfig): Map<string, number[]> {
  const {
    hiddenSize: h,
    intermediateSize: ff,
    numAttentionHeads: nH,
    numKeyValueHeads: kvH,
    headDim: hd,
  } = config;
  const shapes = new Map<string, number[]>();
  shapes.set("model.embed_tokens.weight", [config.vocabSize, h]);
  for (let l = 0; l < config.numLayers; l++) {
    const p = `model.layers.${l}`;
    shapes.set(`${p}.input_layernorm.weight`, [h]);
    shapes.set(`${p}.self_attn.q_proj.weight`, [nH * hd, h]);
    shapes.set(`${p}.self_attn.k_proj.weight`, [kvH * hd, h]);
    shapes.set(`${p}.self_attn.v_proj.weight`, [kvH * hd, h]);
    if (config.attentionBias) {
      shapes.set(`${p}.self_attn.q_proj.bias`, [nH * hd]);
      shapes.set(`${p}.self_attn.k_proj.bias`, [kvH * hd]);
      shapes.set(`${p}.self_attn.v_proj.bias`, [kvH * hd]);
    }
    if (config.qkNorm) {
      shapes.set(`${p}.self_attn.q_norm.weight`, [hd]);
      shapes.set(`${p}.self_attn.k_norm.weight`, [hd]);
    }
    shapes.set(`${p}.self_attn.o_proj.weight`, [h, nH * hd]);
    shapes.set(`${p}.post_attention_layernorm.weight`, [h]);
    shapes.set(`${p}.mlp.gate_proj.weight`, [ff, h]);
    shapes.set(`${p}.mlp.up_proj.weight`, [ff, h]);
    shapes.set(`${p}.mlp.down_proj.weight`, [h, ff]);
  }
  shapes.set("model.norm.weight", [h]);
  if (!config.tieWordEmbeddings) shapes.set("lm_head.weight", [config.vocabSize, h]);
  return shapes;
}

/** A 32-bit hash of a string, to derive an independent offset per tensor. */
function hashName(name: string, seed: number): number {
  let x = seed ^ 0x9e3779b9;
  for (let i = 0; i < name.length; i++) x = Math.imul(x ^ name.charCodeAt(i), 0x01000193);
  return x >>> 0;
}

/** Values in a pool: a prime count, so rows of a large matrix do not line up with the pool's period. */
const POOL_SIZE = 1_048_573;

/** POOL_SIZE uniform values in [-0.5, 0.5) from xorshift32. */
function uniformPool(seed: number): Float32Array {
  const pool = new Float32Array(POOL_SIZE);
  let state = (seed ^ 0x2545f491) >>> 0 || 1;
  for (let i = 0; i < POOL_SIZE; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pool[i] = (state >>> 0) / 4294967296 - 0.5;
  }
  return pool;
}

/**
 * Random weights for `config`, the same for the same seed: uniform values scaled like a trained
 * model (±1.7/sqrt(fan-in) for matrices, 1 ± 0.1 for norm weights, ±0.1 for biases).
 * Each tensor is copied from a pool of ~1M values at its own offset (scaled pools are cached),
 * so the 0.5B shape fills in about a second instead of generating 500M numbers one by one.
 *
 * @example
 * ```ts
 * const weights = randomQwenWeights(config, 42);
 * const graph = buildQwenGraph(config, weights);
 * ```
 */
export function randomQwenWeights(config: QwenConfig, seed = 1): WeightProvider {
  const shapes = qwenTensorShapes(config);
  const unit = uniformPool(seed);
  const pools = new Map<string, Float32Array>();
  const poolFor = (scale: number, offset: number): Float32Array => {
    const key = `${scale}:${offset}`;
    let pool = pools.get(key);
    if (!pool) {
      pool = new Float32Array(POOL_SIZE);
      for (let i = 0; i < POOL_SIZE; i++) pool[i] = offset + unit[i] * 2 * scale;
      pools.set(key, pool);
    }
    return pool;
  };
  return (name: string): WeightTensor => {
    const shape = shapes.get(name);
    if (!shape)
      throw new RangeError(`randomQwenWeights: no tensor named ${name} in a ${config.architecture} model`);
    const size = shape.reduce((a, b) => a * b, 1);
    const pool = name.endsWith("norm.weight")
      ? poolFor(0.1, 1)
      : name.endsWith(".bias")
        ? poolFor(0.1, 0)
        : poolFor(1.7 / Math.sqrt(shape[shape.length - 1]), 0);
    const data = new Float32Array(size);
    let from = hashName(name, seed) % POOL_SIZE;
    for (let filled = 0; filled < size; ) {
      const n = Math.min(size - filled, POOL_SIZE - from);
      data.set(pool.subarray(from, from + n), filled);
      filled += n;
      from = 0;
    }
    return { data, shape };
  };
}

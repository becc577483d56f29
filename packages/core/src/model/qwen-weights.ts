/**
 * The tensors a Qwen2 / Qwen3 decoder needs, by Hugging Face name and shape, and a check that a
 * checkpoint provides them before any graph is built.
 */

import { FLOAT_DTYPES } from "./dtypes";
import { TensorDtypeError, TensorMissingError, TensorShapeError } from "./errors";
import type { QwenConfig, WeightSource } from "./types";

/**
 * What a tensor is for: `linear` weights are the ones a quantized checkpoint replaces
 * (q/k/v/o and gate/up/down projections); the rest stay floating point.
 */
export type QwenTensorRole = "embedding" | "norm" | "linear" | "bias" | "lmHead";

/** One tensor the graph needs. */
export interface ExpectedTensor {
  /** Hugging Face name, e.g. `model.layers.0.self_attn.q_proj.weight`. */
  name: string;
  /** Shape as stored (linear weights are [out, in]). */
  shape: number[];
  role: QwenTensorRole;
  /** Layer index, for per-layer tensors. */
  layer?: number;
}

/** Prefix of layer `i`'s tensors. */
export function layerPrefix(layer: number): string {
  return `model.layers.${layer}`;
}

/**
 * Every tensor the decoder graph reads, in forward order.
 * @example
 * expectedQwenTensors(config).find((t) => t.name === "model.norm.weight"); // {shape: [hidden], role: "norm"}
 */
export function expectedQwenTensors(config: QwenConfig): ExpectedTensor[] {
  const hidden = config.hiddenSize;
  const qSize = config.numAttentionHeads * config.headDim;
  const kvSize = config.numKeyValueHeads * config.headDim;
  const tensors: ExpectedTensor[] = [
    { name: "model.embed_tokens.weight", shape: [config.vocabSize, hidden], role: "embedding" },
  ];
  for (let layer = 0; layer < config.numLayers; layer++) {
    const p = layerPrefix(layer);
    const add = (name: string, shape: number[], role: QwenTensorRole) =>
      tensors.push({ name: `${p}.${name}`, shape, role, layer });
    add("input_layernorm.weight", [hidden], "norm");
    add("self_attn.q_proj.weight", [qSize, hidden], "linear");
    add("self_attn.k_proj.weight", [kvSize, hidden], "linear");
    add("self_attn.v_proj.weight", [kvSize, hidden], "linear");
    if (config.attentionBias) {
      add("self_attn.q_proj.bias", [qSize], "bias");
      add("self_attn.k_proj.bias", [kvSize], "bias");
      add("self_attn.v_proj.bias", [kvSize], "bias");
    }
    if (config.qkNorm) {
      add("self_attn.q_norm.weight", [config.headDim], "norm");
      add("self_attn.k_norm.weight", [config.headDim], "norm");
    }
    add("self_attn.o_proj.weight", [hidden, qSize], "linear");
    add("post_attention_layernorm.weight", [hidden], "norm");
    add("mlp.gate_proj.weight", [config.intermediateSize, hidden], "linear");
    add("mlp.up_proj.weight", [config.intermediateSize, hidden], "linear");
    add("mlp.down_proj.weight", [hidden, config.intermediateSize], "linear");
  }
  tensors.push({ name: "model.norm.weight", shape: [hidden], role: "norm" });
  if (!config.tieWordEmbeddings) {
    tensors.push({ name: "lm_head.weight", shape: [config.vocabSize, hidden], role: "lmHead" });
  }
  return tensors;
}

/**
 * Checks one `linear` tensor in a quantized checkpoint in place of the float check.
 * Throw a {@link TensorMissingError} / {@link TensorShapeError} / {@link TensorDtypeError} on a problem.
 */
export type LinearTensorCheck = (expected: ExpectedTensor, source: WeightSource, file: string) => void;

/** Options of {@link checkQwenWeights}. */
export interface CheckQwenWeightsOptions {
  /**
   * File named in errors. Default: the file (or shard) holding the tensor when the source can
   * tell (`SafetensorsFile`, `ShardedWeights`), else "weights".
   */
  file?: string;
  /**
   * Replaces the float check for every `linear` tensor (q/k/v/o, gate/up/down). `quant/` passes
   * its own check here for quantized layouts.
   */
  checkLinear?: LinearTensorCheck;
}

/**
 * Default check for an AWQ checkpoint's linear layers when no `checkLinear` is given: the packed
 * tensors that replace `<prefix>.weight` must be present; their layout is `quant/`'s business.
 */
export const awqTensorsPresent: LinearTensorCheck = (expected, source, file) => {
  const prefix = expected.name.replace(/\.weight$/, "");
  for (const part of ["qweight", "qzeros", "scales"]) {
    const name = `${prefix}.${part}`;
    if (!source.tensors.has(name)) throw new TensorMissingError(name, file, "AWQ checkpoint");
  }
};

/** The file holding `name` when `source` is one of rtool's readers, else "weights". */
export function weightFileOf(source: WeightSource, name: string): string {
  const located = source as Partial<{ fileOf(name: string): string }>;
  return typeof located.fileOf === "function" ? located.fileOf(name) : "weights";
}

/** Checks that `name` is present, floating point and of `shape`. */
export function checkFloatTensor(
  source: WeightSource,
  name: string,
  shape: readonly number[],
  file: string,
): void {
  const info = source.tensors.get(name);
  if (!info) throw new TensorMissingError(name, file);
  if (!FLOAT_DTYPES.includes(info.dtype)) throw new TensorDtypeError(name, file, FLOAT_DTYPES, info.dtype);
  if (info.shape.length !== shape.length || info.shape.some((d, i) => d !== shape[i])) {
    throw new TensorShapeError(name, file, shape, info.shape);
  }
}

/**
 * Verifies that `source` holds every tensor {@link expectedQwenTensors} lists, with the right
 * shape and a float dtype (F32, F16, BF16). Extra tensors are ignored. For AWQ checkpoints
 * (`quantization.quant_method === "awq"`) linear layers are checked by `options.checkLinear`,
 * or for presence of `qweight`/`qzeros`/`scales` when none is given.
 * @throws {TensorMissingError | TensorShapeError | TensorDtypeError} the first problem found
 * @example
 * const config = readQwenConfig(dir);
 * const weights = openWeights(dir);
 * checkQwenWeights(config, weights, { file: dir });
 */
export function checkQwenWeights(
  config: QwenConfig,
  source: WeightSource,
  options: CheckQwenWeightsOptions = {},
): void {
  const fileOf = (name: string): string => options.file ?? weightFileOf(source, name);
  const quantMethod = config.quantization?.quant_method;
  const checkLinear = options.checkLinear ?? (quantMethod === "awq" ? awqTensorsPresent : undefined);
  for (const expected of expectedQwenTensors(config)) {
    const file = fileOf(expected.name);
    if (expected.role === "linear" && checkLinear) {
      checkLinear(expected, source, file);
    } else {
      checkFloatTensor(source, expected.name, expected.shape, file);
    }
  }
}

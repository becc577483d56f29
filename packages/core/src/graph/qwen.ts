/**
 * The Qwen2 / Qwen3 decoder as an ONNX graph, built in the order of the model math
 * (compare llama2.c's `forward`). Hidden states are 2-D [q, hidden] throughout (batch 1).
 *
 * Inputs:  input_ids int64 [1, q], position_ids int64 [1, q],
 *          attention_mask float32 [1, 1, q, past+q] (additive), logit_rows int64 [r],
 *          past_key_values.{i}.key / .value float32 [1, kvHeads, past, headDim].
 * Outputs: logits float32 [r, vocab],
 *          added.{i}.key / .value float32 [1, kvHeads, q, headDim]: the new rows alone
 *          (rtool's layout; the runtime keeps the past where it was and views the two as the
 *          present), or present.{i}.key / .value [1, kvHeads, past+q, headDim] (layouts of other
 *          runtimes, `presentRows: "all"`).
 */
import type { QwenConfig } from "../model/types";
import { UnsupportedGraphFeatureError } from "./errors";
import { GraphBuilder } from "./onnx-builder";

/** Bumped whenever the graph this file builds changes, so cached graphs are rebuilt. */
export const QWEN_GRAPH_VERSION = 4;

/** One float32 weight and its shape (HF layout, e.g. Linear weights are [out, in]). */
export interface WeightTensor {
  data: Float32Array;
  shape: number[];
}

/** Returns the float32 weight stored under a Hugging Face tensor name. */
export type WeightProvider = (name: string) => WeightTensor;

/** What a linear layer computes: `x @ weight.T + bias`, weight named `${prefix}.weight`. */
export interface LinearSpec {
  /** HF prefix, e.g. `model.layers.0.self_attn.q_proj`. */
  prefix: string;
  inFeatures: number;
  outFeatures: number;
  hasBias: boolean;
}

/**
 * Emits one linear layer into the graph and returns its output ([q, outFeatures]).
 * The default stores the weight as a float32 initializer; quantized builds swap in their own.
 */
export type LinearHook = (g: GraphBuilder, x: string, spec: LinearSpec, weights: WeightProvider) => string;

/** Float32 linear layer: Gemm with transB keeps the HF [out, in] weight as stored (no transpose copy). */
export const float32Linear: LinearHook = (g, x, spec, weights) => {
  const w = weights(`${spec.prefix}.weight`);
  const wName = g.initializer(`${spec.prefix}.weight`, w.data, [spec.outFeatures, spec.inFeatures]);
  let bName: string | undefined;
  if (spec.hasBias) {
    const b = weights(`${spec.prefix}.bias`);
    bName = g.initializer(`${spec.prefix}.bias`, b.data, [spec.outFeatures]);
  }
  return g.gemm(x, wName, bName, { transB: true });
};

/** Options of {@link buildQwenGraph}. */
export interface QwenGraphOptions {
  /** How linear layers (q/k/v/o, gate/up/down) are emitted; default {@link float32Linear}. */
  linear?: LinearHook;
  /**
   * How the classifier is emitted, as a linear layer with prefix `lm_head` (read from the
   * embedding when tied); default a float32 Gemm over the stored weight.
   */
  classifier?: LinearHook;
  /**
   * Which inputs the graph declares and how it returns logits; default {@link RTOOL_IO_LAYOUT}.
   * Exporters use it to emit other runtimes' decoder layouts from the same transformer.
   */
  io?: QwenIoLayout;
  /**
   * Computes q/k/v as one linear layer and gate/up as another, over row-concatenated weights:
   * one weight stream per group instead of three or two, which at one token per head is what a
   * step costs (measured at the 0.5B shape on two cores: k/v alone read at a third of the
   * bandwidth of the large layers). Only for hooks that read every weight through the
   * WeightProvider, since the fused layer's weights exist only there. Default: true with the
   * default float32 linear layer, false with any other hook unless set.
   */
  fuseProjections?: boolean;
}

/** Names of the graph's inputs and outputs, shared with the runtime. */
export const QWEN_IO = {
  inputIds: "input_ids",
  positionIds: "position_ids",
  attentionMask: "attention_mask",
  logitRows: "logit_rows",
  logits: "logits",
  pastKey: (layer: number) => `past_key_values.${layer}.key`,
  pastValue: (layer: number) => `past_key_values.${layer}.value`,
  presentKey: (layer: number) => `present.${layer}.key`,
  presentValue: (layer: number) => `present.${layer}.value`,
  addedKey: (layer: number) => `added.${layer}.key`,
  addedValue: (layer: number) => `added.${layer}.value`,
} as const;

/** The graph inputs the transformer reads, as built by a {@link QwenIoLayout}. */
export interface QwenGraphInputs {
  /** int64 token ids, any shape with q elements in order. */
  inputIds: string;
  /** int64 absolute positions, q elements. */
  positionIds: string;
  /** float32 additive mask broadcastable to [1, 1, q, past+q]. */
  attentionMask: string;
  /** int64 indices of the rows that get logits; every row when absent. */
  logitRows?: string;
}

/**
 * The outer layer of the graph: declares its inputs (other than the KV cache) and its logits
 * output, so one transformer serves rtool's runtime and exported layouts alike.
 */
export interface QwenIoLayout {
  /** Declares the inputs and derives what the transformer reads from them. */
  declareInputs(g: GraphBuilder, config: QwenConfig): QwenGraphInputs;
  /** Declares the output from the logits [rows, vocab]. */
  declareLogits(g: GraphBuilder, logits: string, config: QwenConfig): void;
  /**
   * Which KV rows the graph returns: `"all"` (default) the present, past and new rows, as other
   * runtimes expect; `"new"` the new rows alone, which spares copying the whole cache out of
   * ONNX Runtime on every step (into fresh memory, the costly part in a browser).
   */
  presentRows?: "all" | "new";
}

/** rtool's runtime layout: additive float mask [1, 1, q, total], `logit_rows`, logits [r, vocab]. */
export const RTOOL_IO_LAYOUT: QwenIoLayout = {
  declareInputs(g) {
    return {
      inputIds: g.input(QWEN_IO.inputIds, "int64", [1, "q"]),
      positionIds: g.input(QWEN_IO.positionIds, "int64", [1, "q"]),
      attentionMask: g.input(QWEN_IO.attentionMask, "float32", [1, 1, "q", "total"]),
      logitRows: g.input(QWEN_IO.logitRows, "int64", ["r"]),
    };
  },
  declareLogits(g, logits, config) {
    g.output(logits, QWEN_IO.logits, "float32", ["r", config.vocabSize]);
  },
  presentRows: "new",
};

interface Ctx {
  g: GraphBuilder;
  config: QwenConfig;
  weights: WeightProvider;
  linear: LinearHook;
  classifier?: LinearHook;
  fuse: boolean;
}

/**
 * Builds the decoder graph of a Qwen2/Qwen3 model from its config and weights.
 *
 * @example
 * ```ts
 * const graph = buildQwenGraph(config, (name) => ({ data: source.readFloat32(name), shape: source.tensors.get(name)!.shape }));
 * const bytes = graph.serialize();
 * ```
 */
export function buildQwenGraph(
  config: QwenConfig,
  weights: WeightProvider,
  options: QwenGraphOptions = {},
): GraphBuilder {
  // refuse what cannot be computed exactly before reading any weight
  ropeFrequencyDivisor(config);
  if (config.headDim % 2 !== 0) {
    throw new UnsupportedGraphFeatureError("head_dim", `must be even for RoPE, got ${config.headDim}`);
  }
  const g = new GraphBuilder(`rtool-${config.architecture}`);
  const ctx: Ctx = {
    g,
    config,
    weights,
    linear: options.linear ?? float32Linear,
    classifier: options.classifier,
    fuse: options.fuseProjections ?? options.linear === undefined,
  };
  const { hiddenSize, numKeyValueHeads: kvH, headDim, vocabSize } = config;

  const io = options.io ?? RTOOL_IO_LAYOUT;
  const { inputIds, positionIds, attentionMask: mask, logitRows } = io.declareInputs(g, config);

  // token embedding: [q, hidden]
  const embed = g.initializer("model.embed_tokens.weight", weights("model.embed_tokens.weight").data, [
    vocabSize,
    hiddenSize,
  ]);
  let x = g.gather(embed, g.reshape(inputIds, [-1]));
  // RoPE tables, shared by every layer
  const ropeInputs = ropeTables(ctx, positionIds);

  for (let layer = 0; layer < config.numLayers; layer++) {
    const p = `model.layers.${layer}`;
    const pastK = g.input(QWEN_IO.pastKey(layer), "float32", [1, kvH, "past", headDim]);
    const pastV = g.input(QWEN_IO.pastValue(layer), "float32", [1, kvH, "past", headDim]);
    // attention rmsnorm, attention, residual
    const h = rmsNorm(ctx, x, `${p}.input_layernorm.weight`, hiddenSize);
    const att = attention(ctx, layer, h, {
      rope: ropeInputs,
      mask,
      pastK,
      pastV,
      rows: io.presentRows ?? "all",
    });
    x = g.add(x, att);
    // ffn rmsnorm, SwiGLU, residual
    const h2 = rmsNorm(ctx, x, `${p}.post_attention_layernorm.weight`, hiddenSize);
    x = g.add(x, swiglu(ctx, `${p}.mlp`, h2));
  }

  // keep only the rows that need logits, then final norm and classifier
  const rows = logitRows === undefined ? x : g.gather(x, logitRows);
  const normed = rmsNorm(ctx, rows, "model.norm.weight", hiddenSize);
  const logits = ctx.classifier
    ? hookedClassifier(ctx, normed, ctx.classifier)
    : g.gemm(normed, lmHeadWeight(ctx, embed), undefined, { transB: true });
  io.declareLogits(g, logits, config);
  return g;
}

/** `x * 1/sqrt(mean(x^2) + eps) * weight` over the last axis, in float32 (ORT fuses the pattern). */
function rmsNorm(ctx: Ctx, x: string, weightName: string, size: number): string {
  const { g } = ctx;
  const w = g.initializer(weightName, ctx.weights(weightName).data, [size]);
  const meanSquare = g.reduceMean(g.pow(x, g.scalar(2)), [-1]);
  const rms = g.sqrt(g.add(meanSquare, g.scalar(ctx.config.rmsNormEps)));
  return g.mul(g.div(x, rms), w);
}

/**
 * RoPE frequency divisor from `rope_scaling`: 1 for plain RoPE, the factor for "linear" (position
 * interpolation). Schemes whose tables depend on more than a constant (YaRN, dynamic NTK, LongRoPE,
 * Llama 3) are refused rather than computed approximately.
 */
export function ropeFrequencyDivisor(config: QwenConfig): number {
  const scaling = config.ropeScaling;
  if (!scaling) return 1;
  const type = String(scaling.rope_type ?? scaling.type ?? "default");
  if (type === "default") return 1;
  if (type === "linear") {
    const factor = Number(scaling.factor);
    if (!(factor > 0))
      throw new UnsupportedGraphFeatureError(
        "rope_scaling",
        `linear scaling needs a positive factor, got ${scaling.factor}`,
      );
    return factor;
  }
  throw new UnsupportedGraphFeatureError(
    "rope_scaling",
    `rope type "${type}" is not supported (supported: none, "default", "linear"); remove rope_scaling for contexts within max_position_embeddings`,
  );
}

/** What RoPE reads in every layer: positions [1, q] and the cos/sin caches [maxPositions, headDim/2]. */
interface RopeInputs {
  positions: string;
  cos: string;
  sin: string;
}

/**
 * cos/sin of `position * inv_freq` for every position the model accepts, as initializers: the
 * angle is rounded to float32 as the reference computes it, the cosine and sine taken in double
 * and rounded once. One `RotaryEmbedding` per q and k then replaces six elementwise ops.
 */
function ropeTables(ctx: Ctx, positionIds: string): RopeInputs {
  const { g, config } = ctx;
  const half = config.headDim / 2;
  const divisor = ropeFrequencyDivisor(config);
  const invFreq = new Float32Array(half);
  for (let i = 0; i < half; i++) invFreq[i] = 1 / config.ropeTheta ** ((2 * i) / config.headDim) / divisor;
  const positions = config.maxPositionEmbeddings;
  const cos = new Float32Array(positions * half);
  const sin = new Float32Array(positions * half);
  for (let pos = 0; pos < positions; pos++) {
    for (let i = 0; i < half; i++) {
      const angle = Math.fround(pos * invFreq[i]);
      cos[pos * half + i] = Math.cos(angle);
      sin[pos * half + i] = Math.sin(angle);
    }
  }
  return {
    positions: g.reshape(positionIds, [1, -1]),
    cos: g.initializer("rope.cos_cache", cos, [positions, half]),
    sin: g.initializer("rope.sin_cache", sin, [positions, half]),
  };
}

/** Rotates [1, heads, q, headDim] by the position tables: `x*cos + rotate_half(x)*sin` (HF layout). */
function rope(ctx: Ctx, x: string, tables: RopeInputs): string {
  const [y] = ctx.g.node("RotaryEmbedding", [x, tables.positions, tables.cos, tables.sin], {
    domain: "com.microsoft",
    attributes: { interleaved: 0 },
  });
  return y;
}

interface AttentionInputs {
  rope: RopeInputs;
  mask: string;
  pastK: string;
  pastV: string;
  /** Which KV rows the layer outputs (see {@link QwenIoLayout.presentRows}). */
  rows: "all" | "new";
}

/**
 * Grouped-query attention over past + new keys. Query heads are regrouped per KV head
 * ([1, kvH, groups*q, hd]) so K/V are never repeated; the mask is broadcast over heads.
 */
function attention(ctx: Ctx, layer: number, x: string, io: AttentionInputs): string {
  const { g, config } = ctx;
  const { hiddenSize, numAttentionHeads: nH, numKeyValueHeads: kvH, headDim: hd } = config;
  const p = `model.layers.${layer}.self_attn`;
  const bias = config.attentionBias;
  // qkv projections: [q, heads*hd]
  const spec = (name: string, outFeatures: number): LinearSpec => ({
    prefix: `${p}.${name}`,
    inFeatures: hiddenSize,
    outFeatures,
    hasBias: bias,
  });
  let [q, k, v] = linears(ctx, x, [
    spec("q_proj", nH * hd),
    spec("k_proj", kvH * hd),
    spec("v_proj", kvH * hd),
  ]);
  // split heads: [1, q, heads, hd]
  q = g.reshape(q, [1, -1, nH, hd]);
  k = g.reshape(k, [1, -1, kvH, hd]);
  // Qwen3: per-head RMSNorm of q and k before RoPE
  if (config.qkNorm) {
    q = rmsNorm(ctx, q, `${p}.q_norm.weight`, hd);
    k = rmsNorm(ctx, k, `${p}.k_norm.weight`, hd);
  }
  // heads first, [1, heads, q, hd], then RoPE
  q = rope(ctx, g.transpose(q, [0, 2, 1, 3]), io.rope);
  k = rope(ctx, g.transpose(k, [0, 2, 1, 3]), io.rope);
  let vHeads = g.transpose(g.reshape(v, [1, -1, kvH, hd]), [0, 2, 1, 3]);
  if (io.rows === "new") {
    // declared before the concat reads them, so the outputs are these values (no Identity copy)
    k = g.output(k, QWEN_IO.addedKey(layer), "float32", [1, kvH, "q", hd]);
    vHeads = g.output(vHeads, QWEN_IO.addedValue(layer), "float32", [1, kvH, "q", hd]);
  }
  // append to the cache: [1, kvH, past+q, hd]
  const concatK = g.concat([io.pastK, k], 2);
  const concatV = g.concat([io.pastV, vHeads], 2);
  const present = (value: string, name: string) =>
    io.rows === "all" ? g.output(value, name, "float32", [1, kvH, "total", hd]) : value;
  const presentK = present(concatK, QWEN_IO.presentKey(layer));
  const presentV = present(concatV, QWEN_IO.presentValue(layer));
  // scores per KV head: [1, kvH, groups*q, hd] @ [1, kvH, hd, total] -> [1, kvH, groups*q, total]
  const qScaled = g.mul(g.reshape(q, [1, kvH, -1, hd]), g.scalar(1 / Math.sqrt(hd)));
  const scores = g.matmul(qScaled, g.transpose(presentK, [0, 1, 3, 2]));
  // back to per-head rows to add the [1, 1, q, total] mask, softmax over keys
  const probs = g.softmax(g.add(g.reshape(scores, [1, nH, -1, 0]), io.mask), -1);
  // weighted values: [1, kvH, groups*q, total] @ [1, kvH, total, hd] -> [1, heads, q, hd]
  const ctxHeads = g.reshape(g.matmul(g.reshape(probs, [1, kvH, -1, 0]), presentV), [1, nH, -1, hd]);
  // merge heads: [q, heads*hd], then output projection (no bias)
  const merged = g.reshape(g.transpose(ctxHeads, [0, 2, 1, 3]), [-1, nH * hd]);
  return ctx.linear(
    g,
    merged,
    { prefix: `${p}.o_proj`, inFeatures: nH * hd, outFeatures: hiddenSize, hasBias: false },
    ctx.weights,
  );
}

/** SwiGLU MLP: `down(silu(gate(x)) * up(x))`. */
function swiglu(ctx: Ctx, prefix: string, x: string): string {
  const { g, config } = ctx;
  const spec = (name: string, inF: number, outF: number): LinearSpec => ({
    prefix: `${prefix}.${name}`,
    inFeatures: inF,
    outFeatures: outF,
    hasBias: false,
  });
  const [gate, up] = linears(ctx, x, [
    spec("gate_proj", config.hiddenSize, config.intermediateSize),
    spec("up_proj", config.hiddenSize, config.intermediateSize),
  ]);
  const silu = g.mul(gate, g.sigmoid(gate));
  return ctx.linear(
    g,
    g.mul(silu, up),
    spec("down_proj", config.intermediateSize, config.hiddenSize),
    ctx.weights,
  );
}

/**
 * Linear layers over the same input: one fused layer split into its parts when fusion is on.
 * The fused layer's prefix joins the parts' prefixes with "+", and its weight (and bias) is
 * the parts' rows concatenated, served by a provider over the original one.
 */
function linears(ctx: Ctx, x: string, specs: LinearSpec[]): string[] {
  const { g } = ctx;
  if (!ctx.fuse) return specs.map((spec) => ctx.linear(g, x, spec, ctx.weights));
  const fused: LinearSpec = {
    prefix: specs.map((s) => s.prefix).join("+"),
    inFeatures: specs[0].inFeatures,
    outFeatures: specs.reduce((n, s) => n + s.outFeatures, 0),
    hasBias: specs.some((s) => s.hasBias),
  };
  const rows = (suffix: "weight" | "bias"): WeightTensor => {
    const parts = specs.map((s) =>
      suffix === "bias" && !s.hasBias
        ? new Float32Array(s.outFeatures)
        : ctx.weights(`${s.prefix}.${suffix}`).data,
    );
    const data = new Float32Array(parts.reduce((n, d) => n + d.length, 0));
    let offset = 0;
    for (const part of parts) {
      data.set(part, offset);
      offset += part.length;
    }
    return {
      data,
      shape: suffix === "weight" ? [fused.outFeatures, fused.inFeatures] : [fused.outFeatures],
    };
  };
  const weights: WeightProvider = (name) => {
    if (name === `${fused.prefix}.weight`) return rows("weight");
    if (name === `${fused.prefix}.bias`) return rows("bias");
    return ctx.weights(name);
  };
  const y = ctx.linear(g, x, fused, weights);
  return g.split(
    y,
    specs.map((s) => s.outFeatures),
    -1,
  );
}

/** The classifier through a hook (e.g. quantized); a tied model's `lm_head.weight` is the embedding. */
function hookedClassifier(ctx: Ctx, x: string, hook: LinearHook): string {
  const tied = ctx.config.tieWordEmbeddings;
  const weights: WeightProvider = (name) =>
    ctx.weights(tied && name === "lm_head.weight" ? "model.embed_tokens.weight" : name);
  const spec = {
    prefix: "lm_head",
    inFeatures: ctx.config.hiddenSize,
    outFeatures: ctx.config.vocabSize,
    hasBias: false,
  };
  return hook(ctx.g, x, spec, weights);
}

/** The classifier weight [vocab, hidden]: the embedding itself when tied, so it is stored once. */
function lmHeadWeight(ctx: Ctx, embed: string): string {
  if (ctx.config.tieWordEmbeddings) return embed;
  return ctx.g.initializer("lm_head.weight", ctx.weights("lm_head.weight").data, [
    ctx.config.vocabSize,
    ctx.config.hiddenSize,
  ]);
}

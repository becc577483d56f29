/**
 * Models from weights already in memory, and the shared step from a built graph to a runtime.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GraphBuilder } from "./graph/onnx-builder";
import { buildQwenGraph, type LinearHook, type WeightProvider } from "./graph/qwen";
import { saveModel } from "./graph/save-model";
import { Model, type TextTokenizer } from "./model";
import type { QwenConfig } from "./model/types";
import { type QuantCompute, type QuantMode, quantizeOnLoadOptions } from "./quant/select";
import { OrtDecoderRuntime } from "./runtime/ort-runtime";
import { createSession, type ProviderRequest } from "./runtime/session";

/** Graphs with more initializer bytes than this are handed to ONNX Runtime as files, not bytes. */
export const IN_MEMORY_GRAPH_LIMIT = 1 << 30;

/** Where `loadModel` is, for progress displays (e.g. the server's progress bar). */
export interface LoadProgress {
  /** `graph-cache-hit`: a built graph was found; `build-graph`: building it from the weights;
   * `write-graph`: writing it to the cache; `create-session`: ONNX Runtime is loading it. */
  stage: "graph-cache-hit" | "build-graph" | "write-graph" | "create-session";
  /** The model directory. */
  dir: string;
  /** The graph file concerned, when there is one. */
  path?: string;
}

/** Options of `loadModel` and {@link createModelFromWeights}. */
export interface LoadModelOptions {
  /** Execution provider; default "cpu". "auto" uses CUDA when installed, else the CPU. */
  provider?: ProviderRequest;
  /** Intra-op threads; default the physical cores available. */
  threads?: number;
  /** Idle ONNX Runtime threads spin (see `SessionOptions.spinning`); default false. */
  spinning?: boolean;
  /** Keep built graphs on disk (`$RTOOL_CACHE_DIR` or `~/.cache/rtool/graphs`); default true. */
  cache?: boolean;
  /**
   * Quantize float weights on load: "int8" or "int4" (MatMulNBits blocks); default "none".
   * AWQ checkpoints are detected from config.json and need no option.
   */
  quant?: QuantMode;
  /**
   * How quantized layers compute: "exact" (float32, the AWQ default), "fast" (int8 activations)
   * or "auto" (the int8/int4 default: whichever was measured faster for the model's shape, from
   * the committed table of accuracy levels). See {@link QuantCompute}.
   */
  quantCompute?: QuantCompute;
  /**
   * Emits linear layers (custom quantized builds); overrides `quant`'s for them; default float32.
   * Each projection is emitted on its own (q/k/v and gate/up are not fused) with a custom hook.
   */
  linear?: LinearHook;
  /** Skip the NaN/Inf check of every float tensor on load (see `TensorValueError`); default false. */
  skipWeightCheck?: boolean;
  /** Distinguishes cache entries of graphs built differently from the same weights (e.g. "int8"). */
  cacheVariant?: string;
  /** Warnings (e.g. the "auto" provider falling back to the CPU); default `console.warn`. */
  onWarning?: (message: string) => void;
  /** Called as loading moves from stage to stage. */
  onProgress?: (progress: LoadProgress) => void;
}

/** Creates the runtime for a built graph: in memory when small, through a temporary file when large. */
export async function runtimeForGraph(
  config: QwenConfig,
  graph: GraphBuilder,
  options: LoadModelOptions = {},
  inMemoryLimit = IN_MEMORY_GRAPH_LIMIT,
): Promise<OrtDecoderRuntime> {
  const sessionOptions = {
    provider: options.provider,
    threads: options.threads,
    spinning: options.spinning,
    onWarning: options.onWarning,
  };
  if (graph.initializerBytes() <= inMemoryLimit) {
    const { session, provider } = await createSession(graph.serialize(), sessionOptions);
    return new OrtDecoderRuntime(config, session, provider);
  }
  // protobuf cannot hold 2 GB: write model + external data, load, then drop the files
  // (ONNX Runtime has read or mapped them by then).
  const dir = mkdtempSync(join(tmpdir(), "rtool-graph-"));
  try {
    const saved = saveModel(graph, join(dir, "model.onnx"));
    const { session, provider } = await createSession(saved.modelPath, sessionOptions);
    return new OrtDecoderRuntime(config, session, provider);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A model from a config and weights held in memory (random weights for benchmarks, converted
 * checkpoints), with an optional tokenizer. Nothing is cached on disk.
 *
 * @example
 * ```ts
 * const model = await createModelFromWeights(config, randomQwenWeights(config, 1));
 * const { logits } = await model.forward([1, 2, 3]);
 * ```
 */
export async function createModelFromWeights<T extends TextTokenizer | undefined = undefined>(
  config: QwenConfig,
  weights: WeightProvider,
  tokenizer?: T,
  options: LoadModelOptions = {},
): Promise<Model<T>> {
  const graphOptions = quantizeOnLoadOptions(options.quant, options.quantCompute, config);
  if (options.linear) {
    // a caller's hook may read weights by module name, which fused layers do not have
    graphOptions.linear = options.linear;
    graphOptions.fuseProjections = false;
  }
  const graph = buildQwenGraph(config, weights, graphOptions);
  const runtime = await runtimeForGraph(config, graph, options);
  return new Model(runtime, tokenizer as T);
}

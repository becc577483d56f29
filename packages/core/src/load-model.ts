/**
 * `loadModel(dir)`: a Hugging Face directory to a running {@link Model}, the graph cached on disk.
 */
import { join } from "node:path";
import { type LoadModelOptions, runtimeForGraph } from "./create-model";
import { findCachedGraph, graphCacheKey, removeCachedGraph, storeCachedGraph } from "./graph/graph-cache";
import type { GraphBuilder } from "./graph/onnx-builder";
import { buildQwenGraph, type WeightProvider } from "./graph/qwen";
import { saveModel } from "./graph/save-model";
import { Model } from "./model";
import { readQwenConfig } from "./model/config";
import { finiteWeights } from "./model/finite-weights";
import { checkQwenWeights } from "./model/qwen-weights";
import type { QwenConfig, WeightSource } from "./model/types";
import { openWeights } from "./model/weights";
import { planQuantization, type QuantizationPlan } from "./quant/select";
import { SessionCreateError } from "./runtime/errors";
import { OrtDecoderRuntime } from "./runtime/ort-runtime";
import { checkProviderRequest, createSession } from "./runtime/session";
import { loadTokenizer, type RtoolTokenizer } from "./tokenizer";

/** The runtime for a graph file (cached), reporting the model directory it belongs to. */
async function runtimeForFile(config: QwenConfig, dir: string, path: string, options: LoadModelOptions) {
  options.onProgress?.({ stage: "create-session", dir, path });
  const { session, provider } = await createSession(path, {
    provider: options.provider,
    threads: options.threads,
    spinning: options.spinning,
    onWarning: options.onWarning,
  });
  return new OrtDecoderRuntime(config, session, provider);
}

function weightProviderOf(source: WeightSource): WeightProvider {
  return (name) => ({ data: source.readFloat32(name), shape: [...(source.tensors.get(name)?.shape ?? [])] });
}

function buildFromDir(
  dir: string,
  config: QwenConfig,
  options: LoadModelOptions,
  quant: QuantizationPlan,
): GraphBuilder {
  const opened = openWeights(dir);
  const fileOf = (name: string) => (opened as Partial<{ fileOf(n: string): string }>).fileOf?.(name) ?? dir;
  const source = options.skipWeightCheck ? opened : finiteWeights(opened, fileOf);
  try {
    checkQwenWeights(config, source, { checkLinear: quant.checkLinear });
    options.onProgress?.({ stage: "build-graph", dir });
    const graphOptions = quant.graphOptionsFor(source);
    if (options.linear) {
      // a caller's hook may read weights by module name, which fused layers do not have
      graphOptions.linear = options.linear;
      graphOptions.fuseProjections = false;
    }
    return buildQwenGraph(config, weightProviderOf(source), graphOptions);
  } finally {
    source.close();
  }
}

/**
 * Loads a Hugging Face Qwen2/Qwen2.5/Qwen3 directory (config.json, safetensors, tokenizer.json)
 * and runs it on ONNX Runtime. The ONNX graph is built on first load and cached on disk
 * (`$RTOOL_CACHE_DIR` or `~/.cache/rtool/graphs`; `cache: false` skips the cache). Every float
 * tensor is checked for NaN and infinities as the graph is built (`skipWeightCheck` turns that
 * off); a cached graph was checked when it was built, and graphs built with `skipWeightCheck`
 * are cached under their own key, so a checked load never reuses one.
 *
 * @example
 * ```ts
 * const model = await loadModel("models/qwen2.5-0.5b-instruct", { provider: "cpu" });
 * const ids = model.tokenizer.encode("<|im_start|>user\nhi<|im_end|>\n");
 * const { logits } = await model.forward(ids);
 * const out = await model.generate(ids, { maxTokens: 16 });
 * await model.dispose();
 * ```
 */
export async function loadModel(dir: string, options: LoadModelOptions = {}): Promise<Model<RtoolTokenizer>> {
  checkProviderRequest(options.provider);
  const config = readQwenConfig(dir);
  // AWQ from config.json, or quantize on load; other layouts are refused before any weight is read
  const quant = planQuantization(config, options.quant, join(dir, "config.json"), options.quantCompute);
  const tokenizer = loadTokenizer(dir);
  if (options.cache ?? true) {
    const variant = options.cacheVariant ?? (options.linear ? "custom-linear" : quant.cacheVariant);
    // The NaN/Inf check runs only while a graph is built, so a graph built with it skipped is
    // cached apart: a later checked load must not take it as checked.
    const key = graphCacheKey(dir, options.skipWeightCheck ? `${variant} unchecked-weights` : variant);
    const warn = options.onWarning ?? console.warn;
    const cached = findCachedGraph(key);
    if (cached) {
      options.onProgress?.({ stage: "graph-cache-hit", dir, path: cached });
      try {
        return new Model(await runtimeForFile(config, dir, cached, options), tokenizer);
      } catch (error) {
        if (!(error instanceof SessionCreateError)) throw error;
        // a damaged entry (truncated by a full disk, edited by hand): drop it and rebuild
        warn(`rtool: cached graph ${cached} could not be loaded (${error.reason}); rebuilding it`);
        removeCachedGraph(key);
      }
    }
    const graph = buildFromDir(dir, config, options, quant);
    let path: string | undefined;
    try {
      path = storeCachedGraph(key, (staging) => {
        options.onProgress?.({ stage: "write-graph", dir, path: staging });
        saveModel(graph, join(staging, "model.onnx"));
      });
    } catch (error) {
      // an unwritable cache (read-only home, full disk) must not stop the model from loading
      warn(
        `rtool: could not write the graph cache (${error instanceof Error ? error.message : error}); continuing without it`,
      );
    }
    if (path) return new Model(await runtimeForFile(config, dir, path, options), tokenizer);
    options.onProgress?.({ stage: "create-session", dir });
    return new Model(await runtimeForGraph(config, graph, options), tokenizer);
  }
  const graph = buildFromDir(dir, config, options, quant);
  options.onProgress?.({ stage: "create-session", dir });
  return new Model(await runtimeForGraph(config, graph, options), tokenizer);
}

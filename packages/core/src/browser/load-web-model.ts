/**
 * `loadWebModel(url)`: a Hugging Face model directory served over HTTP (config.json,
 * model.safetensors, tokenizer.json) to a running {@link Model} on onnxruntime-web. The graph is
 * built in the page or worker by the same `buildQwenGraph` as on the server, from the same
 * weights, so both run the same ONNX model; the built graph is kept in the Cache API, so later
 * loads skip the build.
 */
import { buildQwenGraph, type WeightProvider } from "../graph/qwen";
import { Model } from "../model";
import { parseQwenConfig } from "../model/parse-config";
import { checkQwenWeights } from "../model/qwen-weights";
import { safetensorsFromBytes } from "../model/safetensors-bytes";
import { planQuantization } from "../quant/select";
import type { OrtSessionRuntime } from "../runtime/ort-session-runtime";
import {
  chooseWasmThreads,
  createWebRuntime,
  type WasmThreads,
  type WebRuntimeOptions,
  webRuntimeThreads,
} from "../runtime/web-runtime";
import { RtoolTokenizer } from "../tokenizer/tokenizer";
import { graphStore, webGraphCacheKey } from "./graph-store";
import { fetchModelFile, type ModelFileOptions, parseJsonFile } from "./model-files";

/** Where {@link loadWebModel} is, with the time spent so far. */
export interface WebLoadProgress {
  stage: "fetch" | "build-graph" | "create-session" | "ready";
  /** Ms since the load started. */
  ms: number;
}

/** Options of {@link loadWebModel}. */
export interface WebModelOptions extends ModelFileOptions, WebRuntimeOptions {
  onProgress?: (progress: WebLoadProgress) => void;
  /**
   * Keep the built graph in the Cache API (cache `cacheName`) and read it back on later loads
   * instead of building it; default true. Off where `cacheName` is false.
   */
  graphCache?: boolean;
}

/** Times of one load, in ms (for benchmark reports). */
export interface WebLoadTimings {
  fetchMs: number;
  buildGraphMs: number;
  createSessionMs: number;
  totalMs: number;
  /** Whether the graph came from the cache (`buildGraphMs` is then the key's hashing and the read). */
  graphFromCache: boolean;
}

/**
 * Fetches (or reads from the Cache API) a model directory and runs it on onnxruntime-web.
 * Single-file float checkpoints only (F32/F16/BF16 `model.safetensors`), which is what the
 * embedded rt-tiny ships; larger models belong on a server.
 *
 * @example
 * ```ts
 * const { model } = await loadWebModel("/models/rt-tiny/", { wasmPaths: "/ort/" });
 * const rt = createRealtimeCaller(model, { format: "v2" });
 * const call = await rt.call({ query: "Amiya, use your skill now", tools });
 * ```
 */
export async function loadWebModel(
  baseUrl: string | URL,
  options: WebModelOptions = {},
): Promise<{ model: Model<RtoolTokenizer>; timings: WebLoadTimings; wasm: WasmThreads }> {
  const started = performance.now();
  const since = () => performance.now() - started;
  const report = (stage: WebLoadProgress["stage"]) => options.onProgress?.({ stage, ms: since() });
  const base = new URL(String(baseUrl), globalThis.location?.href);
  const url = (file: string) => new URL(file, base).href;
  report("fetch");
  const [configBytes, tokenizerBytes, weightBytes] = await Promise.all(
    ["config.json", "tokenizer.json", "model.safetensors"].map((file) => fetchModelFile(url(file), options)),
  );
  const fetchMs = since();

  report("build-graph");
  const config = parseQwenConfig(parseJsonFile(configBytes, url("config.json")), url("config.json"));
  const tokenizer = new RtoolTokenizer(
    parseJsonFile(tokenizerBytes, url("tokenizer.json")),
    url("tokenizer.json"),
  );
  // the server's plan for a float checkpoint loaded without `quant`, so both build one graph
  const quant = planQuantization(config, undefined, url("config.json"));
  const source = safetensorsFromBytes(weightBytes, url("model.safetensors"));
  checkQwenWeights(config, source, { checkLinear: quant.checkLinear });
  const build = () => {
    const weights: WeightProvider = (name) => ({
      data: source.readFloat32(name),
      shape: [...(source.tensors.get(name)?.shape ?? [])],
    });
    return buildQwenGraph(config, weights, quant.graphOptionsFor(source)).serialize();
  };
  const cacheName = options.cacheName ?? "rtool-models";
  const useCache = options.graphCache !== false && cacheName !== false;
  const key = useCache ? await webGraphCacheKey(configBytes, weightBytes, quant.cacheVariant) : null;
  const store = graphStore(cacheName, base, key);
  const cached = await store.read();
  const graph = cached ?? build();
  const buildGraphMs = since() - fetchMs;

  report("create-session");
  const threads = chooseWasmThreads(options.numThreads);
  let runtime: OrtSessionRuntime;
  if (cached) {
    try {
      runtime = await createWebRuntime(config, cached, options);
    } catch {
      // a graph this onnxruntime-web cannot open: forget it and build afresh
      await store.drop();
      const built = build();
      runtime = await createWebRuntime(config, built, options);
      await store.write(built);
    }
  } else {
    runtime = await createWebRuntime(config, graph, options);
    await store.write(graph);
  }
  const totalMs = since();
  report("ready");
  return {
    model: new Model(runtime, tokenizer),
    timings: {
      fetchMs,
      buildGraphMs,
      createSessionMs: totalMs - fetchMs - buildGraphMs,
      totalMs,
      graphFromCache: cached !== null,
    },
    wasm: { ...threads, numThreads: webRuntimeThreads() },
  };
}

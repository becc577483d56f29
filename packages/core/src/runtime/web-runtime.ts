/**
 * {@link DecoderRuntime} on `onnxruntime-web` (WASM), for pages and workers: the same step as
 * the Node runtime (`OrtSessionRuntime`), on a session created from graph bytes. The WASM build
 * also runs under Bun and Node, which is how its equivalence with `onnxruntime-node` is tested.
 */
import * as ort from "onnxruntime-web/wasm";
import type { QwenConfig } from "../model/types";
import { SessionCreateError } from "./errors";
import { OrtSessionRuntime, type OrtTensorFactory } from "./ort-session-runtime";

const WEB_TENSORS: OrtTensorFactory = {
  int64: (data, dims) => new ort.Tensor("int64", data, dims),
  float32: (data, dims) => new ort.Tensor("float32", data, dims),
};

/** Options of {@link createWebRuntime}. */
export interface WebRuntimeOptions {
  /**
   * WASM threads; default `min(4, navigator.hardwareConcurrency)`. More than one needs
   * SharedArrayBuffer, i.e. a cross-origin isolated page (served with
   * `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`);
   * elsewhere the runtime uses one thread and says why ({@link WasmThreads.note}).
   */
  numThreads?: number;
  /**
   * Where the `ort-wasm-*.wasm` files are served (a URL prefix ending in `/`); default: next to
   * the script that imported onnxruntime-web, which a bundler may have moved.
   */
  wasmPaths?: string;
  /** Where the one-thread fallback is reported; default `console.warn`. */
  onWarning?: (message: string) => void;
}

/** The WASM threads a runtime asked for and got. */
export interface WasmThreads {
  /** Threads asked for (the option, or the default). */
  requested: number;
  /** Threads onnxruntime-web runs with. */
  numThreads: number;
  /** Whether this page or worker is cross-origin isolated (SharedArrayBuffer usable). */
  crossOriginIsolated: boolean;
  /** Why fewer threads than requested, or null. */
  note: string | null;
}

const MAX_DEFAULT_THREADS = 4;

/**
 * The threads to run with here: `requested` (default `min(4, hardwareConcurrency)`), or 1 where
 * the page is not cross-origin isolated, with the reason in `note`.
 *
 * @example
 * ```ts
 * const { numThreads, note } = chooseWasmThreads(); // 4 on an isolated page of an 8-core machine
 * ```
 */
export function chooseWasmThreads(requested?: number): WasmThreads {
  const cores = globalThis.navigator?.hardwareConcurrency ?? 1;
  const asked = Math.max(1, Math.floor(requested ?? Math.min(MAX_DEFAULT_THREADS, cores)));
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  if (asked === 1 || isolated)
    return { requested: asked, numThreads: asked, crossOriginIsolated: isolated, note: null };
  const note =
    `onnxruntime-web runs on 1 WASM thread instead of ${asked}: this page is not cross-origin isolated ` +
    "(serve it with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)";
  return { requested: asked, numThreads: 1, crossOriginIsolated: false, note };
}

/**
 * The threads onnxruntime-web runs with, once a session exists (it reads them when its WASM
 * module starts, once per page or worker).
 */
export function webRuntimeThreads(): number {
  return ort.env.wasm.numThreads ?? 1;
}

/**
 * A decoder runtime for a serialized graph (from `buildQwenGraph(...).serialize()`) on
 * onnxruntime-web's WASM backend. `provider` reads "cpu": WASM runs on the CPU.
 *
 * @example
 * ```ts
 * const graph = buildQwenGraph(config, weights).serialize();
 * const runtime = await createWebRuntime(config, graph, { wasmPaths: "/ort/" });
 * const { logits } = await runtime.step({ tokenIds: [1, 2], positions: [0, 1], past: runtime.emptyKv() });
 * ```
 */
export async function createWebRuntime(
  config: QwenConfig,
  graph: Uint8Array,
  options: WebRuntimeOptions = {},
): Promise<OrtSessionRuntime> {
  // env is global to onnxruntime-web and read when its WASM module is first instantiated
  const threads = chooseWasmThreads(options.numThreads);
  // silent where there is no page to isolate (Bun, Node) and nobody asked for threads
  const inBrowser = "crossOriginIsolated" in globalThis;
  if (threads.note && (inBrowser || options.numThreads !== undefined))
    (options.onWarning ?? console.warn)(threads.note);
  ort.env.wasm.numThreads = threads.numThreads;
  if (options.wasmPaths !== undefined) ort.env.wasm.wasmPaths = options.wasmPaths;
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(graph, {
      executionProviders: ["wasm"],
      graphOptimizationLevel: "all",
      executionMode: "sequential",
      logSeverityLevel: 3,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SessionCreateError(`an in-memory model of ${graph.byteLength} bytes (onnxruntime-web)`, reason);
  }
  return new OrtSessionRuntime(config, session, "cpu", WEB_TENSORS);
}

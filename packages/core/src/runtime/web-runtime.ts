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
   * WASM threads; default 1. More threads need a cross-origin isolated page (COOP/COEP headers)
   * and only pay off for models far larger than rt-tiny, whose steps are a few small matmuls.
   */
  numThreads?: number;
  /**
   * Where the `ort-wasm-*.wasm` files are served (a URL prefix ending in `/`); default: next to
   * the script that imported onnxruntime-web, which a bundler may have moved.
   */
  wasmPaths?: string;
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
  ort.env.wasm.numThreads = options.numThreads ?? 1;
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

/**
 * Messages between the page (the in-page engine's transport) and the Web Worker that runs the
 * model, and the slice of `@rtool/core/browser` the worker uses. The plugin names that slice
 * structurally instead of importing core, so a server-only install of the plugin pulls in no
 * model runtime: the game's worker script hands core to {@link serveInPageWorker}.
 */
import type { EngineTimings } from "@rtool/contract/calls";
import type { CallReply, TransportRequest } from "../transport";

/** How the worker loads the model: `loadWebModel`'s options, plus its URL. */
export interface InPageModelOptions {
  /** URL of the model directory (config.json, model.safetensors, tokenizer.json), e.g. "/models/rt-tiny/". */
  modelUrl: string;
  /** Where onnxruntime-web's `.wasm` files are served, e.g. "/ort/"; default next to the worker script. */
  wasmPaths?: string;
  /**
   * WASM threads; default `min(4, hardwareConcurrency)` where the page is cross-origin isolated
   * (COOP `same-origin` + COEP `require-corp`), else 1 (the worker logs why).
   */
  numThreads?: number;
  /** Cache API cache for the model files; default "rtool-models"; false never caches. */
  cacheName?: string | false;
  /**
   * Calls the worker decodes at once, their forward passes merged (so two agents' calls share a
   * pass instead of queuing); default 4; 1 decodes one call at a time. Needs a core with
   * `createCallerLanes`.
   */
  lanes?: number;
  /**
   * Answers of calls whose prompt repeats exactly (an agent whose world did not change since its
   * last call) kept for the next time, as rtool-server's `--answer-cache`: greedy decoding gives
   * the same call again, with no forward pass. Entries, LRU; default 256; 0 turns it off. Needs a
   * core with `AnswerCache`.
   */
  answerCache?: number;
}

/** Model load times, in ms, as the worker measured them. */
export interface InPageLoadTimings {
  fetchMs: number;
  buildGraphMs: number;
  createSessionMs: number;
  totalMs: number;
  /** Whether the built graph came from the browser's cache (no graph build on this load). */
  graphFromCache?: boolean;
}

/** The WASM threads the worker's runtime asked for and got (`@rtool/core`'s `WasmThreads`). */
export interface InPageThreads {
  requested: number;
  numThreads: number;
  crossOriginIsolated: boolean;
  /** Why fewer threads than requested, or null. */
  note: string | null;
}

/** Page to worker. */
export type ToWorker =
  | { type: "load"; options: InPageModelOptions }
  | { type: "call"; id: number; request: TransportRequest; stream: boolean }
  | { type: "cancel"; id: number };

/** Worker to page. */
export type FromWorker =
  | { type: "loaded"; timings: InPageLoadTimings; threads: InPageThreads | null }
  | { type: "load-failed"; message: string }
  | { type: "head"; id: number; head: string; text: string }
  | { type: "reply"; id: number; reply: CallReply }
  /** `rejected`: the request itself is wrong (bad tools, prompt too long); `failed`: anything else. */
  | { type: "error"; id: number; kind: "rejected" | "failed" | "cancelled"; message: string; field?: string };

/** The result of one call, as `@rtool/core`'s `RealtimeCaller` gives it. */
export interface CoreCallResult {
  function: string | null;
  args: Record<string, unknown>;
  heads: Partial<Record<string, string | null>>;
  valid: boolean;
  errors: { path: string; message: string }[];
  /** Where the call's time went (prefill, decode, forward passes, waits). */
  timings: EngineTimings;
}

/** What the worker calls on a `RealtimeCaller`. */
export interface CoreCaller {
  call(request: CoreCallRequest): Promise<CoreCallResult>;
  stream(
    request: CoreCallRequest,
  ): AsyncIterable<{ head: string; text: string | null; done: true } | { call: CoreCallResult }>;
}

/** A request in `@rtool/core`'s shape: the transport's, format included (core reads it per call). */
export type CoreCallRequest = TransportRequest;

/**
 * The part of `@rtool/core/browser` the worker needs; pass the module itself:
 * `import * as core from "@rtool/core/browser"`.
 */
export interface InPageCore {
  loadWebModel(
    url: string,
    options: Omit<InPageModelOptions, "modelUrl">,
  ): Promise<{ model: unknown; timings: InPageLoadTimings; wasm?: InPageThreads }>;
  createRealtimeCaller(model: never, options: CoreCallerOptions): Promise<CoreCaller>;
  /** Callers whose concurrent calls share forward passes (`@rtool/core`'s); without it, one caller. */
  createCallerLanes?(
    model: never,
    lanes: number,
    options: CoreCallerOptions & { merge?: object },
  ): CoreCaller[];
  /** `@rtool/core`'s answer cache (one shared by all lanes); without it, every call decodes. */
  AnswerCache?: new (
    entries: number,
  ) => object;
  /** `@rtool/core`'s merge limits for WebAssembly kernels, for the lanes. */
  WASM_MERGE_OPTIONS?: object;
}

/** The caller options the worker sets. */
export interface CoreCallerOptions {
  cacheSystemTurn?: boolean;
  /** An `AnswerCache` of the same core (typed loosely: the plugin does not import core). */
  answerCache?: never;
}

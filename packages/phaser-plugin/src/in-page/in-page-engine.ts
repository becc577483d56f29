/**
 * The page side of the in-page engine: a {@link Transport} whose calls are decoded by a Web
 * Worker running the model, so the game loop never waits on inference. The plugin's client sees
 * the same transport contract as with a server (replies, streamed heads, aborts), which keeps
 * the agent API, latest-wins behaviour and events the same for both engines.
 */
import {
  type CallReply,
  RequestRejectedError,
  type SendOptions,
  ServerUnavailableError,
  type Transport,
  type TransportRequest,
} from "../transport";
import type { FromWorker, InPageLoadTimings, InPageModelOptions, InPageThreads, ToWorker } from "./protocol";

/** The page's handle on the worker (a `Worker` fits). */
export interface WorkerLike {
  postMessage(message: ToWorker): void;
  addEventListener(type: "message", listener: (event: { data: FromWorker }) => void): void;
  terminate?(): void;
}

/** Options of {@link inPageEngine}. */
export interface InPageEngineOptions extends InPageModelOptions {
  /** The worker running {@link serveInPageWorker}, or its script's URL (started as a module worker). */
  worker: WorkerLike | string | URL;
  /** Ask the worker for each head as it finishes (`head` events before the call); default true. */
  stream?: boolean;
}

/** An engine for the plugin's `engine` option: the model in a Web Worker of this page. */
export interface InPageEngine {
  readonly kind: "in-page";
  readonly transport: Transport;
  /** Settles when the model is loaded (with its load times) or could not be. */
  readonly ready: Promise<InPageLoadTimings>;
  /** The worker's WASM threads, once loaded (null before, or from a core that does not say). */
  readonly threads: InPageThreads | null;
  /** Stops the worker; calls in flight fail. */
  terminate(): void;
}

interface Pending {
  resolve(reply: CallReply): void;
  reject(error: Error): void;
  onHead?: SendOptions["onHead"];
}

function abortError(): Error {
  return Object.assign(new Error("the request was aborted"), { name: "AbortError" });
}

function startWorker(worker: InPageEngineOptions["worker"]): WorkerLike {
  if (typeof worker !== "string" && !(worker instanceof URL)) return worker;
  if (typeof Worker === "undefined") throw new Error("the in-page engine needs Web Workers (none here)");
  return new Worker(worker, { type: "module", name: "rtool-in-page" }) as unknown as WorkerLike;
}

/**
 * Starts the model in a worker and returns the engine to pass to the plugin.
 *
 * @example
 * ```ts
 * const engine = inPageEngine({ worker: "/in-page-worker.js", modelUrl: "/models/rt-tiny/", wasmPaths: "/ort/" });
 * game.registry.set(RTOOL_OPTIONS_KEY, { engine });
 * engine.ready.then((t) => console.log(`rt-tiny loaded in ${t.totalMs.toFixed(0)} ms`));
 * ```
 */
export function inPageEngine(options: InPageEngineOptions): InPageEngine {
  const { worker: given, stream = true, ...model } = options;
  const worker = startWorker(given);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let settle!: { resolve(t: InPageLoadTimings): void; reject(e: Error): void };
  const ready = new Promise<InPageLoadTimings>((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => undefined);
  let threads: InPageThreads | null = null;

  worker.addEventListener("message", ({ data }) => {
    if (data.type === "loaded") {
      threads = data.threads;
      return settle.resolve(data.timings);
    }
    if (data.type === "load-failed") return settle.reject(new Error(`in-page model: ${data.message}`));
    const call = pending.get(data.id);
    if (!call) return;
    if (data.type === "head") return call.onHead?.({ head: data.head, text: data.text, done: true });
    pending.delete(data.id);
    if (data.type === "reply") return call.resolve(data.reply);
    if (data.kind === "cancelled") return call.reject(abortError());
    call.reject(
      data.kind === "rejected"
        ? new RequestRejectedError(
            `in-page model refused the request: ${data.message}`,
            422,
            "invalid_request",
            data.field ?? null,
          )
        : new ServerUnavailableError(`in-page model failed: ${data.message}`, null),
    );
  });
  worker.postMessage({ type: "load", options: model });

  const transport: Transport = {
    send(request: TransportRequest, sendOptions: SendOptions = {}): Promise<CallReply> {
      const { signal, onHead } = sendOptions;
      if (signal?.aborted) return Promise.reject(abortError());
      const id = nextId++;
      return new Promise<CallReply>((resolve, reject) => {
        pending.set(id, { resolve, reject, onHead });
        // latest wins: an aborted request leaves the worker's queue instead of being decoded late
        signal?.addEventListener("abort", () => {
          if (!pending.delete(id)) return;
          worker.postMessage({ type: "cancel", id });
          reject(abortError());
        });
        worker.postMessage({ type: "call", id, request, stream });
      });
    },
  };

  return {
    kind: "in-page",
    transport,
    ready,
    get threads() {
      return threads;
    },
    terminate() {
      worker.terminate?.();
      for (const call of pending.values())
        call.reject(new ServerUnavailableError("the in-page worker stopped", null));
      pending.clear();
    },
  };
}

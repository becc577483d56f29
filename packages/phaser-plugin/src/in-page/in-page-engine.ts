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
  /**
   * The worker running {@link serveInPageWorker}, or its script's URL (started as a module
   * worker, {@link workers} times), or several workers, each a copy of the model.
   */
  worker: WorkerLike | string | URL | readonly WorkerLike[];
  /**
   * Copies of the model, each in a Web Worker of its own, when `worker` is a URL; default 1.
   * A call goes to the copy with the fewest calls in flight, so two agents decode side by side
   * on two cores instead of sharing one worker's passes. Each copy loads the model (rt-tiny:
   * ~10 MB) and, unless `numThreads` says otherwise, gets its share of the cores as WASM threads.
   */
  workers?: number;
  /** Ask the worker for each head as it finishes (`head` events before the call); default true. */
  stream?: boolean;
}

/** An engine for the plugin's `engine` option: the model in a Web Worker of this page. */
export interface InPageEngine {
  readonly kind: "in-page";
  readonly transport: Transport;
  /** Settles when the model is loaded (with its load times) or could not be. */
  readonly ready: Promise<InPageLoadTimings>;
  /** The worker's WASM threads, once loaded (null before, or from a core that does not say); the first copy's. */
  readonly threads: InPageThreads | null;
  /** Copies of the model, each in its own worker. */
  readonly workers: number;
  /** Stops the worker; calls in flight fail. */
  terminate(): void;
}

interface Pending {
  resolve(reply: CallReply): void;
  reject(error: Error): void;
  onHead?: SendOptions["onHead"];
}

/** Requests whose copy {@link inPageEngine} remembers (as many as a worker's default answer cache). */
const REMEMBERED_REQUESTS = 256;

function abortError(): Error {
  return Object.assign(new Error("the request was aborted"), { name: "AbortError" });
}

function startWorkers(worker: InPageEngineOptions["worker"], count = 1): WorkerLike[] {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`workers: ${count} is not a whole number >= 1`);
  if (Array.isArray(worker)) {
    if (worker.length === 0) throw new RangeError("worker: an empty list of workers");
    return [...worker];
  }
  if (typeof worker !== "string" && !(worker instanceof URL)) {
    if (count > 1)
      throw new RangeError(`workers: ${count} copies need the worker's URL (or a list), not one worker`);
    return [worker as WorkerLike];
  }
  if (typeof Worker === "undefined") throw new Error("the in-page engine needs Web Workers (none here)");
  return Array.from(
    { length: count },
    (_, i) => new Worker(worker, { type: "module", name: `rtool-in-page-${i + 1}` }) as unknown as WorkerLike,
  );
}

/** WASM threads per copy when the page did not say: the cores shared out, at least one each. */
function threadsPerCopy(copies: number): number | undefined {
  if (copies === 1) return undefined;
  const cores = typeof navigator === "undefined" ? copies : (navigator.hardwareConcurrency ?? copies);
  return Math.max(1, Math.floor(cores / copies));
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
  const { worker: given, workers: count, stream = true, ...model } = options;
  const workers = startWorkers(given, count);
  const load = { ...model, numThreads: model.numThreads ?? threadsPerCopy(workers.length) };
  const pending = new Map<number, Pending & { copy: number }>();
  const inFlight = workers.map(() => 0);
  let nextId = 1;
  let threads: InPageThreads | null = null;

  const loads = workers.map(
    (worker, copy) =>
      new Promise<InPageLoadTimings>((resolve, reject) => {
        worker.addEventListener("message", ({ data }) => {
          if (data.type === "loaded") {
            if (copy === 0) threads = data.threads;
            return resolve(data.timings);
          }
          if (data.type === "load-failed") return reject(new Error(`in-page model: ${data.message}`));
          const call = pending.get(data.id);
          if (!call) return;
          if (data.type === "head") return call.onHead?.({ head: data.head, text: data.text, done: true });
          finish(data.id);
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
        worker.postMessage({ type: "load", options: load });
      }),
  );
  // ready when every copy is: the slowest copy's times are the engine's
  const ready = Promise.all(loads).then((all) => all.reduce((a, b) => (b.totalMs > a.totalMs ? b : a)));
  ready.catch(() => undefined);

  function finish(id: number): Pending | undefined {
    const call = pending.get(id);
    if (!call) return undefined;
    pending.delete(id);
    inFlight[call.copy]! -= 1;
    return call;
  }

  // which copy last decoded each request: a request repeated exactly (an agent whose world did
  // not change) goes back there, where the copy's answer cache holds its answer
  const servedBy = new Map<string, number>();

  /**
   * The copy that decoded this exact request last, else the one with the fewest calls in
   * flight (the first of equals).
   */
  function copyFor(request: TransportRequest): number {
    if (workers.length === 1) return 0;
    const key = JSON.stringify(request);
    let copy = servedBy.get(key);
    if (copy === undefined) {
      copy = 0;
      for (let i = 1; i < inFlight.length; i++) if (inFlight[i]! < inFlight[copy]!) copy = i;
    }
    servedBy.delete(key);
    servedBy.set(key, copy);
    if (servedBy.size > REMEMBERED_REQUESTS) servedBy.delete(servedBy.keys().next().value as string);
    return copy;
  }

  const transport: Transport = {
    send(request: TransportRequest, sendOptions: SendOptions = {}): Promise<CallReply> {
      const { signal, onHead } = sendOptions;
      if (signal?.aborted) return Promise.reject(abortError());
      const id = nextId++;
      const copy = copyFor(request);
      return new Promise<CallReply>((resolve, reject) => {
        pending.set(id, { resolve, reject, onHead, copy });
        inFlight[copy]! += 1;
        // latest wins: an aborted request leaves the worker's queue instead of being decoded late
        signal?.addEventListener("abort", () => {
          if (!finish(id)) return;
          workers[copy]!.postMessage({ type: "cancel", id });
          reject(abortError());
        });
        workers[copy]!.postMessage({ type: "call", id, request, stream });
      });
    },
  };

  return {
    kind: "in-page",
    transport,
    ready,
    workers: workers.length,
    get threads() {
      return threads;
    },
    terminate() {
      for (const worker of workers) worker.terminate?.();
      for (const call of pending.values())
        call.reject(new ServerUnavailableError("the in-page worker stopped", null));
      pending.clear();
      inFlight.fill(0);
    },
  };
}

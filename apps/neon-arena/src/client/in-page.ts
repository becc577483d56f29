/**
 * `?engine=in-page`: rt-tiny runs in a Web Worker of this page (served by the app as files),
 * with no rtool-server. `?threads=N` sets the worker's WASM threads (default: the engine's,
 * `min(4, hardwareConcurrency)` on this cross-origin isolated page); `?lanes=N` how many calls
 * the worker decodes at once in merged passes (default the engine's, 4); `?answers=N` how many
 * answers of repeated prompts it keeps (default the engine's, 256; 0: every call decodes); `?workers=N`
 * how many copies of the model run, each in its own worker (default 1). The load is reported on
 * `window.rtoolArena.inPage` for the tests and the benchmark.
 */
import {
  type InPageEngine,
  type InPageLoadTimings,
  type InPageThreads,
  inPageEngine,
} from "@rtool/phaser-plugin/in-page";

/** What the page reports of the in-page model. */
export interface InPageStatus {
  /** Load times once loaded, null before. */
  timings: InPageLoadTimings | null;
  /** The worker's WASM threads once loaded, null before (each copy's, when there are several). */
  threads: InPageThreads | null;
  /** Copies of the model, each in its own worker (`?workers=N`). */
  workers: number;
  /** Whether this page is cross-origin isolated (needed for more than one thread). */
  crossOriginIsolated: boolean;
  /** Why the model could not load, null otherwise. */
  error: string | null;
}

/** Starts the worker and the model load; `status` is updated as the load ends. */
export function startInPage(params: URLSearchParams): { engine: InPageEngine; status: InPageStatus } {
  const status: InPageStatus = { timings: null, threads: null, workers: 1, crossOriginIsolated, error: null };
  const count = (name: string) => {
    const value = Number(params.get(name));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  };
  const engine = inPageEngine({
    worker: new URL("/in-page-worker.js", location.href),
    modelUrl: new URL("/models/rt-tiny/", location.href).href,
    wasmPaths: new URL("/ort/", location.href).href,
    workers: count("workers"),
    numThreads: count("threads"),
    lanes: count("lanes"),
    answerCache: params.has("answers") ? Math.max(0, Number(params.get("answers")) || 0) : undefined,
  });
  status.workers = engine.workers;
  engine.ready.then(
    (timings) => {
      status.timings = timings;
      status.threads = engine.threads;
      const via = timings.graphFromCache ? "graph from cache" : "graph built";
      console.log(
        `rt-tiny loaded in the page in ${timings.totalMs.toFixed(0)} ms (${via}, ${engine.workers} ` +
          `worker(s), ${engine.threads?.numThreads ?? "?"} WASM threads each)`,
      );
    },
    (error: Error) => {
      status.error = error.message;
      console.error(error.message);
    },
  );
  return { engine, status };
}

/**
 * `?engine=in-page`: rt-tiny runs in a Web Worker of this page (served by the app as files),
 * with no rtool-server. The load is reported on `window.rtoolArena.inPage` for the tests and the
 * benchmark.
 */
import { type InPageEngine, type InPageLoadTimings, inPageEngine } from "@rtool/phaser-plugin/in-page";

/** What the page reports of the in-page model. */
export interface InPageStatus {
  /** Load times once loaded, null before. */
  timings: InPageLoadTimings | null;
  /** Why the model could not load, null otherwise. */
  error: string | null;
}

/** Starts the worker and the model load; `status` is updated as the load ends. */
export function startInPage(): { engine: InPageEngine; status: InPageStatus } {
  const status: InPageStatus = { timings: null, error: null };
  const engine = inPageEngine({
    worker: new URL("/in-page-worker.js", location.href),
    modelUrl: new URL("/models/rt-tiny/", location.href).href,
    wasmPaths: new URL("/ort/", location.href).href,
  });
  engine.ready.then(
    (timings) => {
      status.timings = timings;
      console.log(`rt-tiny loaded in the page in ${timings.totalMs.toFixed(0)} ms`);
    },
    (error: Error) => {
      status.error = error.message;
      console.error(error.message);
    },
  );
  return { engine, status };
}

/**
 * The worker side of the in-page engine: loads the model once, then decodes the page's calls on
 * a few lanes at once (`lanes`, default 4), whose forward passes merge, so one agent's call does
 * not wait for another's to finish. Calls beyond the free lanes wait in a queue; a cancelled call
 * (its agent's request was superseded, invalidated or timed out on the page) leaves the queue
 * without costing a forward pass, so the newest request of each agent is the one that runs.
 */
import { replyTimings } from "@rtool/contract/calls";
import type { CallReply } from "../transport";
import type {
  CoreCaller,
  CoreCallResult,
  FromWorker,
  InPageCore,
  InPageModelOptions,
  ToWorker,
} from "./protocol";

/** The worker global (`self`) as this host uses it. */
export interface WorkerScope {
  postMessage(message: FromWorker): void;
  addEventListener(type: "message", listener: (event: { data: ToWorker }) => void): void;
}

const NULL_HEAD = "<|null|>";
const DEFAULT_LANES = 4;
const DEFAULT_ANSWER_CACHE = 256;
/** Errors of a request that is itself wrong; retrying it unchanged will not help. */
const REQUEST_ERRORS = new Set([
  "CallerInputError",
  "ToolSchemaError",
  "PromptTooLongError",
  "PromptFormatError",
]);

/**
 * A core result in the server's reply shape, which the plugin's client validates and dispatches,
 * with the server's per-stage `timings` (`queueMs`: waiting in this worker for a free lane).
 */
function toReply(result: CoreCallResult, latencyMs: number, queueMs: number): CallReply {
  const heads: Record<string, string> = {};
  for (const [name, text] of Object.entries(result.heads)) heads[name] = text ?? NULL_HEAD;
  const problems = result.errors.map((e) => `${e.path}: ${e.message}`).join("; ");
  return {
    success: result.function !== null,
    function: result.function,
    args: result.args,
    heads,
    latency_ms: latencyMs,
    valid: result.valid,
    errors: result.errors,
    error: result.function === null ? problems || "No function called" : result.valid ? null : problems,
    timings: replyTimings(result.timings, queueMs),
  };
}

/**
 * Serves the in-page engine from a Web Worker. The game's worker script is two lines:
 *
 * @example
 * ```ts
 * // in-page-worker.ts, bundled as its own script
 * import * as core from "@rtool/core/browser";
 * import { serveInPageWorker } from "@rtool/phaser-plugin/in-page";
 * serveInPageWorker(self as never, core);
 * ```
 */
export function serveInPageWorker(scope: WorkerScope, core: InPageCore): void {
  // Callers for both formats: each request names its own, so the page holds one prefix cache.
  let callers: Promise<CoreCaller[]> | null = null;
  const queue: Extract<ToWorker, { type: "call" }>[] = [];
  /** When each queued call arrived, for its reply's queue time. */
  const arrivedAt = new Map<number, number>();
  let model: Promise<unknown> | null = null;
  let lanes = DEFAULT_LANES;
  let answerEntries = DEFAULT_ANSWER_CACHE;
  /** Indices of the lanes not decoding a call now; null until the callers exist (or failed to). */
  let free: number[] | null = null;
  let waiting = false;

  const theCallers = (): Promise<CoreCaller[]> => {
    // the system turn as its own cache entry: every agent with the same tools reuses it
    callers ??= (async () => {
      const loaded = (await model) as never;
      // one answer cache for every lane: a repeated prompt is answered whichever lane asks
      const answerCache =
        core.AnswerCache && answerEntries > 0 ? (new core.AnswerCache(answerEntries) as never) : undefined;
      const options = { cacheSystemTurn: true, ...(answerCache ? { answerCache } : {}) };
      // merged passes sized for WebAssembly's kernels: agents' prefills apart, small steps together
      const merge = core.WASM_MERGE_OPTIONS;
      if (core.createCallerLanes && lanes > 1)
        return core.createCallerLanes(loaded, lanes, { ...options, ...(merge ? { merge } : {}) });
      return [await core.createRealtimeCaller(loaded, options)];
    })();
    return callers;
  };

  const decode = async (lane: number, { id, request, stream }: Extract<ToWorker, { type: "call" }>) => {
    const started = performance.now();
    const queueMs = started - (arrivedAt.get(id) ?? started);
    arrivedAt.delete(id);
    try {
      const caller = (await theCallers())[lane]!;
      let result: CoreCallResult | undefined;
      if (stream) {
        for await (const event of caller.stream(request)) {
          if ("call" in event) result = event.call;
          else scope.postMessage({ type: "head", id, head: event.head, text: event.text ?? NULL_HEAD });
        }
      } else {
        result = await caller.call(request);
      }
      scope.postMessage({ type: "reply", id, reply: toReply(result!, performance.now() - started, queueMs) });
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      const kind = REQUEST_ERRORS.has(err.name) ? "rejected" : "failed";
      const field = (err as { field?: unknown }).field;
      scope.postMessage({
        type: "error",
        id,
        kind,
        message: err.message,
        ...(typeof field === "string" ? { field } : {}),
      });
    }
  };

  /** Starts queued calls on free lanes, oldest first; each lane takes the next call when done. */
  const pump = (): void => {
    if (free === null) {
      // calls stay in the queue (cancellable) until the model and its callers are there
      if (waiting) return;
      waiting = true;
      const open = (count: number) => {
        free = Array.from({ length: count }, (_, i) => count - 1 - i);
        pump();
      };
      // without callers, the one lane fails each call with the load's error
      theCallers().then(
        (all) => open(all.length),
        () => open(1),
      );
      return;
    }
    while (free.length > 0 && queue.length > 0) {
      const lane = free.pop()!;
      void decode(lane, queue.shift()!).finally(() => {
        free!.push(lane);
        pump();
      });
    }
  };

  const load = (options: InPageModelOptions) => {
    const { modelUrl, lanes: wanted, answerCache, ...rest } = options;
    if (wanted !== undefined) lanes = Math.max(1, Math.floor(wanted));
    if (answerCache !== undefined) answerEntries = Math.max(0, Math.floor(answerCache));
    model = core.loadWebModel(modelUrl, rest).then(
      ({ model, timings, wasm }) => {
        scope.postMessage({ type: "loaded", timings, threads: wasm ?? null });
        return model;
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        scope.postMessage({ type: "load-failed", message });
        throw error;
      },
    );
    model.catch(() => undefined);
  };

  scope.addEventListener("message", ({ data }) => {
    if (data.type === "load") load(data.options);
    else if (data.type === "call") {
      arrivedAt.set(data.id, performance.now());
      queue.push(data);
      pump();
    } else if (data.type === "cancel") {
      const at = queue.findIndex((queued) => queued.id === data.id);
      if (at >= 0) {
        queue.splice(at, 1);
        arrivedAt.delete(data.id);
        scope.postMessage({ type: "error", id: data.id, kind: "cancelled", message: "cancelled" });
      }
    }
  });
}

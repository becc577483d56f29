/**
 * A small pool of worker threads that run isolated handlers, one call per worker at a time. A
 * worker whose handler hangs past its deadline is terminated (a busy loop cannot be interrupted
 * any other way) and a fresh one is started for the next call; a worker that exits on its own
 * (a handler called `process.exit`, or threw outside its promise) is replaced the same way.
 */
import { Worker } from "node:worker_threads";
import type { ErrorInfo } from "./execution-result";
import type { WorkerReply, WorkerRequest } from "./worker-protocol";

/** How an isolated run ended. */
export type WorkerOutcome =
  | { kind: "ok"; value: unknown }
  | { kind: "error"; error: ErrorInfo }
  | { kind: "exit"; exitCode: number }
  | { kind: "timeout" }
  | { kind: "aborted" };

/** Timing of an isolated run (ms). */
export interface WorkerRunTimes {
  queuedMs: number;
  /** From posting the call to the worker (the handler's start) to its outcome; 0 when it never got there. */
  handlerMs: number;
}

interface Slot {
  worker: Worker | null;
  /** Resolves with the module's tool names once it is imported (or with its load error). */
  ready: Promise<{ tools: Set<string> } | { error: ErrorInfo }> | null;
  busy: boolean;
  /** Settles the run in progress when its worker dies. */
  onDeath: ((outcome: WorkerOutcome) => void) | null;
  /** The worker the run in progress uses (a killed worker's late exit must not settle a newer run). */
  runningOn: Worker | null;
}

const WORKER_SCRIPT = new URL("./handler-worker.ts", import.meta.url);

/**
 * Runs handlers of the tools exported by `moduleUrl` in up to `size` workers.
 *
 * @example
 * ```ts
 * const pool = new HandlerWorkerPool(new URL("./tools.ts", import.meta.url).href, 2);
 * const { outcome } = await pool.run("move", { direction: "up" }, "call-1", signal);
 * await pool.close();
 * ```
 */
export class HandlerWorkerPool {
  private readonly slots: Slot[];
  private readonly waiting: ((slot: Slot) => void)[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    readonly moduleUrl: string,
    size: number,
    /** Longest a worker may take to import the tool module before its call fails. */
    readonly startupTimeoutMs = 30_000,
  ) {
    const count = Math.max(1, Math.floor(size));
    this.slots = Array.from({ length: count }, () => ({
      worker: null,
      ready: null,
      busy: false,
      onDeath: null,
      runningOn: null,
    }));
  }

  /**
   * Runs `tool` in a worker. `timeoutMs` counts from the handler's start (waiting for a worker and
   * loading the module do not count); at the deadline, or when `signal` aborts, the worker is terminated.
   */
  async run(
    tool: string,
    args: Record<string, unknown>,
    callId: string,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<{ outcome: WorkerOutcome; times: WorkerRunTimes }> {
    const queuedAt = performance.now();
    const slot = await this.acquire(signal);
    const queuedMs = performance.now() - queuedAt;
    if (!slot) return { outcome: { kind: "aborted" }, times: { queuedMs, handlerMs: 0 } };
    const posted = { at: 0 };
    try {
      const outcome = await this.runIn(slot, tool, args, callId, signal, timeoutMs, posted);
      return { outcome, times: { queuedMs, handlerMs: posted.at === 0 ? 0 : performance.now() - posted.at } };
    } finally {
      this.release(slot);
    }
  }

  /** Starts every worker and waits until each has loaded the tool module (optional warm-up). */
  async warmUp(): Promise<void> {
    await Promise.all(
      this.slots.map((slot) => {
        this.start(slot);
        return slot.ready;
      }),
    );
  }

  /** Terminates every worker; later runs fail as aborted. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => this.kill(slot)));
  }

  private async runIn(
    slot: Slot,
    tool: string,
    args: Record<string, unknown>,
    callId: string,
    signal: AbortSignal,
    timeoutMs: number,
    posted: { at: number },
  ): Promise<WorkerOutcome> {
    const worker = this.start(slot);
    return new Promise<WorkerOutcome>((resolve) => {
      const id = this.nextId++;
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | null = null;
      const startup = setTimeout(() => {
        void this.kill(slot);
        const message = `the tool module did not load within ${this.startupTimeoutMs} ms`;
        settle({ kind: "error", error: { name: "WorkerStartupTimeout", message } });
      }, this.startupTimeoutMs);
      const settle = (outcome: WorkerOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(startup);
        if (timer !== null) clearTimeout(timer);
        worker.off("message", onMessage);
        signal.removeEventListener("abort", onAbort);
        slot.onDeath = null;
        slot.runningOn = null;
        resolve(outcome);
      };
      const onMessage = (reply: WorkerReply) => {
        if (reply.type === "result" && reply.id === id) settle({ kind: "ok", value: reply.value });
        else if (reply.type === "error" && reply.id === id) settle({ kind: "error", error: reply.error });
      };
      const onAbort = () => {
        // The handler may be stuck in a loop that never reads the abort message: stop the thread.
        void this.kill(slot);
        settle({ kind: "aborted" });
      };
      slot.onDeath = settle;
      slot.runningOn = worker;
      worker.on("message", onMessage);
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) return onAbort();
      slot.ready!.then((ready) => {
        if (settled) return;
        if ("error" in ready) {
          settle({
            kind: "error",
            error: { ...ready.error, message: `the tool module failed to load: ${ready.error.message}` },
          });
        } else if (!ready.tools.has(tool)) {
          settle({
            kind: "error",
            error: {
              name: "UnknownToolError",
              message: `the tool module ${this.moduleUrl} exports no tool "${tool}"`,
            },
          });
        } else {
          clearTimeout(startup);
          posted.at = performance.now();
          worker.postMessage({ type: "run", id, tool, args, callId } satisfies WorkerRequest);
          // A handler past its deadline may be stuck in a loop: only terminating the thread stops it.
          timer = setTimeout(() => {
            void this.kill(slot);
            settle({ kind: "timeout" });
          }, timeoutMs);
        }
      });
    });
  }

  private start(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const worker = new Worker(WORKER_SCRIPT, { workerData: { module: this.moduleUrl } });
    // Idle workers must not keep the application alive.
    worker.unref();
    slot.worker = worker;
    slot.ready = new Promise((resolve) => {
      const onReady = (reply: WorkerReply) => {
        if (reply.type === "ready") resolve({ tools: new Set(reply.tools) });
        else if (reply.type === "load_error") resolve({ error: reply.error });
        else return;
        worker.off("message", onReady);
      };
      worker.on("message", onReady);
      worker.once("exit", (exitCode) =>
        resolve({ error: { name: "WorkerExit", message: `exited with ${exitCode}` } }),
      );
    });
    worker.on("error", (error: Error) => {
      // An uncaught error ends the thread; the next call must not be posted to it.
      if (slot.worker === worker) void this.kill(slot);
      const info = { name: error.name, message: error.message, stack: error.stack };
      if (slot.runningOn === worker) slot.onDeath?.({ kind: "error", error: info });
    });
    worker.once("exit", (exitCode) => {
      if (slot.worker === worker) {
        slot.worker = null;
        slot.ready = null;
      }
      if (slot.runningOn === worker) slot.onDeath?.({ kind: "exit", exitCode });
    });
    return worker;
  }

  private async kill(slot: Slot): Promise<void> {
    const worker = slot.worker;
    if (!worker) return;
    slot.worker = null;
    slot.ready = null;
    await worker.terminate();
  }

  private acquire(signal: AbortSignal): Promise<Slot | null> {
    if (this.closed || signal.aborted) return Promise.resolve(null);
    const free = this.slots.find((slot) => !slot.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => {
      const take = (slot: Slot) => {
        signal.removeEventListener("abort", onAbort);
        resolve(slot);
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(take);
        if (at !== -1) this.waiting.splice(at, 1);
        resolve(null);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(take);
    });
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next && !this.closed) next(slot);
    else slot.busy = false;
  }
}

/**
 * `ToolExecutor`: runs a call's handler safely. The call is checked against the registry (known
 * tool, arguments parsed by its schema), the handler runs with a deadline and an AbortSignal, in
 * this thread or (with `isolation`) in a worker thread, and every outcome comes back as an
 * {@link ExecutionResult}, never as a throw. Each execution is reported to the audit hook.
 */
import type { CallIssue } from "../calls/map-heads";
import {
  dispatchEarly,
  type EarlyDispatchOptions,
  type EarlyDispatchResult,
  type StreamEvent,
} from "./early-dispatch";
import {
  type CallToExecute,
  type ExecutionFailure,
  type ExecutionFailureStatus,
  type ExecutionResult,
  type ExecutionTimings,
  errorInfo,
} from "./execution-result";

// Declared beside the results (early dispatch needs it too, and must not import this file).
export type { CallToExecute } from "./execution-result";

import type { ToolRegistry } from "./registry";
import { HandlerWorkerPool } from "./worker-pool";

/** Handler isolation: handlers run in worker threads that import `module`. */
export interface IsolationOptions {
  /**
   * The module that exports the tools (`defineTool` results or a `ToolRegistry`, named or
   * default), as a URL: `new URL("./tools.ts", import.meta.url)`. Workers import it themselves,
   * since functions cannot be sent to a thread.
   */
  module: string | URL;
  /** Worker threads, one call each at a time; default 1. */
  workers?: number;
  /** Longest a worker may take to load `module` (not counted in a call's timeout); default 30 000 ms. */
  startupTimeoutMs?: number;
}

/** One line of the audit log. */
export interface AuditEntry {
  callId: string;
  tool: string | null;
  /** Arguments as the handler got them (or as given, when refused). */
  args: Record<string, unknown>;
  result: ExecutionResult;
  timings: ExecutionTimings;
  isolated: boolean;
  /** `stream`: started by early dispatch; `headStartMs` says how much earlier than the full call. */
  source: "execute" | "stream";
  headStartMs?: number;
}

/** Options of {@link ToolExecutor}. */
export interface ToolExecutorOptions {
  /** Deadline of a handler, from its start (with isolation, waiting for a worker is not counted); default 10 000 ms. */
  timeoutMs?: number;
  /** Run handlers in worker threads. */
  isolation?: IsolationOptions;
  /** Called after each execution; what it throws is ignored (the log must not break the app). */
  onAudit?: (entry: AuditEntry) => void;
}

/** Per-call options. */
export interface ExecuteOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

const STOPPED: unique symbol = Symbol("stopped");

/** Which of the deadline and the caller aborted a run. */
class RunAbort {
  constructor(readonly kind: "timeout" | "aborted") {}
}

/**
 * Executes calls against a registry.
 *
 * @example
 * ```ts
 * const executor = new ToolExecutor(registry, { timeoutMs: 2000, onAudit: (e) => log.info(e) });
 * const result = await executor.execute(await caller.call({ query: "fire", tools: registry.tools() }));
 * if (result.ok) console.log(result.value);
 * else console.warn(result.status, result.message); // unknown_tool | invalid_arguments | timeout | ...
 *
 * // Start the handler as soon as the function and its required arguments are decoded:
 * const early = await executor.executeStream(caller.stream({ query: "fire", tools: registry.tools() }));
 * console.log(early.headStartMs); // how much sooner the handler started than the full call arrived
 * ```
 */
export class ToolExecutor {
  readonly timeoutMs: number;
  private readonly pool: HandlerWorkerPool | null;

  constructor(
    readonly registry: ToolRegistry,
    private readonly options: ToolExecutorOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    const isolation = options.isolation;
    this.pool = isolation
      ? new HandlerWorkerPool(String(isolation.module), isolation.workers ?? 1, isolation.startupTimeoutMs)
      : null;
  }

  /** Whether handlers run in workers. */
  get isolated(): boolean {
    return this.pool !== null;
  }

  /** Checks and runs one call. Never rejects. */
  async execute(call: CallToExecute, options: ExecuteOptions = {}): Promise<ExecutionResult> {
    const result = await this.run(call, options);
    this.audit({ result, source: "execute" });
    return result;
  }

  /**
   * Early dispatch: reads streamed heads (`{head, text, done}` events, then `{call}`, as core's
   * `RealtimeCaller.stream` and the client's `streamFunctionCall` yield them) and starts the
   * handler once the function head and every required argument head are final. Never rejects.
   */
  async executeStream(
    events: AsyncIterable<StreamEvent>,
    options: ExecuteOptions & EarlyDispatchOptions = {},
  ): Promise<EarlyDispatchResult> {
    const outcome = await dispatchEarly(this.registry, events, (call) => this.run(call, options), options);
    this.audit({ result: outcome.result, source: "stream", headStartMs: outcome.headStartMs });
    return outcome;
  }

  /** Starts the workers and loads the tool module in each (isolation), so the first calls do not wait. */
  async warmUp(): Promise<void> {
    await this.pool?.warmUp();
  }

  /** Stops the workers (isolation); in-process handlers are not affected. */
  async close(): Promise<void> {
    await this.pool?.close();
  }

  private async run(call: CallToExecute, options: ExecuteOptions): Promise<ExecutionResult> {
    const startedAt = Date.now();
    const started = performance.now();
    const callId = crypto.randomUUID();
    const base = { callId, tool: call.function, args: call.args ?? {}, isolated: this.isolated };
    const timings = (queuedMs = 0, handlerMs = 0): ExecutionTimings => ({
      startedAt,
      queuedMs,
      handlerMs,
      totalMs: performance.now() - started,
    });
    const fail = (status: ExecutionFailureStatus, message: string, extra: Partial<ExecutionFailure> = {}) =>
      ({ ...base, ok: false, status, message, timings: timings(), ...extra }) satisfies ExecutionFailure;

    if (call.function === null) {
      const why = call.errors?.map((e) => e.message).join("; ");
      return fail("unknown_tool", why || "no function was called");
    }
    const tool = this.registry.get(call.function);
    if (!tool) {
      return fail(
        "unknown_tool",
        `unknown tool "${call.function}"; tools are: ${this.registry.names().join(", ")}`,
      );
    }
    if (call.valid === false) {
      const issues = [...(call.errors ?? [])];
      return fail("invalid_arguments", summarize(issues) || "the call was marked invalid", { issues });
    }
    const parsed = tool.parseArgs(call.args ?? {});
    if (!parsed.ok) return fail("invalid_arguments", summarize(parsed.issues), { issues: parsed.issues });
    const args = parsed.value as Record<string, unknown>;

    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new RunAbort("timeout")), timeoutMs);
    const onCallerAbort = () => controller.abort(new RunAbort("aborted"));
    if (options.signal?.aborted) onCallerAbort();
    else options.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const aborted = (handlerMs: number, queuedMs = 0): ExecutionFailure => {
      const reason = controller.signal.reason;
      const result =
        reason instanceof RunAbort && reason.kind === "timeout"
          ? fail("timeout", `the handler did not finish within ${timeoutMs} ms`, { timeoutMs })
          : fail("aborted", "the execution was aborted by its caller");
      return { ...result, args, timings: timings(queuedMs, handlerMs) };
    };

    try {
      if (this.pool) {
        // The pool times the handler itself: waiting for a worker and loading the module do not count.
        clearTimeout(timer);
        const { outcome, times } = await this.pool.run(tool.name, args, callId, controller.signal, timeoutMs);
        const done = { ...base, args, timings: timings(times.queuedMs, times.handlerMs) };
        switch (outcome.kind) {
          case "ok":
            return { ...done, ok: true, status: "ok", value: outcome.value };
          case "error":
            return {
              ...done,
              ok: false,
              status: "handler_error",
              message: outcome.error.message,
              error: outcome.error,
            };
          case "exit":
            return {
              ...done,
              ok: false,
              status: "worker_exit",
              message: `the handler's worker exited with code ${outcome.exitCode}`,
              exitCode: outcome.exitCode,
            };
          case "timeout":
            return {
              ...done,
              ok: false,
              status: "timeout",
              message: `the handler did not finish within ${timeoutMs} ms`,
              timeoutMs,
            };
          case "aborted":
            return aborted(times.handlerMs, times.queuedMs);
        }
      }
      // Aborted before it began (the caller's signal was already spent): the handler never runs.
      if (controller.signal.aborted) return aborted(0);
      const handlerStarted = performance.now();
      const context = { signal: controller.signal, tool: tool.name, callId };
      const handling = Promise.resolve().then(() => tool.handler(args, context));
      // A handler that ignores its signal may still settle later; that late result is dropped.
      handling.catch(() => {});
      const stopped = new Promise<typeof STOPPED>((resolve) => {
        if (controller.signal.aborted) resolve(STOPPED);
        controller.signal.addEventListener("abort", () => resolve(STOPPED), { once: true });
      });
      try {
        const value = await Promise.race([handling, stopped]);
        const handlerMs = performance.now() - handlerStarted;
        if (value === STOPPED) return aborted(handlerMs);
        return { ...base, args, ok: true, status: "ok", value, timings: timings(0, handlerMs) };
      } catch (thrown) {
        const error = errorInfo(thrown);
        const handlerMs = performance.now() - handlerStarted;
        return {
          ...base,
          args,
          ok: false,
          status: "handler_error",
          message: error.message,
          error,
          timings: timings(0, handlerMs),
        };
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  private audit(entry: Pick<AuditEntry, "result" | "source" | "headStartMs">): void {
    const hook = this.options.onAudit;
    if (!hook) return;
    const { result } = entry;
    try {
      hook({
        callId: result.callId,
        tool: result.tool,
        args: result.args,
        result,
        timings: result.timings,
        isolated: result.isolated,
        source: entry.source,
        ...(entry.headStartMs !== undefined ? { headStartMs: entry.headStartMs } : {}),
      });
    } catch {
      // The audit hook is the application's; its failure must not turn a result into a throw.
    }
  }
}

function summarize(issues: readonly CallIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
}

/**
 * What executing a call can come to. The executor never throws: every outcome, including each
 * way of failing, is one of these values, told apart by `status`.
 */
import type { CallIssue } from "../calls/map-heads";

/** A call to execute: a core `CallResult`, a server or client reply, or a hand-made `{function, args}`. */
export interface CallToExecute {
  function: string | null;
  args?: Record<string, unknown>;
  /** When false, the call is refused with its `errors` (the decoder already found it invalid). */
  valid?: boolean;
  errors?: readonly CallIssue[];
}

/** Where an execution's time went (ms; `startedAt` is epoch ms). */
export interface ExecutionTimings {
  /** When the executor took the call. */
  startedAt: number;
  /** Waiting for a free worker (isolation only). */
  queuedMs: number;
  /** From the handler's start to its result or failure; 0 when it never ran. */
  handlerMs: number;
  /** From taking the call to the result. */
  totalMs: number;
}

/** An error as data (it may have crossed a worker boundary). */
export interface ErrorInfo {
  name: string;
  message: string;
  stack?: string;
}

/** Fields every result has. */
export interface ExecutionBase {
  /** Id of this execution (also in the audit log and the handler's context). */
  callId: string;
  /** The tool called; null when the call named none. */
  tool: string | null;
  /** Arguments as the handler got them (after parsing), or as given when they were refused. */
  args: Record<string, unknown>;
  /** The handler ran (or would have run) in a worker. */
  isolated: boolean;
  timings: ExecutionTimings;
}

/** The handler returned. */
export interface ExecutionOk<Result = unknown> extends ExecutionBase {
  ok: true;
  status: "ok";
  value: Result;
}

/** Kinds of failure. */
export type ExecutionFailureStatus =
  | "unknown_tool"
  | "invalid_arguments"
  | "timeout"
  | "handler_error"
  | "aborted"
  | "worker_exit"
  | "no_call";

/**
 * The handler did not produce a value; `message` says why in one line. `no_call`: a head stream
 * ended or failed before it carried a call.
 */
export interface ExecutionFailure extends ExecutionBase {
  ok: false;
  status: ExecutionFailureStatus;
  message: string;
  /** `invalid_arguments`: each problem with its `args.<name>` path. */
  issues?: CallIssue[];
  /** `handler_error`: what the handler threw. */
  error?: ErrorInfo;
  /** `timeout`: the limit that passed. */
  timeoutMs?: number;
  /** `worker_exit`: the worker's exit code (a handler called `process.exit`, or the worker crashed). */
  exitCode?: number;
}

/** The outcome of one execution. */
export type ExecutionResult<Result = unknown> = ExecutionOk<Result> | ExecutionFailure;

/** An error (or anything thrown) as {@link ErrorInfo}. */
export function errorInfo(thrown: unknown): ErrorInfo {
  if (thrown instanceof Error) {
    const info: ErrorInfo = { name: thrown.name, message: thrown.message };
    if (thrown.stack) info.stack = thrown.stack;
    return info;
  }
  return { name: "NonError", message: typeof thrown === "string" ? thrown : safeString(thrown) };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Messages between the executor's worker pool and `handler-worker.ts`. */
import type { ErrorInfo } from "./execution-result";

/** Executor to worker. */
export type WorkerRequest =
  | { type: "run"; id: number; tool: string; args: Record<string, unknown>; callId: string }
  | { type: "abort"; id: number };

/** Worker to executor. */
export type WorkerReply =
  | { type: "ready"; tools: string[] }
  | { type: "load_error"; error: ErrorInfo }
  | { type: "result"; id: number; value: unknown }
  | { type: "error"; id: number; error: ErrorInfo };

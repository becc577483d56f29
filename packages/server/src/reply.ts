/**
 * A core call result in the reference server's reply shape (`success`, `function`, `args`,
 * `heads`, `content`, `latency_ms`, `error`) plus rtool's `valid`, `errors` and `timings`.
 */
import { type FunctionCallReply, NULL_HEAD, replyTimings } from "@rtool/contract";
import type { CallerResult } from "./caller";

/** What unused heads read as in `heads`, as in the reference server (the contract's marker). */
export { NULL_HEAD };

/** Head texts with absent values spelled `<|null|>`, so every value is a string. */
export function headStrings(heads: CallerResult["heads"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(heads)) out[name] = text ?? NULL_HEAD;
  return out;
}

/**
 * Builds the reply for `result`. `success` is true when a tool was chosen (as in the reference);
 * `valid` is true when its arguments also passed the schema; `error` summarises `errors`.
 *
 * @example
 * ```ts
 * const reply = toFunctionCallReply(await caller.call(request), { latencyMs: 12.5, queueMs: 0 });
 * reply.function; // "move_to"
 * ```
 */
export function toFunctionCallReply(
  result: CallerResult,
  measured: { latencyMs: number; queueMs: number },
): FunctionCallReply {
  const heads = headStrings(result.heads);
  const content = result.heads.content;
  const error =
    result.function === null
      ? result.errors.map((e) => e.message).join("; ") || "No function called"
      : result.valid
        ? null
        : result.errors.map((e) => `${e.path}: ${e.message}`).join("; ");
  return {
    success: result.function !== null,
    function: result.function,
    args: result.args,
    heads,
    content: typeof content === "string" && content !== NULL_HEAD ? content : null,
    latency_ms: round(measured.latencyMs),
    error,
    valid: result.valid,
    errors: result.errors,
    timings: replyTimings(result.timings, measured.queueMs),
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

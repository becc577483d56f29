/**
 * A call's timings as replies carry them, from an engine's own figures: one mapping for
 * rtool-server and the in-page engine. No zod at run time (the plugin's worker imports it).
 */
import type { ServerTimings } from "./function-call";

/**
 * A call's stages as an engine measures them (`@rtool/core`'s `CallTimings`): the first five
 * always, the rest where the engine says (a remote engine may be an older server).
 */
export interface EngineTimings {
  prefillMs: number;
  decodeMs: number;
  steps: number;
  cachedPrefixTokens: number;
  totalMs: number;
  prepareMs?: number;
  queuedMs?: number;
  batchWaitMs?: number;
  forwardMs?: number;
  sharedSteps?: number;
  promptTokens?: number;
  prefilledTokens?: number;
  fedTokens?: number;
  answerCached?: boolean;
}

const roundMs = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * An engine's timings as a reply's `timings` (milliseconds to the microsecond), with `queueMs`
 * the wait before the engine took the call: one mapping for rtool-server and the in-page engine.
 *
 * @example
 * ```ts
 * reply.timings = replyTimings(result.timings, 0.4);
 * ```
 */
export function replyTimings(t: EngineTimings, queueMs: number): ServerTimings {
  return {
    prefill_ms: roundMs(t.prefillMs),
    decode_ms: roundMs(t.decodeMs),
    steps: t.steps,
    cached_prefix_tokens: t.cachedPrefixTokens,
    total_ms: roundMs(t.totalMs),
    queue_ms: roundMs(queueMs),
    // The stages between a request's arrival and its reply, so a slow call shows where it
    // waited (engines that do not report a stage give 0).
    prepare_ms: roundMs(t.prepareMs ?? 0),
    lane_wait_ms: roundMs(t.queuedMs ?? 0),
    batch_wait_ms: roundMs(t.batchWaitMs ?? 0),
    forward_ms: roundMs(t.forwardMs ?? 0),
    shared_steps: t.sharedSteps ?? 0,
    prompt_tokens: t.promptTokens ?? 0,
    prefilled_tokens: t.prefilledTokens ?? Math.max(0, (t.promptTokens ?? 0) - t.cachedPrefixTokens),
    fed_tokens: t.fedTokens ?? 0,
    answer_cached: t.answerCached ?? false,
  };
}

/**
 * What the server needs from a real-time caller: `@rtool/core`'s call types, narrowed to what a
 * remote engine (another rtool-server over HTTP) can also give, so routes and tests depend on the
 * contract, not on a model. Every type here is derived from core's, none re-declared.
 */

import type { PromptFormat } from "@rtool/contract";
import type { CallIssue, CallRequest, CallResult, CallTimings } from "@rtool/core";

/** Prompt format of a call: `v1` (head instructions in the system turn) or `v2` (domain system prompt). */
export type { PromptFormat };

/** A request in the caller's terms (the HTTP body has already been validated and mapped). */
export type CallerRequest = Omit<CallRequest, "seed">;

/** One problem with a call, as `@rtool/core` reports it. */
export type CallerIssue = CallIssue;

/**
 * Where the time of one call went: core's timings, the first five always, the rest where the
 * engine says (a remote engine may be an older server).
 */
export type CallerTimings = Pick<
  CallTimings,
  "prefillMs" | "decodeMs" | "steps" | "cachedPrefixTokens" | "totalMs"
> &
  Partial<
    Pick<
      CallTimings,
      | "promptTokens"
      | "prefilledTokens"
      | "fedTokens"
      | "prepareMs"
      | "queuedMs"
      | "batchWaitMs"
      | "forwardMs"
      | "sharedSteps"
      | "answerCached"
    >
  >;

/** A decoded, typed call (core's, less the warnings and with the narrower timings). */
export type CallerResult = Omit<CallResult, "warnings" | "timings" | "heads"> & {
  /** Head texts by head name (`function`, `arg1`.., `content`), stop markers stripped. */
  heads: Record<string, string | null | undefined>;
  timings: CallerTimings;
};

/** A streamed event: one per finished head, then the call. */
export type CallerEvent = { head: string; text: string | null; done: boolean } | { call: CallerResult };

/** Prefix-cache counters, for `/metrics`. */
export interface CallerCacheStats {
  hits: number;
  misses: number;
  evictions?: number;
  cachedTokens?: number;
  bytes?: number;
}

/** A real-time function caller: the format comes with each request. */
export interface Caller {
  call(request: CallerRequest): Promise<CallerResult>;
  stream(request: CallerRequest): AsyncIterable<CallerEvent>;
  cacheStats?(): CallerCacheStats;
}

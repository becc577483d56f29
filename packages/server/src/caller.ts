/**
 * What the server needs from a real-time caller: the shape of `createRealtimeCaller` in
 * `@rtool/core`, written structurally so routes and tests depend on the contract, not on a model.
 */

/** Prompt format of a call: `v1` (head instructions in the system turn) or `v2` (domain system prompt). */
export type PromptFormat = "v1" | "v2";

/** A request in the caller's terms (the HTTP body has already been validated and mapped). */
export interface CallerRequest {
  /**
   * Prompt format of this call (a route sets it; a caller may default it). One caller, with one
   * prefix cache keyed on tokens, serves both formats.
   */
  format?: PromptFormat;
  query: string;
  tools: readonly unknown[];
  environment?: readonly string[];
  history?: readonly string[];
  system?: string;
  maxTokens?: number;
  temperature?: number;
  includeContent?: boolean;
}

/** One problem with a call, as `@rtool/core` reports it. */
export interface CallerIssue {
  path: string;
  message: string;
}

/** Where the time of one call went. */
export interface CallerTimings {
  prefillMs: number;
  decodeMs: number;
  steps: number;
  cachedPrefixTokens: number;
  totalMs: number;
  /** Prompt tokens in all (cached ones included); absent where the engine does not say. */
  promptTokens?: number;
  /** Prompt tokens the call computed (not reused from the prefix cache); absent where the engine does not say. */
  prefilledTokens?: number;
  /** Rows the call put into forward passes (prefilled prompt tokens and head tokens); absent where the engine does not say. */
  fedTokens?: number;
  /** Validating the request and tokenizing its prompt. */
  prepareMs?: number;
  /** Waiting for earlier calls on the same caller (a lane of the pool). */
  queuedMs?: number;
  /** Of prefill and decode, forward passes waiting in the batcher for their turn. */
  batchWaitMs?: number;
  /** Of prefill and decode, time inside forward passes. */
  forwardMs?: number;
  /** Forward passes shared with other requests' steps. */
  sharedSteps?: number;
  /** Answered from the answer cache (the same prompt and settings decoded before): no forward pass ran. */
  answerCached?: boolean;
}

/** A decoded, typed call. */
export interface CallerResult {
  function: string | null;
  args: Record<string, unknown>;
  /** Head texts by head name (`function`, `arg1`.., `content`), stop markers stripped. */
  heads: Record<string, string | null | undefined>;
  valid: boolean;
  errors: CallerIssue[];
  timings: CallerTimings;
}

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

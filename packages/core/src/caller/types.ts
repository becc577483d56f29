/** The public types of the realtime caller: its model, options, requests, results and events. */

import type { PrefixCache } from "../batch/prefix-cache";
import type { SequenceBatch } from "../batch/sequence-batch";
import type { CallIssue } from "../calls/map-heads";
import type { HeadOutcome } from "../decode/multi-head";
import type { TokenVocab } from "../decode/token-vocab";
import type { HeadName } from "../prompt/heads";
import type { PromptFormat } from "../prompt/request";
import type { ToolInput, ToolSpec } from "../prompt/tools";
import type { DecoderRuntime } from "../runtime/types";

/** What the caller needs of a model: `loadModel` and `createModelFromWeights` models with a tokenizer. */
export interface CallerModel {
  readonly runtime: DecoderRuntime;
  readonly tokenizer: TokenVocab;
}

/** Options of `createRealtimeCaller`. */
export interface RealtimeCallerOptions {
  /**
   * Prompt format of calls that name none (`v1` or `v2`). A request's own `format` wins, so one
   * caller, and its one prefix cache, serves both formats; without a default every request
   * must name its format.
   */
  format?: PromptFormat;
  /** Bytes of KV the prefix cache may hold; default 256 MiB; 0 turns the cache off. */
  prefixCacheBytes?: number;
  /**
   * A prefix cache to use instead of a new one, e.g. one cache shared by several callers on the
   * same runtime (cache operations are synchronous and cached KV is never mutated, so sharing is
   * safe). `prefixCacheBytes` is then ignored.
   */
  prefixCache?: PrefixCache;
  /**
   * The sequence batch to decode in, e.g. one shared by several callers over the model's
   * runtime: its prefix cache is this caller's (`prefixCache` and `prefixCacheBytes` are then
   * ignored). Default: a batch of the caller's own, over `model.runtime` with its prefix cache.
   */
  sequences?: SequenceBatch;
  /**
   * Before a call whose system turn (system prompt + tools) the prefix cache lacks, prefill that
   * turn as an entry of its own, once for all callers sharing the cache; default false. Costs
   * the first call of a tool set one extra forward pass; lets every later call continue from
   * one entry, so a server that merges concurrent calls' passes holds that turn once.
   */
  cacheSystemTurn?: boolean;
  /**
   * Where greedy calls' answers are kept by exact prompt tokens and decode settings: a call whose
   * prompt and settings repeat one seen before gets that answer without a forward pass (at
   * temperature 0 decoding it again gives the same heads). Share one between callers of the same
   * model only. Default: none.
   */
  answerCache?: AnswerStore | null;
  /** Hold heads to the tools' schemas (default true). */
  constrained?: boolean;
  /** Emit tokens a constraint forces without forward passes (default true). */
  skipForcedTokens?: boolean;
  /**
   * Tokens each head may draft per forward pass from the prompt (prompt-lookup decoding: values
   * copied from the query or environment then take fewer passes). Output is unchanged: a drafted
   * token is kept only where greedy decoding chooses it. Greedy calls only. Default: 4 for models
   * up to 50M parameters, 0 (off) above, where extra rows in a pass cost real work
   * (`defaultDraftTokens`).
   */
  draftTokens?: number;
  /**
   * Added to the logits of a free-text argument's tokens that copy a word of the request: a first
   * token that begins one, and the tokens that continue, as the request spells it, a word the
   * argument has begun (a name from the roster, an id from the environment). A small model names a
   * unit it saw in training, or starts the right name and drifts into letters of its own. The
   * function head and enum arguments get it for the tool or value the command itself names (its
   * last paragraph; the history's calls are left out). 0 turns it off. Default
   * {@link DEFAULT_COPY_BIAS}.
   */
  copyBias?: number;
}

/**
 * The copy nudge callers apply unless told otherwise, chosen on rt-tiny's template held-out set
 * (5,429 requests, `eval:tiny --copy-bias N`): exact calls with no nudge 63.3% (copy set 48.7%);
 * first tokens and continuations nudged by 2 / 3 / 5: 63.6 / 63.6 / 63.4% (copy set 49.9 / 51.9 /
 * 52.5%, phrasing families 68.2 / 68.1 / 67.5%). Extending it at 3 to the function head and enum
 * arguments (names the command says): held-out 63.7 -> 65.2% (coined synthetic tools 19.7 -> 27.7%),
 * families 68.2 -> 69.1%, copy set 51.9 -> 52.2%, hand-written fresh phrasings 80.6 -> 81.3%; the
 * function head alone at 0 / 3 / 6 / 10 on 25 requests per cell: 67.4 / 69.6 / 69.9 / 69.4%.
 * The function head's lean towards the tools the order names in words is twice this bias.
 */
export const DEFAULT_COPY_BIAS = 3;

/** One call. */
export interface CallRequest {
  /**
   * Prompt format of this call; default the caller's `format`. The prefix cache keys on tokens
   * alone, so calls of either format share one cache, reusing KV exactly where their tokens
   * agree (a v1 and a v2 prompt share little more than the opening of the system turn).
   */
  format?: PromptFormat;
  /** The command, e.g. "Amiya, use your second skill". */
  query: string;
  /** OpenAI-style function tools (or `normalizeTools` output); at most 6 parameters each. Validated. */
  tools: readonly (ToolInput | ToolSpec)[] | readonly unknown[];
  /** Lines describing the world now. */
  environment?: readonly string[];
  /** Earlier calls, oldest first; the last 6 reach the prompt. */
  history?: readonly string[];
  /** v2 system prompt. */
  system?: string;
  /** Generated tokens per head at most (forced tokens are free); default 32. */
  maxTokens?: number;
  /** Decode the free-text `<content>` head too; default false. */
  includeContent?: boolean;
  /** 0 (default) is greedy. */
  temperature?: number;
  /** Seed of sampling when temperature > 0; default 0. */
  seed?: number;
}

/** Where a call's time went. */
export interface CallTimings {
  /** The first forward pass: the uncached prompt tokens together with the head tags. */
  prefillMs: number;
  /** The remaining forward passes and token choices. */
  decodeMs: number;
  /** Forward passes in all. */
  steps: number;
  /** Prompt tokens whose KV came from the prefix cache. */
  cachedPrefixTokens: number;
  /** Prompt tokens in all. */
  promptTokens: number;
  /**
   * Prompt tokens this call's decode computed (`promptTokens - cachedPrefixTokens`): its prefill.
   * A system turn prefilled into the cache just before (the first call with these tools) is not counted.
   */
  prefilledTokens: number;
  /**
   * Rows this call put into forward passes: its prefilled prompt tokens and every head token fed
   * (tags, chosen tokens, drafts). What its passes cost grows with these.
   */
  fedTokens: number;
  /** Head tokens emitted without a forward pass. */
  forcedTokens: number;
  /** Tokens drafted from the prompt (`draftTokens`), and of them those kept. */
  draftedTokens: number;
  keptDraftTokens: number;
  /** Waiting for earlier calls on this caller. */
  queuedMs: number;
  /** Validating the request and tokenizing its prompt (before the queue). */
  prepareMs: number;
  /**
   * Of prefill and decode, the time the forward passes waited in a batching runtime for their
   * turn (other callers' passes, merging); 0 on a plain session.
   */
  batchWaitMs: number;
  /** Of prefill and decode, the time inside forward passes (shared ones counted whole). */
  forwardMs: number;
  /** Forward passes shared with other callers' steps. */
  sharedSteps: number;
  /** The answer came from the answer cache (the same prompt and settings decoded before): no pass ran. */
  answerCached: boolean;
  /** From the start of this call's turn to its result (queue wait excluded). */
  totalMs: number;
}

/** Head texts of a call: the value (stop marker stripped), null for `<|null|>`. */
export type CallHeads = Partial<Record<HeadName, string | null>>;

/** A decoded, mapped and validated call. */
export interface CallResult {
  /** The chosen tool, null when the function head named none of the tools. */
  function: string | null;
  /** Typed values by parameter name. */
  args: Record<string, unknown>;
  heads: CallHeads;
  valid: boolean;
  errors: CallIssue[];
  /** Ignored head values (an arg head the chosen tool does not have). */
  warnings: CallIssue[];
  timings: CallTimings;
}

/** Events of `RealtimeCaller.stream`: each head as it finishes, then the call. */
export type CallStreamEvent = { head: HeadName; text: string | null; done: true } | { call: CallResult };

/** A decoded call as an {@link AnswerStore} keeps it: the heads in the order they were reported, and the mapped call. */
export interface CachedAnswer {
  /** Heads in the order the decode reported them (a stream replays them so). */
  heads: readonly HeadOutcome[];
  result: Omit<CallResult, "timings">;
}

/**
 * Where a caller keeps greedy answers by key (`AnswerCache`, an LRU, is the one core has); the
 * option names this interface so that the cache's module may import these types, not the reverse.
 */
export interface AnswerStore {
  /** The answer stored under `key` (a copy the caller may change), or undefined. */
  get(key: string): CachedAnswer | undefined;
  /** Stores a copy of `answer` under `key`. */
  set(key: string, answer: CachedAnswer): void;
}

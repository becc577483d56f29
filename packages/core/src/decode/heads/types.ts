/**
 * The multi-head decoder's public contract: what a caller plans per head, what it gets back, and
 * the error for input it got wrong. Kept apart from the loop so that the step modules under
 * `heads/` can share these types without importing the loop.
 */
import type { DecoderRuntime, KvState } from "../../runtime/types";
import type { HeadStops, TextConstraint } from "../head-text";
import type { VocabIndex } from "../token-vocab";

/** One head to decode. */
export interface HeadPlan {
  /** e.g. `"function"`, `"arg1"`, `"content"`. */
  name: string;
  /** The head's tag as token ids (one added token, or several text tokens). */
  tagIds: readonly number[];
  stops: HeadStops;
  /** Null decodes the head unconstrained. */
  constraint: TextConstraint | null;
}

/** How a head ended. */
export type HeadStopReason = "marker" | "forced" | "maxTokens" | "noValidToken";

/** The decoded head. */
export interface HeadOutcome {
  name: string;
  /** The value, stop marker stripped. */
  text: string;
  /** Ended by `<|null|>`: no value. */
  isNull: boolean;
  /** The stop marker that ended it, if any. */
  marker: string | null;
  stoppedBy: HeadStopReason;
  /** Every token of the head after its tag, forced ones and the stop marker included. */
  tokenIds: number[];
  /** Of `tokenIds`, how many were emitted without a forward pass. */
  forcedTokens: number;
  /** Times the head started over because a narrowed constraint ruled out what it had written. */
  restarts: number;
}

/**
 * What the heads of one decode are and how to decode them, apart from where the prompt is: the
 * input of `decodeHeadForks`, whose prompt is a sequence of a `SequenceBatch`.
 */
export interface HeadForksInput {
  /** The model's vocabulary as text, for constraints and stops. */
  vocab: VocabIndex;
  /** The heads to decode, each a fork of the prompt. */
  heads: readonly HeadPlan[];
  /** Generated tokens per head, not counting forced ones. */
  maxTokens: number;
  /** 0 (default) is greedy. */
  temperature?: number;
  /** Seed of sampling at temperature > 0; each head draws from its own stream. */
  seed?: number;
  /** Emit forced continuations without forward passes (default true). */
  skipForced?: boolean;
  /**
   * The whole prompt, where drafts are looked up; drafting is
   * off without it.
   */
  promptIds?: readonly number[];
  /**
   * Tokens drafted per head and pass from the prompt (prompt-lookup decoding); default 0 (off).
   * Greedy decoding only: at temperature > 0 nothing is drafted.
   */
  draftTokens?: number;
  /**
   * Added to the logits of a free-text head's tokens that copy a word of the request (a first
   * token that begins one; tokens that continue the word it has begun), and of the function
   * head's and enum arguments' tokens that spell a word of the command (see `copy-bias.ts`);
   * the function head and enum arguments also get up to twice it towards the tools and values
   * whose names' parts the order says in words (see `name-parts.ts`), arg heads twice it towards
   * the values the order gives their parameter by name (`said-values.ts`). Needs `promptIds`.
   * Default 0 (off).
   */
  copyBias?: number;
  /**
   * Called when a head finishes; returns new constraints for other heads (e.g. the arg heads
   * once the function is known), or null. A head whose text the new constraint rules out starts
   * over; a finished head whose value it rules out is decoded again.
   */
  refine?: (finished: HeadOutcome) => ReadonlyMap<string, TextConstraint | null> | null;
  /** Heads finishing before this one are reported only after it (their values may still change). */
  holdReportsUntil?: string;
  /** Each head once, as it finishes for good. */
  onHeadDone?: (head: HeadOutcome) => void;
}

/** Input of `decodeHeads`: {@link HeadForksInput} and the prompt as KV and tokens on a runtime. */
export interface DecodeHeadsInput extends HeadForksInput {
  runtime: DecoderRuntime;
  /** KV of the first `past.length` prompt tokens (from the prefix cache, or empty). */
  past: KvState;
  /** The prompt tokens not in `past`; prefilled by the first step together with the head tags. */
  pending: readonly number[];
}

/** Output of `decodeHeads`. */
export interface DecodeHeadsResult {
  /** In the order of `input.heads`. */
  heads: HeadOutcome[];
  /** Forward passes run. */
  steps: number;
  /** KV of the whole prompt when `pending` was not empty (for the prefix cache), else null. */
  promptKv: KvState | null;
  /** Time of the first forward pass (the pending prompt tokens and the head tags). */
  firstStepMs: number;
  /** Time after the first forward pass. */
  restMs: number;
  /** Drafted tokens fed, and of them those kept (see `draftTokens`). */
  drafts: { fed: number; kept: number };
  /**
   * Rows this decode put into forward passes: the prompt's tokens not computed before it (the
   * prefill) and every head token fed (tags, chosen tokens, drafts).
   */
  fedTokens: number;
  /**
   * Where the forward passes' time went: waiting in a batching runtime for a pass (0 without
   * one), inside passes, and how many steps shared their pass with other callers' steps.
   */
  batch: { waitMs: number; passMs: number; sharedSteps: number };
}

/** Bad decode input (caller error, not model behaviour). */
export class DecodeInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "DecodeInputError";
  }
}

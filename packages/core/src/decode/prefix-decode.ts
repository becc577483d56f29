/**
 * `decodeHeads` over a prompt whose leading tokens may already be cached: the prompt is a
 * sequence of a sequence batch with the prefix cache, so the longest cached prefix's KV is reused,
 * only the rest is prefilled, and the whole prompt's KV is cached once computed. Every caller of
 * the decoder (the real-time caller, text completions) does exactly this, so it lives here once,
 * and none of them handles KV itself.
 */

import type { PrefixCache } from "../batch/prefix-cache";
import { SequenceBatch } from "../batch/sequence-batch";
import type { DecodeHeadsInput, DecodeHeadsResult } from "./heads/types";
import { decodeHeadForks } from "./multi-head";

/** Input of {@link decodePrompt}: `decodeHeads`' input with the prompt in place of `past`/`pending`. */
export interface PromptDecodeInput extends Omit<DecodeHeadsInput, "past" | "pending"> {
  /** The tokens every head continues (before its tag). */
  prompt: readonly number[];
  /** Where the prompt's prefix KV is looked up and the prompt's KV stored; none decodes cold. */
  cache?: PrefixCache | null;
  /**
   * The sequence batch to open the prompt in, e.g. one shared by several callers; its prefix
   * cache is used, and `runtime` and `cache` are not. Default: a new one over `runtime` with `cache`.
   */
  sequences?: SequenceBatch;
}

/** {@link DecodeHeadsResult} and how much of the prompt came from the cache. */
export interface PromptDecodeResult extends DecodeHeadsResult {
  /** Prompt tokens whose KV the cache held (not prefilled). */
  cachedTokens: number;
}

/**
 * Decodes the heads after `input.prompt`, reusing and filling `input.cache`.
 *
 * @example
 * ```ts
 * const cache = new PrefixCache(runtime, { maxBytes: 64 << 20 });
 * const { heads, cachedTokens } = await decodePrompt({ runtime, vocab, cache, prompt: ids, heads: plans, maxTokens: 16 });
 * ```
 */
export async function decodePrompt(input: PromptDecodeInput): Promise<PromptDecodeResult> {
  const { prompt, cache, runtime, sequences, ...heads } = input;
  const batch = sequences ?? new SequenceBatch(runtime, { prefixCache: cache });
  const seq = batch.open(prompt, { keepKv: true });
  try {
    const { cachedTokens } = batch.info(seq);
    const decoded = await decodeHeadForks(batch, seq, heads);
    return { ...decoded, cachedTokens };
  } finally {
    batch.release(seq);
  }
}

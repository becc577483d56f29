import { qwenTensorShapes } from "../graph/random-weights";
import type { QwenConfig } from "../model/types";

/**
 * Drafts for prompt-lookup decoding. Argument values are mostly copied from the prompt (names
 * from the environment, numbers and speech from the query), so the tokens that followed the
 * head's last tokens where they occur in the prompt are a good guess of what comes next. The
 * decode loop feeds such a draft behind a head's next token in the same forward pass and keeps
 * the drafted tokens greedy decoding would have chosen anyway, so the output does not change;
 * only the number of passes does.
 */

/** Options of {@link draftFromPrompt}. */
export interface PromptDraftOptions {
  /** Most tokens drafted. */
  maxTokens: number;
  /** Longest suffix of the head tried first (then shorter ones, down to `minNgram`); default 3. */
  maxNgram?: number;
  /** Shortest suffix tried; default 1. */
  minNgram?: number;
}

/**
 * Tokens that followed the latest occurrence in `prompt` of the longest suffix of `context`
 * (up to `maxNgram` tokens) found there; empty when none occurs or nothing follows it.
 *
 * @example
 * ```ts
 * draftFromPrompt([5, 6, 7, 8, 9], [1, 6, 7], { maxTokens: 2 }); // [8, 9]
 * ```
 */
export function draftFromPrompt(
  prompt: readonly number[],
  context: readonly number[],
  options: PromptDraftOptions,
): number[] {
  const maxNgram = Math.min(options.maxNgram ?? 3, context.length);
  if (options.maxTokens <= 0) return [];
  const minNgram = Math.max(1, options.minNgram ?? 1);
  for (let n = maxNgram; n >= minNgram; n--) {
    const start = context.length - n;
    // latest occurrence first: the query and its environment come last in the prompt
    for (let at = prompt.length - n - 1; at >= 0; at--) {
      let same = true;
      for (let j = 0; j < n && same; j++) same = prompt[at + j] === context[start + j];
      if (same) return prompt.slice(at + n, at + n + options.maxTokens);
    }
  }
  return [];
}

/** Parameters above which drafting is off by default (see {@link defaultDraftTokens}). */
export const DRAFT_DEFAULT_MAX_PARAMS = 50e6;

/**
 * Tokens drafted per head and pass unless the caller says otherwise: 4 for small models, where
 * a pass costs mostly its fixed overhead and extra rows are nearly free (rt-tiny: 34% fewer passes
 * on the assistant scenario, 24% on the robot arm, outputs identical), 0 above
 * {@link DRAFT_DEFAULT_MAX_PARAMS} parameters, where each extra row costs real matmul work (fp32
 * 0.5B on two cores: 8 rows ~1.4x one row; 4-bit weights are compute-bound per row).
 */
export function defaultDraftTokens(config: QwenConfig): number {
  let params = 0;
  for (const shape of qwenTensorShapes(config).values()) params += shape.reduce((n, d) => n * d, 1);
  return params <= DRAFT_DEFAULT_MAX_PARAMS ? 4 : 0;
}

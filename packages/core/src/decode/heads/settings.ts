/**
 * The decoder's input checked and its defaults filled in, once, before anything runs.
 */
import { DecodeInputError, type HeadForksInput } from "./types";

/** {@link HeadForksInput} with defaults applied. */
export interface DecodeSettings {
  maxTokens: number;
  temperature: number;
  seed: number;
  skipForced: boolean;
  draftTokens: number;
  /** Prompt-lookup drafting is on: greedy, a budget, and the prompt to look in. */
  drafting: boolean;
  /** Tokens of the whole prompt. */
  promptLength: number;
  /** The copy nudge (0: off). */
  copyBias: number;
}

/**
 * Checks `input` (a {@link DecodeInputError} names the bad field) and fills in defaults, for a
 * prompt of `promptLength` tokens.
 */
export function decodeSettings(input: HeadForksInput, promptLength: number): DecodeSettings {
  const { maxTokens } = input;
  const temperature = input.temperature ?? 0;
  if (!(maxTokens >= 1)) throw new DecodeInputError("maxTokens", `must be >= 1, got ${maxTokens}`);
  if (!(temperature >= 0)) throw new DecodeInputError("temperature", `must be >= 0, got ${temperature}`);
  const draftTokens = input.draftTokens ?? 0;
  if (!(Number.isInteger(draftTokens) && draftTokens >= 0))
    throw new DecodeInputError("draftTokens", `must be a non-negative integer, got ${draftTokens}`);
  const copyBias = input.copyBias ?? 0;
  if (!(Number.isFinite(copyBias) && copyBias >= 0))
    throw new DecodeInputError("copyBias", `must be a finite number >= 0, got ${copyBias}`);
  return {
    copyBias: input.promptIds === undefined ? 0 : copyBias,
    maxTokens,
    temperature,
    seed: input.seed ?? 0,
    skipForced: input.skipForced ?? true,
    draftTokens,
    drafting: draftTokens > 0 && temperature === 0 && input.promptIds !== undefined,
    promptLength,
  };
}

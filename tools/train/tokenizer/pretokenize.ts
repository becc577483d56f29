/**
 * rt-tiny 2's pre-tokenizer split, built so that a value is the same token sequence wherever it
 * appears (in the tools, the environment, the query or the answer), which is what lets a small
 * model learn to copy:
 * - every CJK ideograph is a piece of its own (`阿米娅` reads the same inside `让阿米娅…`);
 * - spaces are pieces of their own, never glued to the next word (`Texas` is never ` Texas`);
 * - letter runs (contractions split off), single digits, punctuation runs and whitespace runs.
 * The same pattern goes into tokenizer.json. It uses only literal character ranges, `\p{L}`,
 * `\p{N}`, `\s` and a negative lookahead, which JavaScript and the Rust (Oniguruma) engine read
 * alike, so `tokenizers` and rtool's own tokenizer split identically (tested).
 */
const HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";

export const SPLIT_PATTERN = [
  `[${HAN}]`,
  "'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])",
  `(?:(?![${HAN}])\\p{L})+`,
  "\\p{N}",
  "[^\\s\\p{L}\\p{N}]+",
  "\\s+",
].join("|");

const SPLIT = new RegExp(SPLIT_PATTERN, "gu");

/** The pieces BPE merges never cross. */
export function preTokenize(text: string): string[] {
  return text.match(SPLIT) ?? [];
}

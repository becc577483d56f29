/**
 * The pre-tokenizer split, as in Qwen2/GPT-4-style tokenizers: contractions, letter runs with
 * one leading non-letter, single digits (so numbers are copied digit by digit), punctuation
 * runs, newlines and spaces. The same pattern goes into tokenizer.json, written without
 * inline flags so JavaScript and the Rust (Oniguruma) engine read it alike.
 */
export const SPLIT_PATTERN =
  "'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

const SPLIT = new RegExp(SPLIT_PATTERN, "gu");

/** The pieces BPE merges never cross. */
export function preTokenize(text: string): string[] {
  return text.match(SPLIT) ?? [];
}

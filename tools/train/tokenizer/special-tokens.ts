/**
 * The added tokens of rt-tiny: chat markers, every head tag and stop marker. Each is one id,
 * so a head tag is one step of the decoder and a stop marker one sampled token.
 */
export const CHAT_MARKERS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] as const;

export const HEAD_MARKERS: readonly string[] = [
  "<function>",
  "</function>",
  ...[1, 2, 3, 4, 5, 6].flatMap((i) => [`<arg${i}>`, `</arg${i}>`]),
  "<content>",
  "</content>",
  "<|null|>",
];

/** All added tokens in id order (they follow the BPE vocabulary). */
export const SPECIAL_TOKENS: readonly string[] = [...CHAT_MARKERS, ...HEAD_MARKERS];

/** Splits text around special tokens; odd indices of the result are the tokens themselves. */
export function splitOnSpecialTokens(text: string): string[] {
  return text.split(SPECIAL_PATTERN);
}

const SPECIAL_PATTERN = new RegExp(
  `(${[...SPECIAL_TOKENS]
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[|<>/]/g, "\\$&"))
    .join("|")})`,
);

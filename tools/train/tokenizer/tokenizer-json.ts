import type { BpeModel } from "./bpe-trainer";
import { SPLIT_PATTERN } from "./pretokenize";
import { SPECIAL_TOKENS } from "./special-tokens";

const BYTE_LEVEL = { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false };

/** The `pre_tokenizer` block of {@link SPLIT_PATTERN}: the split that makes values copyable. */
export function copyablePreTokenizer(): Record<string, unknown> {
  return {
    type: "Sequence",
    pretokenizers: [
      { type: "Split", pattern: { Regex: SPLIT_PATTERN }, behavior: "Isolated", invert: false },
      BYTE_LEVEL,
    ],
  };
}

/**
 * The Hugging Face `tokenizer.json` of a trained BPE: Qwen-like Split + ByteLevel
 * pre-tokenizer, ByteLevel decoder, no normalizer (so any text round-trips byte for byte),
 * and the special tokens as added tokens with ids right after the BPE vocabulary.
 *
 * @example
 * writeFileSync("tokenizer.json", JSON.stringify(tokenizerJson(bpe)));
 */
export function tokenizerJson(bpe: BpeModel): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  bpe.vocab.forEach((token, id) => {
    vocab[token] = id;
  });
  const added_tokens = SPECIAL_TOKENS.map((content, i) => ({
    id: bpe.vocab.length + i,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens,
    normalizer: null,
    pre_tokenizer: copyablePreTokenizer(),
    post_processor: BYTE_LEVEL,
    decoder: BYTE_LEVEL,
    model: {
      type: "BPE",
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges: bpe.merges.map(([a, b]) => `${a} ${b}`),
    },
  };
}

/** A Qwen-style `tokenizer_config.json` naming the chat markers, for model directories. */
export function tokenizerConfigJson(baseVocabSize: number): Record<string, unknown> {
  const added_tokens_decoder: Record<string, unknown> = {};
  SPECIAL_TOKENS.forEach((content, i) => {
    added_tokens_decoder[String(baseVocabSize + i)] = {
      content,
      lstrip: false,
      normalized: false,
      rstrip: false,
      single_word: false,
      special: true,
    };
  });
  return {
    add_prefix_space: false,
    added_tokens_decoder,
    additional_special_tokens: ["<|im_start|>", "<|im_end|>"],
    bos_token: null,
    eos_token: "<|im_end|>",
    pad_token: "<|endoftext|>",
    unk_token: null,
    model_max_length: 4096,
    clean_up_tokenization_spaces: false,
    errors: "replace",
    split_special_tokens: false,
    tokenizer_class: "Qwen2Tokenizer",
  };
}

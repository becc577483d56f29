/**
 * Tokenizers: Hugging Face `tokenizer.json` (byte-level BPE) with synchronous encode/decode,
 * and streaming detokenization.
 */
export { BYTE_TO_CHAR, byteLevelToBytes, toByteLevel } from "./byte-level";
export { IncrementalDetokenizer } from "./detokenizer";
export { loadTokenizer, readTokenizerFile } from "./read-tokenizer";
export { type AddedToken, type DecodeOptions, RtoolTokenizer } from "./tokenizer";

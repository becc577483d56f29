/**
 * Tokenizers: Hugging Face `tokenizer.json` (byte-level BPE) with synchronous encode/decode,
 * and streaming detokenization.
 */
export { BYTE_TO_CHAR, byteLevelToBytes, toByteLevel } from "./byte-level";
export { IncrementalDetokenizer } from "./detokenizer";
export {
  type AddedToken,
  type DecodeOptions,
  loadTokenizer,
  RtoolTokenizer,
  readTokenizerFile,
} from "./tokenizer";

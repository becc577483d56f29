/**
 * `RtoolTokenizer`: a Hugging Face `tokenizer.json` (byte-level BPE, as Qwen ships) with
 * synchronous encode/decode, special and added tokens, per-token text and bytes.
 */
import { TokenizerError } from "../model/errors";
import { regexLiteral } from "../regex-literal";
import { BpeModel } from "./bpe";
import { byteLevelToBytes } from "./byte-level";
import { compileNormalizer, compilePreTokenizer, type PreTokenizer } from "./pre-tokenize";

/** A token of the added vocabulary (`added_tokens` in tokenizer.json). */
export interface AddedToken {
  id: number;
  content: string;
  /** Special tokens are dropped by `decode(ids, { skipSpecial: true })`. */
  special: boolean;
}

/** Options of {@link RtoolTokenizer.encode}. */
export interface EncodeOptions {
  /**
   * `[start, end)` character ranges of `text` that are plain text: an added or special token
   * written there (or reaching into one) is encoded as its characters, not as its id.
   */
  plainRanges?: readonly (readonly [number, number])[];
}

/** Options of {@link RtoolTokenizer.decode}. */
export interface DecodeOptions {
  /** Leave special tokens (`<|im_end|>`, …) out of the text (default false). */
  skipSpecial?: boolean;
}

type Json = Record<string, unknown>;

const lossyUtf8 = new TextDecoder("utf-8");

function fail(file: string, field: string, message: string): never {
  throw new TokenizerError(`${file}: ${message}`, { file, field });
}

function readAddedTokens(json: Json, file: string): AddedToken[] {
  const list = json.added_tokens ?? [];
  if (!Array.isArray(list)) fail(file, "added_tokens", `"added_tokens" must be a list`);
  return list.map((entry: Json) => {
    if (typeof entry?.id !== "number" || typeof entry.content !== "string" || entry.content === "") {
      fail(file, "added_tokens", `malformed added token ${JSON.stringify(entry)}`);
    }
    for (const flag of ["lstrip", "rstrip", "single_word"]) {
      if (entry[flag] === true) {
        fail(
          file,
          "added_tokens",
          `added token ${JSON.stringify(entry.content)} uses ${flag}, which rtool does not support`,
        );
      }
    }
    return { id: entry.id, content: entry.content, special: entry.special === true };
  });
}

/**
 * A byte-level BPE tokenizer read from `tokenizer.json`.
 * @example
 * const tokenizer = loadTokenizer("models/qwen3-0.6b");
 * const ids = tokenizer.encode("<|im_start|>user\nHello<|im_end|>");
 * tokenizer.decode(ids) === "<|im_start|>user\nHello<|im_end|>";
 * tokenizer.tokenId("<|im_end|>"); // 151645
 */
export class RtoolTokenizer {
  /** Number of token ids: one past the largest id of the vocabulary and the added tokens. */
  readonly vocabSize: number;
  /** The added vocabulary (special tokens and other added tokens), in file order. */
  readonly addedTokens: readonly AddedToken[];
  private readonly model: BpeModel;
  private readonly idToToken: (string | undefined)[];
  private readonly addedById = new Map<number, AddedToken>();
  private readonly addedByContent = new Map<string, AddedToken>();
  private readonly addedPattern: RegExp | undefined;
  private readonly normalize: (text: string) => string;
  private readonly preTokenize: PreTokenizer;

  /**
   * @param json the parsed `tokenizer.json`
   * @param file the file it came from, named in errors
   * @throws {TokenizerError} malformed file, or a model/normalizer/pre-tokenizer/decoder rtool does not support
   */
  constructor(
    json: unknown,
    readonly file: string,
  ) {
    if (typeof json !== "object" || json === null) fail(file, "", "expected a JSON object");
    const root = json as Json;
    const model = root.model as Json | undefined;
    if (model?.type !== "BPE")
      fail(file, "model.type", `unsupported model type ${JSON.stringify(model?.type)}; rtool reads BPE`);
    for (const [field, off] of [
      ["dropout", null],
      ["continuing_subword_prefix", ""],
      ["end_of_word_suffix", ""],
    ] as const) {
      const value = model[field] ?? null;
      if (value !== null && value !== off)
        fail(file, `model.${field}`, `unsupported model.${field} ${JSON.stringify(value)}`);
    }
    if ((root.decoder as Json | undefined)?.type !== "ByteLevel") {
      fail(
        file,
        "decoder",
        `unsupported decoder ${JSON.stringify((root.decoder as Json | undefined)?.type)}; rtool reads ByteLevel`,
      );
    }
    const vocabJson = model.vocab;
    if (typeof vocabJson !== "object" || vocabJson === null || Array.isArray(vocabJson)) {
      fail(file, "model.vocab", `"model.vocab" must be an object of token -> id`);
    }
    const vocab = new Map<string, number>();
    let maxId = -1;
    const vocabObject = vocabJson as Record<string, unknown>;
    for (const token in vocabObject) {
      const id = vocabObject[token];
      if (typeof id !== "number" || !Number.isInteger(id) || id < 0)
        fail(file, "model.vocab", `bad id for ${JSON.stringify(token)}`);
      vocab.set(token, id);
      if (id > maxId) maxId = id;
    }
    this.addedTokens = readAddedTokens(root, file);
    for (const token of this.addedTokens) {
      this.addedById.set(token.id, token);
      this.addedByContent.set(token.content, token);
      if (token.id > maxId) maxId = token.id;
    }
    this.vocabSize = maxId + 1;
    this.idToToken = new Array(this.vocabSize);
    for (const [token, id] of vocab) this.idToToken[id] = token;
    for (const token of this.addedTokens) this.idToToken[token.id] = token.content;

    const merges = model.merges ?? [];
    if (!Array.isArray(merges)) fail(file, "model.merges", `"model.merges" must be a list`);
    this.model = new BpeModel(vocab, merges, model.ignore_merges === true, file);
    this.normalize = compileNormalizer(root.normalizer, file);
    this.preTokenize = compilePreTokenizer(root.pre_tokenizer, file);
    if (this.addedTokens.length > 0) {
      // Longest first, so the alternation finds the leftmost-longest added token like HF's matcher.
      const contents = [...this.addedByContent.keys()].sort((a, b) => b.length - a.length);
      this.addedPattern = new RegExp(contents.map(regexLiteral).join("|"), "gu");
    }
  }

  /** Alias of {@link RtoolTokenizer.vocabSize} (the decoder's `TokenVocab.size`). */
  get size(): number {
    return this.vocabSize;
  }

  /**
   * Token ids of `text`. No BOS/EOS is added; special and added tokens written in the text
   * (e.g. `<|im_start|>`) become their ids, except inside `options.plainRanges` (text that came
   * from a user, which must not become control tokens).
   *
   * @example
   * ```ts
   * const text = "<|im_start|>user\nhi<|im_end|><|im_end|>";
   * tokenizer.encode(text, { plainRanges: [[18, 30]] }); // the first <|im_end|> is characters
   * ```
   */
  encode(text: string, options: EncodeOptions = {}): number[] {
    const ids: number[] = [];
    const encodeSegment = (segment: string) => {
      if (segment === "") return;
      for (const piece of this.preTokenize(this.normalize(segment))) {
        for (const id of this.model.encodePiece(piece)) ids.push(id);
      }
    };
    if (!this.addedPattern) {
      encodeSegment(text);
      return ids;
    }
    const plain = options.plainRanges ?? [];
    let last = 0;
    for (const match of text.matchAll(this.addedPattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      // Plain text stays in the stretch around it, which is encoded as a whole as before.
      if (plain.some(([from, to]) => start < to && end > from)) continue;
      encodeSegment(text.slice(last, start));
      ids.push(this.addedByContent.get(match[0])!.id);
      last = start + match[0].length;
    }
    encodeSegment(text.slice(last));
    return ids;
  }

  /**
   * UTF-8 bytes token `id` stands for (an added token's own text), or `undefined` for an id
   * without a token (ids past the tokenizer's vocabulary, which model vocabularies pad up to).
   */
  tokenBytes(id: number): Uint8Array | undefined {
    const token = this.idToToken[id];
    return token === undefined ? undefined : byteLevelToBytes(token);
  }

  /** Bytes of a token sequence, joined, unknown ids left out. */
  decodeBytes(ids: readonly number[], options: DecodeOptions = {}): Uint8Array {
    const parts: Uint8Array[] = [];
    let length = 0;
    for (const id of ids) {
      if (options.skipSpecial && this.addedById.get(id)?.special) continue;
      const bytes = this.tokenBytes(id);
      if (!bytes) continue;
      parts.push(bytes);
      length += bytes.length;
    }
    const out = new Uint8Array(length);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  /**
   * Text of a token sequence; invalid UTF-8 (a sequence cut inside a character) becomes U+FFFD,
   * as in Hugging Face's decoder.
   */
  decode(ids: readonly number[], options: DecodeOptions = {}): string {
    return lossyUtf8.decode(this.decodeBytes(ids, options));
  }

  /**
   * Decoded text of one token (special tokens written out; "" for an id without a token). A
   * token holding part of a multi-byte character decodes to U+FFFD; use
   * {@link RtoolTokenizer.tokenBytes} where the bytes matter.
   */
  tokenText(id: number): string {
    const bytes = this.tokenBytes(id);
    return bytes ? lossyUtf8.decode(bytes) : "";
  }

  /** Id of an added or special token written as text (e.g. `"<|im_end|>"`), else `undefined`. */
  tokenId(content: string): number | undefined {
    return this.addedByContent.get(content)?.id;
  }

  /** Whether `id` is a special token (dropped by `skipSpecial`). */
  isSpecial(id: number): boolean {
    return this.addedById.get(id)?.special === true;
  }
}

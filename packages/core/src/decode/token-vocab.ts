/**
 * The decoder's view of a tokenizer: token texts for constrained selection, and a sorted index of
 * all token texts so the tokens that keep a head's text valid can be found by walking shared
 * prefixes (a trie over a sorted array) instead of testing the whole vocabulary.
 */

/** What the decoder needs from a tokenizer. */
export interface TokenVocab {
  /** Number of token ids (the logits width). */
  readonly size: number;
  /** The decoded text of one token, special tokens written out (e.g. `"</function>"`). */
  tokenText(id: number): string;
  /** Text of a token sequence, special tokens written out. */
  decode(ids: readonly number[]): string;
  /**
   * The bytes of one token, where the tokenizer splits text into bytes (a token may hold part of
   * a multi-byte character, whose {@link tokenText} is U+FFFD); `undefined` for an id without a
   * token. Optional: without it, the copy nudge sees only tokens that are whole characters.
   */
  tokenBytes?(id: number): Uint8Array | undefined;
  /**
   * Token ids of a text; special tokens written in the text map to their ids, except within
   * `options.plainRanges` (see `RtoolTokenizer.encode`).
   */
  encode(text: string, options?: { plainRanges?: readonly (readonly [number, number])[] }): number[];
}

/**
 * Token texts of a vocabulary, cached, with a sorted index for prefix walks.
 *
 * @example
 * ```ts
 * const index = new VocabIndex(vocab);
 * index.acceptedTokens("mo", (text) => toolNames.some((n) => n.startsWith(text)));
 * ```
 */
export class VocabIndex {
  private static readonly shared = new WeakMap<TokenVocab, VocabIndex>();
  private readonly texts: (string | undefined)[];
  private sorted: Int32Array | null = null;
  private byText: Map<string, number> | null = null;
  private byBytes: Map<string, number> | null = null;
  private maxBytes = 0;
  private maxText = 0;
  private readonly byteCache: (Uint8Array | undefined)[] = [];
  private readonly matching = new Map<RegExp, number[]>();

  constructor(readonly vocab: TokenVocab) {
    this.texts = new Array(vocab.size);
  }

  /**
   * The index of `vocab`, one per tokenizer: callers on the same tokenizer share its token texts
   * and its sorted index (built once; a few seconds for a 150k vocabulary on a slow CPU).
   */
  static of(vocab: TokenVocab): VocabIndex {
    let index = VocabIndex.shared.get(vocab);
    if (!index) {
      index = new VocabIndex(vocab);
      VocabIndex.shared.set(vocab, index);
    }
    return index;
  }

  get size(): number {
    return this.vocab.size;
  }

  /** The token whose whole text is `text` (the lowest id among equals), if any. */
  idOfText(text: string): number | undefined {
    return this.textIndex().get(text);
  }

  /** The longest token text (UTF-16 code units): no longer string is a token's whole text. */
  longestText(): number {
    this.textIndex();
    return this.maxText;
  }

  private textIndex(): Map<string, number> {
    if (!this.byText) {
      this.byText = new Map();
      for (let id = 0; id < this.size; id++) {
        const t = this.text(id);
        this.maxText = Math.max(this.maxText, t.length);
        if (t !== "" && !this.byText.has(t)) this.byText.set(t, id);
      }
    }
    return this.byText;
  }

  /** Whether the vocabulary tells each token's bytes (see {@link TokenVocab.tokenBytes}). */
  get hasBytes(): boolean {
    return this.vocab.tokenBytes !== undefined;
  }

  /**
   * The bytes of token `id` (cached), or `undefined` where the vocabulary does not tell them (see
   * {@link TokenVocab.tokenBytes}) or the id has no token.
   */
  bytes(id: number): Uint8Array | undefined {
    let bytes = this.byteCache[id];
    if (bytes === undefined && this.vocab.tokenBytes) {
      bytes = this.vocab.tokenBytes(id);
      this.byteCache[id] = bytes;
    }
    return bytes;
  }

  /**
   * The token whose bytes are exactly `bytes` (the lowest id among equals), if any; always
   * `undefined` for a vocabulary without {@link TokenVocab.tokenBytes}.
   */
  idOfBytes(bytes: Uint8Array): number | undefined {
    if (bytes.length > this.longestBytes()) return undefined;
    return this.byBytes!.get(bytesKey(bytes));
  }

  /** The most bytes one token holds (0 without {@link TokenVocab.tokenBytes}); no longer byte string is a token. */
  longestBytes(): number {
    if (!this.byBytes) {
      this.byBytes = new Map();
      for (let id = 0; this.hasBytes && id < this.size; id++) {
        const b = this.bytes(id);
        if (!b || b.length === 0) continue;
        this.maxBytes = Math.max(this.maxBytes, b.length);
        const key = bytesKey(b);
        if (!this.byBytes.has(key)) this.byBytes.set(key, id);
      }
    }
    return this.maxBytes;
  }

  /** The tokens whose text `pattern` matches, found once per pattern object and kept. */
  tokensMatching(pattern: RegExp): readonly number[] {
    let ids = this.matching.get(pattern);
    if (!ids) {
      ids = [];
      for (let id = 0; id < this.size; id++) if (pattern.test(this.text(id))) ids.push(id);
      this.matching.set(pattern, ids);
    }
    return ids;
  }

  /** The text of token `id` (cached). */
  text(id: number): string {
    let text = this.texts[id];
    if (text === undefined) {
      text = this.vocab.tokenText(id);
      this.texts[id] = text;
    }
    return text;
  }

  /**
   * Every token t (non-empty text) for which `ok(base + text(t))` holds, given that `ok` is
   * prefix-closed: when `ok(s)` fails, `ok` fails for every extension of `s`. Subtrees of the
   * token-text trie whose prefix already fails are skipped whole.
   */
  acceptedTokens(base: string, ok: (text: string) => boolean): number[] {
    const sorted = this.sortedIds();
    const out: number[] = [];
    const visit = (lo: number, hi: number, depth: number, prefix: string) => {
      let i = lo;
      // Tokens whose whole text is the prefix come first in sorted order.
      while (i < hi && this.text(sorted[i]).length === depth) {
        if (depth > 0) out.push(sorted[i]);
        i++;
      }
      while (i < hi) {
        const code = this.text(sorted[i]).charCodeAt(depth);
        const end = this.groupEnd(sorted, i, hi, depth, code);
        const extended = prefix + String.fromCharCode(code);
        if (ok(base + extended)) visit(i, end, depth + 1, extended);
        i = end;
      }
    };
    visit(0, sorted.length, 0, "");
    return out;
  }

  /** Ids sorted by text (UTF-16 code unit order), built on first use. */
  private sortedIds(): Int32Array {
    if (!this.sorted) {
      const ids = Array.from({ length: this.size }, (_, i) => i);
      for (const id of ids) this.text(id);
      ids.sort((a, b) => {
        const x = this.texts[a]!;
        const y = this.texts[b]!;
        return x < y ? -1 : x > y ? 1 : a - b;
      });
      this.sorted = Int32Array.from(ids);
    }
    return this.sorted;
  }

  /** First index in [from, hi) whose char at `depth` is above `code` (binary search). */
  private groupEnd(sorted: Int32Array, from: number, hi: number, depth: number, code: number): number {
    let lo = from + 1;
    let top = hi;
    while (lo < top) {
      const mid = (lo + top) >>> 1;
      if (this.text(sorted[mid]).charCodeAt(depth) > code) top = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** A map key for a byte string: one UTF-16 code unit per byte. */
function bytesKey(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}
